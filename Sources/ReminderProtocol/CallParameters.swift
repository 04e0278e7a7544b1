import ReminderCore
import ReminderJSON

/// One parameter of a method, declared once: its name, its type as the interface description
/// writes it (`?bool`), and the property it is read into and written from. A method lists its
/// parameters in a table (`CallParameters.declared`); the daemon's reading, a client's writing,
/// the names a call may carry and the description's parameter list are all derived from it, so a
/// new parameter is its property and one line in that table. The refusals are `InvalidParameter`
/// naming the parameter, in the words clients have seen ("missing", "expected true or false").
///
/// Its constructors and the reading and writing are not specialized for each method
/// (`optimize.sil.specialize.generic.never`): a call's parameters are read once per call, and
/// the specialized copies cost the package more than its size budget had left.
public struct CallParameter<Call>: Sendable {
    public let name: String
    /// As the interface description writes it: `string`, `?int`, `[]object`.
    public let type: String
    let write: @Sendable (Call, inout [String: JSONValue]) -> Void
    /// Reads the value (nil: absent or null) into the call.
    let read: @Sendable (inout Call, JSONValue?) throws(VarlinkError) -> Void

    init(
        _ name: String, _ type: String, write: @escaping @Sendable (Call, inout [String: JSONValue]) -> Void,
        read: @escaping @Sendable (inout Call, JSONValue?) throws(VarlinkError) -> Void
    ) {
        (self.name, self.type, self.write, self.read) = (name, type, write, read)
    }

    /// A value `read` takes out of JSON, refusing a missing one; written by `wire`.
    @_semantics("optimize.sil.specialize.generic.never")
    static func required<Value>(
        _ name: String, _ type: String, _ property: WritableKeyPath<Call, Value> & Sendable,
        wire: @escaping @Sendable (Value) -> JSONValue,
        read: @escaping @Sendable (JSONValue, _ place: String) throws(VarlinkError) -> Value
    ) -> CallParameter {
        CallParameter(name, type) { call, object in
            object[name] = wire(call[keyPath: property])
        } read: { call, json throws(VarlinkError) in
            guard let json else { throw .invalidParameter(name, "missing") }
            call[keyPath: property] = try read(json, name)
        }
    }

    /// A value left out when nil (absent, not null), so a call without it is as it was.
    @_semantics("optimize.sil.specialize.generic.never")
    static func optional<Value>(
        _ name: String, _ type: String, _ property: WritableKeyPath<Call, Value?> & Sendable,
        wire: @escaping @Sendable (Value) -> JSONValue,
        read: @escaping @Sendable (JSONValue, _ place: String) throws(VarlinkError) -> Value
    ) -> CallParameter {
        CallParameter(name, "?" + type) { call, object in
            if let value = call[keyPath: property] { object[name] = wire(value) }
        } read: { call, json throws(VarlinkError) in
            call[keyPath: property] = try json.map { json throws(VarlinkError) in try read(json, name) }
        }
    }

    @_semantics("optimize.sil.specialize.generic.never")
    public static func string(_ name: String, _ property: WritableKeyPath<Call, String> & Sendable) -> CallParameter {
        required(name, "string", property, wire: { .string($0) }, read: readString)
    }

    @_semantics("optimize.sil.specialize.generic.never")
    public static func optionalString(
        _ name: String, _ property: WritableKeyPath<Call, String?> & Sendable
    ) -> CallParameter {
        optional(name, "string", property, wire: { .string($0) }, read: readString)
    }

    /// A flag, false when absent; written only when true, so a call without it reaches a daemon
    /// older than the flag unrefused.
    @_semantics("optimize.sil.specialize.generic.never")
    public static func flag(_ name: String, _ property: WritableKeyPath<Call, Bool> & Sendable) -> CallParameter {
        CallParameter(name, "?bool") { call, object in
            if call[keyPath: property] { object[name] = .bool(true) }
        } read: { call, json throws(VarlinkError) in
            guard let json else { return call[keyPath: property] = false }
            guard case .bool(let flag) = json else { throw .invalidParameter(name, "expected true or false") }
            call[keyPath: property] = flag
        }
    }

    /// A count or a number of days from 0 to 100000, `fallback` when absent; always written.
    @_semantics("optimize.sil.specialize.generic.never")
    public static func count(
        _ name: String, _ property: WritableKeyPath<Call, Int> & Sendable, default fallback: Int
    ) -> CallParameter {
        CallParameter(name, "?int") { call, object in
            object[name] = .integer(Int64(call[keyPath: property]))
        } read: { call, json throws(VarlinkError) in
            guard let json else { return call[keyPath: property] = fallback }
            guard case .integer(let number) = json, number >= 0, number <= 100_000 else {
                throw .invalidParameter(name, "expected a whole number from 0 to 100000")
            }
            call[keyPath: property] = Int(number)
        }
    }

    /// A whole number that must be there (a change's `seq`, which the daemon gave).
    @_semantics("optimize.sil.specialize.generic.never")
    public static func integer(_ name: String, _ property: WritableKeyPath<Call, Int64> & Sendable) -> CallParameter {
        CallParameter(name, "int") { call, object in
            object[name] = .integer(call[keyPath: property])
        } read: { call, json throws(VarlinkError) in
            guard case .integer(let number)? = json else { throw .invalidParameter(name, "expected a whole number") }
            call[keyPath: property] = number
        }
    }

    /// An object that travels whole: only its being an object is checked here; what its fields
    /// mean is its reader's (an item's, `ItemJSON`).
    @_semantics("optimize.sil.specialize.generic.never")
    public static func object(_ name: String, _ property: WritableKeyPath<Call, JSONValue> & Sendable) -> CallParameter {
        required(name, "object", property, wire: { $0 }) { json, place throws(VarlinkError) in
            do throws(FieldError) { _ = try FieldReader(json, path: place) } catch { throw .invalidParameter(error.field, error.reason) }
            return json
        }
    }

    /// Any value, unread here: its reader refuses what it is not (a backup's state, `Backup`).
    @_semantics("optimize.sil.specialize.generic.never")
    public static func optionalValue(
        _ name: String, _ property: WritableKeyPath<Call, JSONValue?> & Sendable
    ) -> CallParameter {
        optional(name, "object", property, wire: { $0 }) { json, _ in json }
    }

    /// An array whose elements `element` reads, each named by its place (`removed[2]`).
    @_semantics("optimize.sil.specialize.generic.never")
    static func array<Element>(
        _ name: String, _ type: String, _ property: WritableKeyPath<Call, [Element]> & Sendable,
        wire: @escaping @Sendable (Element) -> JSONValue,
        element: @escaping @Sendable (JSONValue, _ place: String) throws(VarlinkError) -> Element
    ) -> CallParameter {
        required(name, "[]" + type, property, wire: { .array($0.map(wire)) }) { json, place throws(VarlinkError) in
            guard case .array(let elements) = json else {
                throw .invalidParameter(place, "expected an array, found \(json.typeName)")
            }
            var values: [Element] = []
            for (index, value) in elements.enumerated() { values.append(try element(value, "\(place)[\(index)]")) }
            return values
        }
    }

    /// An array of objects that travel whole, each read by its own reader (items, by `ItemJSON`).
    @_semantics("optimize.sil.specialize.generic.never")
    public static func objects(_ name: String, _ property: WritableKeyPath<Call, [JSONValue]> & Sendable) -> CallParameter {
        array(name, "object", property, wire: { $0 }) { json, _ in json }
    }

    @_semantics("optimize.sil.specialize.generic.never")
    public static func strings(_ name: String, _ property: WritableKeyPath<Call, [String]> & Sendable) -> CallParameter {
        array(name, "string", property, wire: { .string($0) }, element: readString)
    }

    /// A positive decimal amount (`"7.50"`), read and checked here; the engine applies the item's
    /// currency. Text on the wire, as every amount in the interface: JSON numbers are binary
    /// floating point to most clients (Python's `json`, JavaScript), where `0.1` is not a decimal
    /// and a 12-digit amount loses its cents, and the text is what items store (CONTRACT §2).
    @_semantics("optimize.sil.specialize.generic.never")
    public static func amount(_ name: String, _ property: WritableKeyPath<Call, Money?> & Sendable) -> CallParameter {
        optional(name, "string", property, wire: { .string($0.description) }) { json, place throws(VarlinkError) in
            let text = try readString(json, place)
            guard case .success(let amount) = Money.parse(text), amount > .zero else {
                throw .invalidParameter(place, "\"\(text)\" is not a positive decimal amount")
            }
            return amount
        }
    }
}

private func readString(_ json: JSONValue, _ place: String) throws(VarlinkError) -> String {
    guard case .string(let text) = json else { throw .invalidParameter(place, "expected a string, found \(json.typeName)") }
    return text
}

/// A method's parameters, declared in `declared` and read and written by it alone.
public protocol CallParameters: Sendable, Equatable {
    static var declared: [CallParameter<Self>] { get }
    /// A value for `init(parameters:)` to read every declared parameter into.
    init(unread: Void)
}

extension CallParameters {
    public static var parameterNames: [String] { declared.map(\.name) }

    /// `id: string, amount: ?string`: the parameter list of the interface description's method.
    public static var signature: String { declared.map { "\($0.name): \($0.type)" }.joined(separator: ", ") }

    /// Reads a call's parameters, refusing one not declared (the first in sorted order), a
    /// missing one, and one of the wrong type, with `InvalidParameter` naming it.
    @_semantics("optimize.sil.specialize.generic.never")
    public init(parameters: [String: JSONValue]) throws(VarlinkError) {
        let declared = Self.declared
        if let unknown = parameters.keys.lazy.filter({ name in !declared.contains { $0.name == name } }).min() {
            throw .invalidParameter(unknown, "unknown parameter")
        }
        self.init(unread: ())
        for parameter in declared {
            let value = parameters[parameter.name]
            try parameter.read(&self, value == .null ? nil : value)
        }
    }

    /// The parameters as a client writes them.
    @_semantics("optimize.sil.specialize.generic.never")
    public var parameters: [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        for parameter in Self.declared { parameter.write(self, &object) }
        return object
    }
}
