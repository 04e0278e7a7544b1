import CivilTime
import ReminderCore
import ReminderJSON

/// A value as a varlink message carries it: written as one JSON value and read back from one,
/// so each type is spelt on the wire in one place — money as its canonical decimal text, a time
/// as RFC 3339 with the daemon's offset, a status or a kind as its raw value.
public protocol WireValue: Sendable, Equatable {
    var wire: JSONValue { get }
    /// Nil when `wire` is not one of these.
    init?(wire: JSONValue)
    /// What the value is, for an error that names what was expected: "a string".
    static var expected: String { get }
}

extension JSONValue {
    /// A value, or null for nil (the key stays in the object).
    public static func optional<Value: WireValue>(_ value: Value?) -> JSONValue { value?.wire ?? .null }
}

extension String: WireValue {
    public var wire: JSONValue { .string(self) }
    public init?(wire: JSONValue) {
        guard case .string(let text) = wire else { return nil }
        self = text
    }
    public static var expected: String { "a string" }
}

extension Int64: WireValue {
    public var wire: JSONValue { .integer(self) }
    public init?(wire: JSONValue) {
        guard case .integer(let number) = wire else { return nil }
        self = number
    }
    public static var expected: String { "a whole number" }
}

extension Bool: WireValue {
    public var wire: JSONValue { .bool(self) }
    public init?(wire: JSONValue) {
        guard case .bool(let flag) = wire else { return nil }
        self = flag
    }
    public static var expected: String { "true or false" }
}

extension Array: WireValue where Element: WireValue {
    public var wire: JSONValue { .array(map(\.wire)) }
    public init?(wire: JSONValue) {
        guard case .array(let elements) = wire else { return nil }
        var values: [Element] = []
        for element in elements {
            guard let value = Element(wire: element) else { return nil }
            values.append(value)
        }
        self = values
    }
    public static var expected: String { "an array of \(pluralOf(Element.self))" }
}

/// An object of values by name, such as totals by currency (`{"EUR": "12.50"}`).
extension Dictionary: WireValue where Key == String, Value: WireValue {
    public var wire: JSONValue { .object(mapValues(\.wire)) }
    public init?(wire: JSONValue) {
        guard case .object(let members) = wire else { return nil }
        var values: [String: Value] = [:]
        for (name, member) in members {
            guard let value = Value(wire: member) else { return nil }
            values[name] = value
        }
        self = values
    }
    public static var expected: String { "an object of \(pluralOf(Value.self))" }
}

/// "strings" of "a string": what a collection of values holds, for its `expected`.
private func pluralOf<Value: WireValue>(_ type: Value.Type) -> String {
    let one = Value.expected
    return one.dropFirst(one.hasPrefix("an ") ? 3 : one.hasPrefix("a ") ? 2 : 0) + "s"
}

/// A value of text on the wire: its raw value, or its description read back by `init?(text:)`.
public protocol WireText: WireValue {
    var text: String { get }
    init?(text: String)
}

extension WireText {
    public var wire: JSONValue { .string(text) }
    public init?(wire: JSONValue) {
        guard case .string(let text) = wire else { return nil }
        self.init(text: text)
    }
}

/// Money as its canonical decimal text (`"15"`, `"7.50"`), as items store it.
extension Money: WireText {
    public var text: String { description }
    public init?(text: String) {
        guard case .success(let money) = Money.parse(text) else { return nil }
        self = money
    }
    public static var expected: String { "a decimal amount as a string" }
}

/// An RFC 3339 time with its offset, as the daemon writes it in its zone.
extension OffsetDateTime: WireText {
    public var text: String { description }
    public init?(text: String) { self.init(text) }
    public static var expected: String { "an RFC 3339 time as a string" }
}

/// A date as `YYYY-MM-DD`.
extension LocalDate: WireText {
    public var text: String { description }
    public init?(text: String) {
        guard case .success(let date) = LocalDate.parse(text) else { return nil }
        self = date
    }
    public static var expected: String { "a date (YYYY-MM-DD) as a string" }
}

extension ItemStatus: WireText {
    public var text: String { rawValue }
    public init?(text: String) { self.init(rawValue: text) }
    public static var expected: String { "a status (\(allCases.map(\.rawValue).joined(separator: ", ")))" }
}

extension ItemKind: WireText {
    public var text: String { rawValue }
    public init?(text: String) { self.init(rawValue: text) }
    public static var expected: String { "a kind (\(allCases.map(\.rawValue).joined(separator: ", ")))" }
}

extension Benefit.Period: WireText {
    public var text: String { rawValue }
    public init?(text: String) { self.init(rawValue: text) }
    public static var expected: String { "a period (\(allCases.map(\.rawValue).joined(separator: ", ")))" }
}
