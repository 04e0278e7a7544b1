/// Reads the fields of one JSON object, remembering which were read so that whatever is left
/// can be refused as unknown.
public struct FieldReader {
    public let path: String
    /// The object's fields, all of them (a client's reply keeps an item's whole).
    public let fields: [String: JSONValue]
    /// The keys asked for — a dozen at most, so a list beats hashing into a set.
    private var read: [String] = []

    public init(_ value: JSONValue, path: String) throws(FieldError) {
        guard case .object(let fields) = value else {
            throw .invalidValue(
                field: path.isEmpty ? "(top level)" : path, reason: "expected an object, found \(value.typeName)")
        }
        self.init(fields: fields, path: path)
    }

    /// The fields of an object already taken apart (a call's parameters).
    public init(fields: [String: JSONValue], path: String) {
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

    public mutating func string(_ key: String) throws(FieldError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else {
            throw .invalidValue(field: fieldPath(key), reason: "expected a string, found \(value.typeName)")
        }
        return text
    }

    public mutating func integer(_ key: String) throws(FieldError) -> Int64? {
        guard let value = value(key) else { return nil }
        guard case .integer(let number) = value else {
            throw .invalidValue(field: fieldPath(key), reason: "expected a whole number, found \(value.typeName)")
        }
        return number
    }

    public mutating func boolean(_ key: String) throws(FieldError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else {
            throw .invalidValue(field: fieldPath(key), reason: "expected true or false, found \(value.typeName)")
        }
        return flag
    }

    public mutating func array(_ key: String) throws(FieldError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else {
            throw .invalidValue(field: fieldPath(key), reason: "expected an array, found \(value.typeName)")
        }
        return elements
    }

    /// Refuses every field that was never read.
    public func rejectUnknown() throws(FieldError) {
        // The first in sorted order, without an array for the usual object, which has none.
        if let unknown = fields.keys.lazy.filter({ !read.contains($0) }).min() {
            throw .unknownField(field: fieldPath(unknown))
        }
    }
}
