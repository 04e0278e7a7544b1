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
            var cursor = VarlinkReplyCursor()
            VarlinkReply.appendStreamStart(to: &out)
            _ = writer.write(from: &cursor, into: &out, atLeast: .max)
            VarlinkReply.appendStreamEnd(to: &out)
        }
    }

    /// What comes before a streamed reply's parameters: the bytes `.success` of the same
    /// parameters gives, its one key and then the object.
    public static func appendStreamStart(to out: inout [UInt8]) { out += Array(#"{"parameters":"#.utf8) }

    /// What ends a streamed reply after its parameters, the varlink NUL included.
    public static func appendStreamEnd(to out: inout [UInt8]) { out += [UInt8(ascii: "}"), 0] }

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
/// `JSONValue.serialize` writes them — into a connection's write buffer part by part as the
/// reply goes out, building each part only as it is written: a reply of thousands of items never
/// exists whole beside its bytes, and a client that does not read holds only the parts written so
/// far (`ConnectionState` writes more as the socket drains). It writes what it captured when the
/// call was answered, whenever its parts are written.
public protocol VarlinkReplyWriter: Sendable {
    /// Appends the parts from `cursor` on until `out` grew by at least `bytes` or the object is
    /// complete; returns true once it is. A fresh cursor starts the object.
    func write(from cursor: inout VarlinkReplyCursor, into out: inout [UInt8], atLeast bytes: Int) -> Bool
}

/// Where a `VarlinkReplyWriter` is in its reply: the next part to write (the writer numbers its
/// parts), and whether an element of the current array was written (the next needs a comma).
public struct VarlinkReplyCursor: Sendable, Equatable {
    public var next = 0
    public var separated = false

    public init() {}
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
