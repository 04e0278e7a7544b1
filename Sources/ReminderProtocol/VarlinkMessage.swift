import ReminderCore
import ReminderJSON

/// A varlink method call: `{"method": "io.reminderd.Reminders.Add", "parameters": {…}}`.
public struct VarlinkCall: Sendable, Equatable {
    public let method: String
    public let parameters: [String: JSONValue]
    /// The caller wants no reply.
    public let oneway: Bool

    public init(method: String, parameters: [String: JSONValue] = [:], oneway: Bool = false) {
        self.method = method
        self.parameters = parameters
        self.oneway = oneway
    }

    /// Reads a call, refusing anything that is not one.
    public init(bytes: [UInt8]) throws(ReminderProtocolError) {
        let value: JSONValue
        do { value = try JSONValue.parse(bytes, source: "message") } catch {
            throw .malformedMessage(reason: error.description)
        }
        guard case .object(let fields) = value, case .string(let method)? = fields["method"] else {
            throw .malformedMessage(reason: "expected an object with a \"method\" string")
        }
        var parameters: [String: JSONValue] = [:]
        switch fields["parameters"] {
        case nil, .null?: break
        case .object(let object)?: parameters = object
        default: throw .malformedMessage(reason: "\"parameters\" must be an object")
        }
        var oneway = false
        if case .bool(true)? = fields["oneway"] { oneway = true }
        self.init(method: method, parameters: parameters, oneway: oneway)
    }

    public var bytes: [UInt8] {
        var object: [String: JSONValue] = ["method": .string(method), "parameters": .object(parameters)]
        if oneway { object["oneway"] = .bool(true) }
        return VarlinkJSON.encode(.object(object))
    }
}

/// A varlink reply: parameters, or an error name with its parameters — or, on the daemon's side,
/// parameters written straight into the connection's buffer by a `VarlinkReplyWriter` (a `list`
/// of 10k items is 2.5 MiB of JSON, and its tree of dictionaries several times that).
public enum VarlinkReply: Sendable, Equatable {
    case success([String: JSONValue])
    case failure(VarlinkError)
    /// A success whose parameters are written when the reply goes out, not built before: only
    /// the daemon makes one; a reply read from bytes is never one.
    case streamed(any VarlinkReplyWriter)

    public init(bytes: [UInt8]) throws(ReminderProtocolError) {
        let value: JSONValue
        do { value = try JSONValue.parse(bytes, source: "reply") } catch {
            throw .malformedMessage(reason: error.description)
        }
        guard case .object(let fields) = value else { throw .malformedMessage(reason: "a reply must be an object") }
        var parameters: [String: JSONValue] = [:]
        if case .object(let object)? = fields["parameters"] { parameters = object }
        if case .string(let name)? = fields["error"] {
            self = .failure(VarlinkError(name: name, parameters: parameters))
        } else {
            self = .success(parameters)
        }
    }

    public var bytes: [UInt8] {
        var out: [UInt8] = []
        append(to: &out)
        return out
    }

    /// Appends the reply, ended by the varlink NUL, to `out` (a connection's write buffer): no
    /// copy of a large reply's bytes is made on its way out.
    public func append(to out: inout [UInt8]) {
        switch self {
        case .success(let parameters):
            VarlinkJSON.append(.object(["parameters": .object(parameters)]), to: &out)
        case .failure(let error):
            VarlinkJSON.append(
                .object(["error": .string(error.name), "parameters": .object(error.parameters)]), to: &out)
        case .streamed(let writer):
            // The bytes `.success` of the same parameters gives: its one key, then the object.
            out += Array(#"{"parameters":"#.utf8)
            writer.writeParameters(into: &out)
            out.append(UInt8(ascii: "}"))
            out.append(0)
        }
    }

    /// What `VarlinkReplyWriter.estimatedSize` says of a streamed reply; 0 for the others,
    /// built before (their size is known once written).
    public var estimatedSize: Int {
        guard case .streamed(let writer) = self else { return 0 }
        return writer.estimatedSize + 16
    }

    /// Replies are equal when they put the same bytes on the wire (a streamed one is compared by
    /// writing it).
    public static func == (lhs: VarlinkReply, rhs: VarlinkReply) -> Bool {
        switch (lhs, rhs) {
        case (.success(let left), .success(let right)): return left == right
        case (.failure(let left), .failure(let right)): return left == right
        case (.streamed, _), (_, .streamed): return lhs.bytes == rhs.bytes
        default: return false
        }
    }
}

/// Writes a reply's parameters — one JSON object, compact with sorted keys, as
/// `JSONValue.serialize` writes them — into a connection's write buffer when the reply goes out,
/// building each part only as it is written, so a reply of thousands of items never exists
/// whole beside its bytes. It writes what it captured when the call was answered.
public protocol VarlinkReplyWriter: Sendable {
    func writeParameters(into out: inout [UInt8])
    /// Bytes enough for the whole reply, generously: the buffer is reserved at this size before
    /// writing, so it does not grow by doubling — each growth copies what was written into a
    /// buffer twice as large, the old one alive during the copy. Pages reserved but never
    /// written are not resident, so too much costs nothing; too little, one doubling more.
    var estimatedSize: Int { get }
}

/// A named varlink error (`io.reminderd.Reminders.NoSuchItem`) with its parameters.
public struct VarlinkError: Error, Sendable, Equatable, CustomStringConvertible {
    public let name: String
    public let parameters: [String: JSONValue]

    public init(name: String, parameters: [String: JSONValue] = [:]) {
        self.name = name
        self.parameters = parameters
    }

    /// The error in one line: the daemon's `reason`/`field`/`id` parameters when present.
    public var description: String {
        func text(_ key: String) -> String? {
            if case .string(let value)? = parameters[key] { return value }
            return nil
        }
        let shortName = name.split(separator: ".").last.map(String.init) ?? name
        switch (text("field") ?? text("parameter"), text("reason")) {
        case (let field?, let reason?): return "\(field): \(reason)"
        case (nil, let reason?): return reason
        default:
            if let id = text("id") { return "\(shortName): \(id)" }
            if let prefix = text("prefix") { return "\(shortName): \(prefix)" }
            return shortName
        }
    }
}

/// Compact JSON with sorted keys, ended by the varlink NUL.
enum VarlinkJSON {
    static func encode(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        append(value, to: &out)
        return out
    }

    static func append(_ value: JSONValue, to out: inout [UInt8]) {
        value.serialize(into: &out)
        out.append(0)
    }
}
