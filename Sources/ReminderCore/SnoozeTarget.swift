import CivilTime

/// A snooze that ends at a wall time rather than after a while (`snooze ID until 18:00`,
/// `snooze ID tomorrow`): people think "after work" or "tomorrow morning", not "in 7h 12m".
/// It is read in the daemon's zone, as every date is, and then clamped as any snooze is
/// (before the due time, out of quiet hours) by whoever snoozes with it.
public enum SnoozeTarget: Sendable, Equatable, CustomStringConvertible {
    /// The next `time`: today while it is still ahead, else tomorrow.
    case at(LocalTime)
    /// Tomorrow at the reminder time (`reminderTime`), when day reminders fire.
    case tomorrow

    /// "18:00" (with or without a leading "until") or "tomorrow"; nil for anything else.
    public static func parse(_ text: String) -> SnoozeTarget? {
        var words = text.split(separator: " ").map { $0.lowercased() }
        if words.first == "until" { words.removeFirst() }
        guard words.count == 1, let word = words.first else { return nil }
        if word == "tomorrow" { return .tomorrow }
        guard case .success(let time) = LocalTime.parse(word) else { return nil }
        return .at(time)
    }

    public var description: String {
        switch self {
        case .at(let time): "until \(time.hourMinute)"
        case .tomorrow: "until tomorrow"
        }
    }

    /// The instant the target names from `now` in `rules`' zone, and whether that is tomorrow.
    /// A time a DST gap skips is the instant the gap shifts it to (02:30 → 03:30), as any
    /// local time is read (`TimeZoneRules.resolve`).
    public func instant(from now: Int64, rules: FireTimeRules) -> (instant: Int64, tomorrow: Bool) {
        let today = rules.zone.localDateTime(at: now).date
        let tomorrow = LocalDate(dayNumber: today.dayNumber + 1)
        switch self {
        case .tomorrow:
            return (rules.zone.resolve(LocalDateTime(date: tomorrow, time: rules.reminderTime)).instant, true)
        case .at(let time):
            let todayAt = rules.zone.resolve(LocalDateTime(date: today, time: time)).instant
            if todayAt > now { return (todayAt, false) }
            return (rules.zone.resolve(LocalDateTime(date: tomorrow, time: time)).instant, true)
        }
    }
}
