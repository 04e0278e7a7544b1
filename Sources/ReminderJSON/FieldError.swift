/// A refusal of one field of a JSON document: the field's path (`items[2].next`,
/// `quietHours.start`, or the document's source for text that is not JSON at all) and a reason a
/// person can act on. `ReminderCore` refuses items and configs with it too (as `ReminderCoreError`).
public enum FieldError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidValue(field: String, reason: String)
    case missingField(field: String, reason: String)
    case unknownField(field: String)

    public var description: String { "\(field): \(reason)" }

    /// What is wrong, without the field.
    public var reason: String {
        switch self {
        case .invalidValue(_, let reason): return reason
        case .missingField(_, let reason): return "missing (\(reason))"
        case .unknownField: return "unknown field"
        }
    }

    /// The offending field's path.
    public var field: String {
        switch self {
        case .invalidValue(let field, _), .missingField(let field, _), .unknownField(let field): return field
        }
    }
}
