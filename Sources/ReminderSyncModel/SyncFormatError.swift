import CivilTime
import ICalendar
import ReminderCore

/// Why a task resource cannot be read as a reminderd item, naming the resource and the
/// property or field at fault.
public enum SyncFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is not iCalendar.
    case syntax(resource: String, ICalendarError)
    /// It is iCalendar, but not a task reminderd can read.
    case invalid(resource: String, reason: String)
    /// A task created elsewhere, without reminderd's fields: not an item (yet).
    case notAnItem(resource: String)

    public var description: String { "\(resource): \(reason)" }

    /// The resource's name (its href).
    public var resource: String {
        switch self {
        case .syntax(let resource, _), .invalid(let resource, _), .notAnItem(let resource): return resource
        }
    }

    /// What is wrong, without the resource's name (`SyncPulled` gives the two apart).
    public var reason: String {
        switch self {
        case .syntax(_, let error): return "\(error)"
        case .invalid(_, let reason): return reason
        case .notAnItem: return "a task without X-REMINDERD-KIND, not one of reminderd's items"
        }
    }
}
