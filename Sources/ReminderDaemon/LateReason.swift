import CivilTime
import ReminderCore

/// Why a reminder goes out after its time, recorded where the delay is decided — planning at
/// start (reminderd was not running), quiet hours moving it (planning), the outbox keeping it
/// for a server or holding it (`DeliveryController`) — so its pop-up says what happened instead
/// of guessing from the clock. A reminder the timer simply ran late carries none: nothing held
/// it, so the computer slept or its clock jumped (`PopUpComposer.lateLabel`).
enum LateReason: Sendable, Equatable {
    /// Its time came while reminderd was not running (or a previous run stopped before its
    /// outcome was recorded): planned at start to go out now.
    case notRunning
    /// No notification server on the session bus (or none that answered) from `since`.
    case noServer(since: Int64)
    /// The notification server refused it from `since`; it was tried again, backing off.
    case serverRefused(since: Int64)
    /// Held by the desktop's do-not-disturb from `since`.
    case doNotDisturb(since: Int64)
    /// Held by `reminderctl pause` from `since`.
    case paused(since: Int64)
    /// Planned out of quiet hours `window`, to their end: not held, moved.
    case quietHours(QuietHours)

    /// Whether it goes out later than planned (a quiet-hours move is the plan).
    var isLate: Bool {
        if case .quietHours = self { return false }
        return true
    }

    /// The reason a reminder kept now for `reason` carries, having carried `earlier`: the first
    /// delay is what made it late, so it stays; a quiet-hours move gives way to a delay.
    static func kept(_ reason: LateReason, after earlier: LateReason?) -> LateReason {
        guard let earlier, earlier.isLate else { return reason }
        return earlier
    }

    /// The words on a pop-up for a reminder planned for `at` and shown at `now`, with times
    /// as `time` writes them; nil when it is not worth saying (a delay under `lateAfter`).
    func words(at: Int64, now: Int64, lateAfter: Int64, time: (Int64) -> String) -> String? {
        switch self {
        case .notRunning: return "Late: reminderd was not running at \(time(at))"
        case .noServer(let since):
            return now - at > lateAfter ? "Late: no notification server from \(time(since)) until \(time(now))" : nil
        case .serverRefused(let since):
            return now - at > lateAfter
                ? "Late: the notification server refused it from \(time(since)) until \(time(now))" : nil
        // Held on purpose: said however short, so a pop-up that comes when the hold ends is explained.
        case .doNotDisturb(let since): return "Held by Do Not Disturb since \(time(since))"
        case .paused(let since): return "Held by your pause since \(time(since))"
        case .quietHours(let window):
            return "Moved out of quiet hours (\(window.start.hourMinute)–\(window.end.hourMinute))"
        }
    }
}

extension ReminderEngine.ScheduledEvent {
    /// The reminder, kept for `reason` (see `LateReason.kept`); a pass is returned as it is.
    func delayed(_ reason: LateReason) -> Self {
        guard case .fire(let itemId, let occurrence, let fires, let lead, let late) = self else { return self }
        return .fire(
            itemId: itemId, occurrence: occurrence, fires: fires, lead: lead, late: LateReason.kept(reason, after: late))
    }
}
