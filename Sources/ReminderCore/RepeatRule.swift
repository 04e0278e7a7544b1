/// Repeat until acknowledged (CONTRACT §3): a reminder shown and left alone — not done, snoozed
/// or dismissed, here or on another device — is shown again every `every`, at most `times` more
/// times, never inside quiet hours (held to their end, as a lead is) and never at or after the due
/// time. Each showing starts from the one before it, so a repeat shown late (held, or once at a
/// start after the machine slept) pushes the next one back instead of bunching them up, and a new
/// lead's reminder starts a new series.
public struct RepeatRule: Hashable, Sendable, CustomStringConvertible {
    public let every: CalendarDuration
    public let times: Int

    /// At most 100 repeats: a reminder every minute for well over an hour, every 15 minutes for a day.
    public static let timesRange = 1...100
    /// Repeats when only the interval is given: Tasks.org's "every 15 minutes, 4 times" is the
    /// reminder and three repeats.
    public static let defaultTimes = 3

    public init(every: CalendarDuration, times: Int) {
        self.every = every
        self.times = times
    }

    /// The rule an item follows: its own interval or the config's (`0m`: none), its own count or
    /// the config's; nil when it does not repeat.
    public static func of(_ item: Item, _ configuration: Configuration) -> RepeatRule? {
        guard let every = item.repeatEvery ?? configuration.repeatEvery, every.count > 0 else { return nil }
        return RepeatRule(every: every, times: item.repeatTimes ?? configuration.repeatTimes)
    }

    /// Refuses a count outside `timesRange`, naming `field`.
    static func validateTimes(_ times: Int64, field: String) throws(ReminderCoreError) {
        guard timesRange.contains(Int(clamping: times)) else {
            throw .invalidValue(field: field, reason: "\(times) is not between 1 and 100")
        }
    }

    public var description: String { "every \(every), \(times) time\(times == 1 ? "" : "s")" }

    /// The lead a repeat is shown and stored under: `repeat 2` for the second.
    public static func lead(_ number: Int) -> String { "repeat \(number)" }

    /// Which repeat a stored lead is, nil for any other reminder (a lead, a snooze's end).
    public static func number(ofLead lead: String) -> Int? {
        guard lead.hasPrefix("repeat ") else { return nil }
        return Int(lead.dropFirst("repeat ".count))
    }

    /// The repeat that follows a showing at `shownAt` of the reminder with lead `lead` (a lead's,
    /// a snooze's end or a repeat) of the occurrence due at `due`: when, and which repeat it is.
    /// None once `times` were shown, when the person acknowledged the item at or after that
    /// showing (`acknowledged`), or when it would come at or after the due time, held there by
    /// quiet hours included.
    public func next(
        afterShowingAt shownAt: Int64, lead: String, due: Int64, acknowledged: Int64?, rules: FireTimeRules
    ) -> (at: Int64, lead: String)? {
        let number = (RepeatRule.number(ofLead: lead) ?? 0) + 1
        guard number <= times, (acknowledged ?? .min) < shownAt else { return nil }
        var at = shownAt + every.nominalSeconds
        if let quietHours = rules.quietHours, let moved = rules.moveOutOfQuietHours(at, window: quietHours, due: due) {
            guard moved.adjustment == .quietHoursEnd else { return nil }
            at = moved.fireAt
        }
        return at < due ? (at, RepeatRule.lead(number)) : nil
    }
}
