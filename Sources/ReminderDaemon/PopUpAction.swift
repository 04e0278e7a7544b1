import ReminderCore

/// A button on a pop-up: what the composer offers (as the action key sent to the server) and
/// what the engine reads back when the server says it was pressed. One type for both, so a key
/// the composer sends is one the handler knows (they were string literals in two files).
enum PopUpAction: Equatable, Sendable {
    /// On one reminder's pop-up: marks its occurrence done (a benefit used, a rebuy rebought).
    case done
    /// On a free trial's pop-up: the person cancelled it, which ends the subscription.
    case cancelled
    /// On one reminder's pop-up: snoozes it by a configured duration.
    case snooze(CalendarDuration)
    /// On one reminder's pop-up: snoozes it until a minute before its due time (no configured
    /// snooze fits before it).
    case snoozeToLastMinute
    /// On one reminder's pop-up: snoozes it until tomorrow at the reminder time
    /// (`SnoozeTarget.tomorrow`), as `reminderctl snooze ID tomorrow` does.
    case snoozeUntilTomorrow
    /// On the confirmation of a Done: takes that Done back.
    case undo
    /// On a pop-up for several reminders (a burst, the pause digest): shows them one at a time,
    /// each on its own pop-up with its own buttons, the next once the one shown is gone.
    case oneAtATime
    /// On a pop-up for several reminders: snoozes every one of them by the duration. There is no
    /// "Done all": a snooze is taken back by the next reminder, a Done of the wrong item is not.
    case snoozeAll(CalendarDuration)

    /// The key sent to the server and given back when the button is pressed.
    var key: String {
        switch self {
        case .done: "done"
        case .cancelled: "cancelled"
        case .snooze(let duration): "snooze-\(duration)"
        case .snoozeToLastMinute: "snooze-last-minute"
        case .snoozeUntilTomorrow: "snooze-tomorrow"
        case .undo: "undo"
        case .oneAtATime: "one-at-a-time"
        case .snoozeAll(let duration): "snooze-all-\(duration)"
        }
    }

    /// The button a key names; nil for a key reminderd never sends (another program's, or a
    /// server's own such as "default").
    init?(key: String) {
        func duration(after prefix: String) -> CalendarDuration? {
            guard key.hasPrefix(prefix),
                case .success(let duration) = CalendarDuration.parse(
                    String(key.dropFirst(prefix.count)), rules: .snooze)
            else { return nil }
            return duration
        }
        switch key {
        case "done": self = .done
        case "cancelled": self = .cancelled
        case "snooze-last-minute": self = .snoozeToLastMinute
        case "snooze-tomorrow": self = .snoozeUntilTomorrow
        case "undo": self = .undo
        case "one-at-a-time": self = .oneAtATime
        default:
            if let duration = duration(after: "snooze-all-") {
                self = .snoozeAll(duration)
            } else if let duration = duration(after: "snooze-") {
                self = .snooze(duration)
            } else {
                return nil
            }
        }
    }
}
