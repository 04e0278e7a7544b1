import ReminderCore
import ReminderJSON

extension JSONValue {
    /// A value, or null for nil (the key stays in the reply).
    public static func optional<Value: WireValue>(_ value: Value?) -> JSONValue { value?.wire ?? .null }
}

extension [String: JSONValue] {
    /// Sets `key` to `text`, or leaves it out for nil (the key is absent, not null).
    mutating func put(_ key: String, _ text: String?) {
        if let text { self[key] = .string(text) }
    }
}

/// Reads a reply object's fields on `FieldReader`, the one reader of JSON objects, and refuses a
/// missing or mistyped one in the client's words, with its path (`status.items: expected a whole
/// number`), as a malformed message: what the daemon sent is wrong, not what a user typed.
/// Unknown fields are not refused (a newer daemon may add some).
struct ReplyFields {
    private let reader: FieldReader
    var path: String { reader.path }

    init(_ value: JSONValue?, _ path: String) throws(ReminderProtocolError) {
        guard let value, let reader = try? FieldReader(value, path: path) else {
            throw .malformedMessage(reason: "\(path): expected an object")
        }
        self.reader = reader
    }

    /// The objects of an array field.
    static func objects(_ value: JSONValue?, _ path: String) throws(ReminderProtocolError) -> [ReplyFields] {
        guard case .array(let elements)? = value else { throw .malformedMessage(reason: "\(path): expected an array") }
        var objects: [ReplyFields] = []
        for (index, element) in elements.enumerated() { objects.append(try ReplyFields(element, "\(path)[\(index)]")) }
        return objects
    }

    private func wrong(_ key: String, _ expected: String) -> ReminderProtocolError {
        .malformedMessage(reason: "\(reader.fieldPath(key)): expected \(expected)")
    }

    /// `key` as `read` reads it on the reader, nil when absent or null; `FieldReader`'s refusal
    /// of a mistyped value is said as `expected`.
    private func optional<Value>(
        _ key: String, _ expected: String, _ read: (inout FieldReader) throws(FieldError) -> Value?
    ) throws(ReminderProtocolError) -> Value? {
        var reader = self.reader
        do { return try read(&reader) } catch { throw wrong(key, expected) }
    }

    /// `key` as `read` reads it; absent, null or mistyped is refused as not `expected`.
    private func required<Value>(
        _ key: String, _ expected: String, _ read: (inout FieldReader) throws(FieldError) -> Value?
    ) throws(ReminderProtocolError) -> Value {
        guard let value = try optional(key, expected, read) else { throw wrong(key, expected) }
        return value
    }

    func string(_ key: String) throws(ReminderProtocolError) -> String {
        try required(key, "a string") { reader throws(FieldError) in try reader.string(key) }
    }

    func optionalString(_ key: String) throws(ReminderProtocolError) -> String? {
        try optional(key, "a string or null") { reader throws(FieldError) in try reader.string(key) }
    }

    /// An array of strings, or nil when absent or null.
    func optionalStrings(_ key: String) throws(ReminderProtocolError) -> [String]? {
        let elements = try optional(key, "an array of strings") { reader throws(FieldError) in try reader.array(key) }
        guard let elements else { return nil }
        var texts: [String] = []
        for element in elements {
            guard case .string(let text) = element else { throw wrong(key, "an array of strings") }
            texts.append(text)
        }
        return texts
    }

    func object(_ key: String) throws(ReminderProtocolError) -> ReplyFields {
        var reader = self.reader
        return try ReplyFields(reader.value(key), reader.fieldPath(key))
    }

    func objects(_ key: String) throws(ReminderProtocolError) -> [ReplyFields] {
        var reader = self.reader
        return try ReplyFields.objects(reader.value(key), reader.fieldPath(key))
    }
}
