import ReminderJSON

/// One field of a message object, declared once: its key, and the property it is written from and
/// read into. A message lists its fields in a table (`WireObject.wireFields`) and its encoding and
/// decoding are derived from it, so a new field is one line in that table.
public struct WireField<Owner>: Sendable {
    public let key: String
    let write: @Sendable (Owner, inout [String: JSONValue]) -> Void
    /// Reads the field's value (nil: absent or null) into the owner; what was expected when the
    /// value is not one.
    let read: @Sendable (inout Owner, JSONValue?) -> String?

    /// A field that is always there.
    public static func required<Value: WireValue>(
        _ key: String, _ property: WritableKeyPath<Owner, Value> & Sendable
    ) -> WireField {
        WireField(key: key) { owner, object in
            object[key] = owner[keyPath: property].wire
        } read: { owner, json in
            guard let json, let value = Value(wire: json) else { return Value.expected }
            owner[keyPath: property] = value
            return nil
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
        } read: { owner, json in
            guard let json else {
                owner[keyPath: property] = nil
                return nil
            }
            guard let value = Value(wire: json) else { return "\(Value.expected) or null" }
            owner[keyPath: property] = value
            return nil
        }
    }

    /// A flag left out when false (a call's option, such as `force`).
    public static func flag(_ key: String, _ property: WritableKeyPath<Owner, Bool> & Sendable) -> WireField {
        WireField(key: key) { owner, object in
            if owner[keyPath: property] { object[key] = .bool(true) }
        } read: { owner, json in
            guard let json else {
                owner[keyPath: property] = false
                return nil
            }
            guard case .bool(let flag) = json else { return Bool.expected }
            owner[keyPath: property] = flag
            return nil
        }
    }
}

/// A message object whose fields are its `wireFields`: written and read by them alone.
public protocol WireObject: Sendable, Equatable {
    static var wireFields: [WireField<Self>] { get }
    /// A value for `init(wire:path:)` to read every field of the table into.
    init(unread: Void)
}

extension WireObject {
    /// The object's fields as the wire carries them.
    public var wireObject: [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        for field in Self.wireFields { field.write(self, &object) }
        return object
    }

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
            if let expected = field.read(&self, value) {
                let place = path.isEmpty ? field.key : "\(path).\(field.key)"
                throw .malformedMessage(reason: "\(place): expected \(expected)")
            }
        }
    }
}
