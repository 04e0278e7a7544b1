import ReminderJSON

/// One field of a message object, declared once: its key, and the property it is written from and
/// read into. A message lists its fields in a table (`WireObject.wireFields`) and its encoding and
/// decoding are derived from it, so a new field is one line in that table.
public struct WireField<Owner>: Sendable {
    public let key: String
    let write: @Sendable (Owner, inout [String: JSONValue]) -> Void
    /// Reads the field's value (nil: absent or null) into the owner; `place` names it in an error.
    let read: @Sendable (inout Owner, _ value: JSONValue?, _ place: String) throws(ReminderProtocolError) -> Void

    init(
        key: String, write: @escaping @Sendable (Owner, inout [String: JSONValue]) -> Void,
        read: @escaping @Sendable (inout Owner, JSONValue?, String) throws(ReminderProtocolError) -> Void
    ) {
        (self.key, self.write, self.read) = (key, write, read)
    }

    static func wrong(_ place: String, _ expected: String) -> ReminderProtocolError {
        .malformedMessage(reason: "\(place): expected \(expected)")
    }

    /// A field that is always there.
    public static func required<Value: WireValue>(
        _ key: String, _ property: WritableKeyPath<Owner, Value> & Sendable
    ) -> WireField {
        WireField(key: key) { owner, object in
            object[key] = owner[keyPath: property].wire
        } read: { owner, json, place throws(ReminderProtocolError) in
            guard let json, let value = Value(wire: json) else { throw wrong(place, Value.expected) }
            owner[keyPath: property] = value
        }
    }

    /// A field left out when nil (the key is absent, not null); `null` reads as nil.
    public static func optional<Value: WireValue>(
        _ key: String, _ property: WritableKeyPath<Owner, Value?> & Sendable
    ) -> WireField {
        nullable(key, property) { _ in false }
    }

    /// A field written as `null` when nil while `written` holds of the owner, else left out.
    public static func nullable<Value: WireValue>(
        _ key: String, _ property: WritableKeyPath<Owner, Value?> & Sendable,
        when written: @escaping @Sendable (Owner) -> Bool = { _ in true }
    ) -> WireField {
        WireField(key: key) { owner, object in
            if let value = owner[keyPath: property] {
                object[key] = value.wire
            } else if written(owner) {
                object[key] = .null
            }
        } read: { owner, json, place throws(ReminderProtocolError) in
            guard let json else { return owner[keyPath: property] = nil }
            guard let value = Value(wire: json) else { throw wrong(place, "\(Value.expected) or null") }
            owner[keyPath: property] = value
        }
    }

    /// A field read as `fallback` when absent (a newer field an older daemon does not send).
    public static func defaulted<Value: WireValue>(
        _ key: String, _ property: WritableKeyPath<Owner, Value> & Sendable, _ fallback: Value
    ) -> WireField {
        WireField(key: key) { owner, object in
            object[key] = owner[keyPath: property].wire
        } read: { owner, json, place throws(ReminderProtocolError) in
            guard let json else { return owner[keyPath: property] = fallback }
            guard let value = Value(wire: json) else { throw wrong(place, "\(Value.expected) or null") }
            owner[keyPath: property] = value
        }
    }

    /// A flag written only when true (`"taskList": true`), so a reply without it is unchanged;
    /// absent or null reads as false.
    public static func flag(_ key: String, _ property: WritableKeyPath<Owner, Bool> & Sendable) -> WireField {
        WireField(key: key) { owner, object in
            if owner[keyPath: property] { object[key] = .bool(true) }
        } read: { owner, json, place throws(ReminderProtocolError) in
            guard let json else { return owner[keyPath: property] = false }
            guard let value = Bool(wire: json) else { throw wrong(place, "\(Bool.expected) or null") }
            owner[keyPath: property] = value
        }
    }

    /// An object of its own fields.
    public static func object<Value: WireObject>(
        _ key: String, _ property: WritableKeyPath<Owner, Value> & Sendable
    ) -> WireField {
        WireField(key: key) { owner, object in
            object[key] = owner[keyPath: property].json
        } read: { owner, json, place throws(ReminderProtocolError) in
            owner[keyPath: property] = try Value(wire: json, path: place)
        }
    }

    /// An object of its own fields, left out when nil.
    public static func optionalObject<Value: WireObject>(
        _ key: String, _ property: WritableKeyPath<Owner, Value?> & Sendable
    ) -> WireField {
        nullableObject(key, property, null: false)
    }

    /// An object of its own fields, or null when nil (left out when not `null`).
    public static func nullableObject<Value: WireObject>(
        _ key: String, _ property: WritableKeyPath<Owner, Value?> & Sendable, null: Bool = true
    ) -> WireField {
        WireField(key: key) { owner, object in
            if let value = owner[keyPath: property] { object[key] = value.json } else if null { object[key] = .null }
        } read: { owner, json, place throws(ReminderProtocolError) in
            owner[keyPath: property] = try json.map { json throws(ReminderProtocolError) in
                try Value(wire: json, path: place)
            }
        }
    }

    /// An object that groups some of the owner's own fields (`summary.benefits.available`).
    public static func group(_ key: String, _ fields: [WireField<Owner>]) -> WireField {
        WireField(key: key) { owner, object in
            var group: [String: JSONValue] = [:]
            for field in fields { field.write(owner, &group) }
            object[key] = .object(group)
        } read: { owner, json, place throws(ReminderProtocolError) in
            guard case .object(let group)? = json else { throw wrong(place, "an object") }
            for field in fields {
                try field.read(&owner, group[field.key].flatMap { $0 == .null ? nil : $0 }, "\(place).\(field.key)")
            }
        }
    }

    /// An object that travels whole, unread here (a backup's state, which `Import` reads back).
    public static func wholeObject(_ key: String, _ property: WritableKeyPath<Owner, JSONValue> & Sendable) -> WireField {
        WireField(key: key) { owner, object in
            object[key] = owner[keyPath: property]
        } read: { owner, json, place throws(ReminderProtocolError) in
            guard let json, case .object = json else { throw wrong(place, "an object") }
            owner[keyPath: property] = json
        }
    }

    /// An array whose elements travel whole, unread here (a backup's items, which `Import` reads
    /// back, each by `ItemJSON`).
    public static func wholeArray(_ key: String, _ property: WritableKeyPath<Owner, [JSONValue]> & Sendable) -> WireField {
        WireField(key: key) { owner, object in
            object[key] = .array(owner[keyPath: property])
        } read: { owner, json, place throws(ReminderProtocolError) in
            guard case .array(let elements)? = json else { throw wrong(place, "an array") }
            owner[keyPath: property] = elements
        }
    }

    /// An array of objects of their own fields; each named by its place (`entries[2].at`).
    public static func objects<Value: WireObject>(
        _ key: String, _ property: WritableKeyPath<Owner, [Value]> & Sendable
    ) -> WireField {
        WireField(key: key) { owner, object in
            object[key] = .array(owner[keyPath: property].map(\.json))
        } read: { owner, json, place throws(ReminderProtocolError) in
            guard case .array(let elements)? = json else { throw wrong(place, "an array") }
            var values: [Value] = []
            for (index, element) in elements.enumerated() { values.append(try Value(wire: element, path: "\(place)[\(index)]")) }
            owner[keyPath: property] = values
        }
    }
}

/// A message object whose fields are its `wireFields`: written and read by them alone.
public protocol WireObject: Sendable, Equatable {
    static var wireFields: [WireField<Self>] { get }
    /// A value for `init(wire:path:)` to read every field of the table into.
    init(unread: Void)
    /// Where the fields the table does not name are kept whole, for an object that shows fields
    /// this version does not know (`ItemView.more`); nil: they are not kept.
    static var otherFields: (WritableKeyPath<Self, [String: JSONValue]> & Sendable)? { get }
}

extension WireObject {
    public static var otherFields: (WritableKeyPath<Self, [String: JSONValue]> & Sendable)? { nil }

    /// The object's fields as the wire carries them.
    public var wireObject: [String: JSONValue] {
        var object = Self.otherFields.map { self[keyPath: $0] } ?? [:]
        for field in Self.wireFields { field.write(self, &object) }
        return object
    }

    public var json: JSONValue { .object(wireObject) }

    /// Reads an object of the wire at `path` (for errors: `items[2]`), refusing a missing or
    /// mistyped field as a malformed message naming it; fields it does not declare are not
    /// refused (a newer daemon may add some).
    public init(wire json: JSONValue?, path: String) throws(ReminderProtocolError) {
        guard case .object(let object)? = json else { throw .malformedMessage(reason: "\(path): expected an object") }
        try self.init(wireObject: object, path: path)
    }

    public init(wireObject object: [String: JSONValue], path: String) throws(ReminderProtocolError) {
        self.init(unread: ())
        for field in Self.wireFields {
            let value = object[field.key].flatMap { $0 == .null ? nil : $0 }
            try field.read(&self, value, path.isEmpty ? field.key : "\(path).\(field.key)")
        }
        if let others = Self.otherFields { self[keyPath: others] = Self.untypedFields(of: object) }
    }

    /// The fields of `object` that `wireFields` does not name.
    public static func untypedFields(of object: [String: JSONValue]) -> [String: JSONValue] {
        var object = object
        for field in wireFields { object[field.key] = nil }
        return object
    }
}

/// A reply that is one object of its own fields: its parameters are the object.
extension ReminderReply where Self: WireObject {
    public var parameters: [String: JSONValue] { wireObject }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        try self.init(wireObject: parameters, path: "")
    }
}
