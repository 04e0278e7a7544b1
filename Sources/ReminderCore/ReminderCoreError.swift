/// Everything `ReminderCore` refuses, with the field (a JSON path such as `items[2].next` or
/// `quietHours.start`) and a reason a person can act on.
public enum ReminderCoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidValue(field: String, reason: String)
    case missingField(field: String, reason: String)
    case unknownField(field: String)
    case invalidZoneData(zone: String, reason: String)

    public var description: String {
        switch self {
        case .invalidValue(let field, let reason): return "\(field): \(reason)"
        case .missingField(let field, let reason): return "\(field): missing (\(reason))"
        case .unknownField(let field): return "\(field): unknown field"
        case .invalidZoneData(let zone, let reason): return "time zone \(zone): \(reason)"
        }
    }

    /// The offending field's path, when there is one.
    public var field: String? {
        switch self {
        case .invalidValue(let field, _), .missingField(let field, _), .unknownField(let field): return field
        case .invalidZoneData: return nil
        }
    }
}
