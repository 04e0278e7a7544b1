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

    public var description: String {
        switch self {
        case .syntax(let resource, let error): return "\(resource): \(error)"
        case .invalid(let resource, let reason): return "\(resource): \(reason)"
        case .notAnItem(let resource):
            return "\(resource): a task without X-REMINDERD-KIND, not one of reminderd's items"
        }
    }
}
