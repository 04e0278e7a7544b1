/// A parsed JSON document, so that items and configs can be checked field by field, with the
/// field's path in every refusal and unknown fields caught (which `Decodable` would drop silently).
public enum JSONValue: Hashable, Sendable, Codable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// What the value is, for messages such as "expected a string, found a number".
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// Reads the fields of one JSON object, remembering which were read so that whatever is left
/// can be refused as unknown.
public struct FieldReader {
    public let path: String
    private let fields: [String: JSONValue]
    /// The keys asked for — a dozen at most, so a list beats hashing into a set.
    private var read: [String] = []

    public init(_ value: JSONValue, path: String) throws(ReminderCoreError) {
        guard case .object(let fields) = value else {
            throw .invalidValue(
                field: path.isEmpty ? "(top level)" : path, reason: "expected an object, found \(value.typeName)")
        }
        self.path = path
        self.fields = fields
    }

    public func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The value of `key`; JSON `null` counts as absent.
    public mutating func value(_ key: String) -> JSONValue? {
        if !read.contains(key) { read.append(key) }
        guard let value = fields[key], value != .null else { return nil }
        return value
    }

    public mutating func string(_ key: String) throws(ReminderCoreError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else {
            throw .invalidValue(field: fieldPath(key), reason: "expected a string, found \(value.typeName)")
        }
        return text
    }

    public mutating func integer(_ key: String) throws(ReminderCoreError) -> Int64? {
        guard let value = value(key) else { return nil }
        guard case .integer(let number) = value else {
            throw .invalidValue(field: fieldPath(key), reason: "expected a whole number, found \(value.typeName)")
        }
        return number
    }

    public mutating func array(_ key: String) throws(ReminderCoreError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else {
            throw .invalidValue(field: fieldPath(key), reason: "expected an array, found \(value.typeName)")
        }
        return elements
    }

    /// Reads a string and converts it, turning a parse failure into the field's error.
    public mutating func parsed<T>(_ key: String, _ parse: (String) -> Result<T, DateParseError>)
        throws(ReminderCoreError)
        -> T?
    {
        guard let text = try string(key) else { return nil }
        switch parse(text) {
        case .success(let value): return value
        case .failure(let error): throw .invalidValue(field: fieldPath(key), reason: "\(quoted(text)): \(error.reason)")
        }
    }

    /// Like `parsed`, for a field that must be present.
    public mutating func required<T>(_ key: String, _ why: String, _ parse: (String) -> Result<T, DateParseError>)
        throws(ReminderCoreError) -> T
    {
        guard let value = try parsed(key, parse) else { throw .missingField(field: fieldPath(key), reason: why) }
        return value
    }

    /// Refuses every field that was never read.
    public func rejectUnknown() throws(ReminderCoreError) {
        if let unknown = fields.keys.filter({ !read.contains($0) }).sorted().first {
            throw .unknownField(field: fieldPath(unknown))
        }
    }
}

/// A user's text in quotes, shortened so an error line stays one line.
func quoted(_ text: String) -> String {
    let short = text.count > 40 ? String(text.prefix(40)) + "…" : text
    return "\"\(short)\""
}
