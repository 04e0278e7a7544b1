import ReminderCore
import ReminderJSON

extension JSONValue {
    /// A string, or null for nil (the key stays in the reply).
    public static func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }
}

extension [String: JSONValue] {
    /// Sets `key` to `text`, or leaves it out for nil (the key is absent, not null).
    mutating func put(_ key: String, _ text: String?) {
        if let text { self[key] = .string(text) }
    }
}

/// Reads a reply object's fields, refusing a missing or mistyped one with its path
/// (`status.items: expected a whole number`).
struct ReplyFields {
    let fields: [String: JSONValue]
    let path: String

    init(_ value: JSONValue?, _ path: String) throws(ReminderProtocolError) {
        guard case .object(let fields)? = value else { throw .malformedMessage(reason: "\(path): expected an object") }
        self.fields = fields
        self.path = path
    }

    /// The objects of an array field.
    static func objects(_ value: JSONValue?, _ path: String) throws(ReminderProtocolError) -> [ReplyFields] {
        guard case .array(let elements)? = value else { throw .malformedMessage(reason: "\(path): expected an array") }
        var objects: [ReplyFields] = []
        for (index, element) in elements.enumerated() { objects.append(try ReplyFields(element, "\(path)[\(index)]")) }
        return objects
    }

    private func wrong(_ key: String, _ expected: String) -> ReminderProtocolError {
        .malformedMessage(reason: "\(path).\(key): expected \(expected)")
    }

    func string(_ key: String) throws(ReminderProtocolError) -> String {
        guard case .string(let text)? = fields[key] else { throw wrong(key, "a string") }
        return text
    }

    func optionalString(_ key: String) throws(ReminderProtocolError) -> String? {
        switch fields[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw wrong(key, "a string or null")
        }
    }

    func integer(_ key: String) throws(ReminderProtocolError) -> Int64 {
        guard case .integer(let number)? = fields[key] else { throw wrong(key, "a whole number") }
        return number
    }

    func bool(_ key: String) throws(ReminderProtocolError) -> Bool {
        guard case .bool(let flag)? = fields[key] else { throw wrong(key, "true or false") }
        return flag
    }

    func strings(_ key: String) throws(ReminderProtocolError) -> [String] {
        guard case .array(let elements)? = fields[key] else { throw wrong(key, "an array of strings") }
        var texts: [String] = []
        for element in elements {
            guard case .string(let text) = element else { throw wrong(key, "an array of strings") }
            texts.append(text)
        }
        return texts
    }

    func optionalInteger(_ key: String) throws(ReminderProtocolError) -> Int64? {
        switch fields[key] {
        case nil, .null?: return nil
        case .integer(let number)?: return number
        default: throw wrong(key, "a whole number or null")
        }
    }

    func object(_ key: String) throws(ReminderProtocolError) -> ReplyFields {
        try ReplyFields(fields[key], "\(path).\(key)")
    }

    func objects(_ key: String) throws(ReminderProtocolError) -> [ReplyFields] {
        try ReplyFields.objects(fields[key], "\(path).\(key)")
    }

    /// An object of strings, such as totals by currency (`{"EUR": "12.50"}`).
    func stringMap(_ key: String) throws(ReminderProtocolError) -> [String: String] {
        guard case .object(let entries)? = fields[key] else { throw wrong(key, "an object of strings") }
        var map: [String: String] = [:]
        for (name, value) in entries {
            guard case .string(let text) = value else { throw wrong(key, "an object of strings") }
            map[name] = text
        }
        return map
    }

    func optionalObject(_ key: String) throws(ReminderProtocolError) -> ReplyFields? {
        switch fields[key] {
        case nil, .null?: return nil
        default: return try ReplyFields(fields[key], "\(path).\(key)")
        }
    }
}
