import CivilTime
import ICalendar

/// How a repeating item looks in RFC 5545: an `RRULE` that a calendar program expands into the
/// same dates `forEachOccurrence` gives, and one relative `TRIGGER` per lead.
///
/// Recurring items are due at 23:59 on a date, so their events use floating local times: the
/// wall-clock time stays 23:59 across DST changes, as reminderd's own rules do.
public enum CalendarRecurrence {
    /// The rule for `item`'s occurrences from one that falls on `first`, or nil for one-off kinds.
    public static func rule(for item: Item, first: LocalDate) -> String? {
        switch item.schedule {
        case .benefit(let benefit):
            let months = benefit.period.months
            if let start = benefit.periodStart { return "FREQ=MONTHLY\(interval(months));" + dayBefore(start.day) }
            return months == 12
                ? "FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=31" : "FREQ=MONTHLY\(interval(months));BYMONTHDAY=-1"
        case .subscription(let subscription):
            let every = subscription.every
            switch every.unit {
            case .days: return "FREQ=DAILY\(interval(every.count))"
            case .weeks: return "FREQ=WEEKLY\(interval(every.count))"
            case .years:
                return "FREQ=YEARLY\(interval(every.count));BYMONTH=\(first.month);\(clampedDay(subscription.next.day))"
            default: return "FREQ=MONTHLY\(interval(every.count));\(clampedDay(subscription.next.day))"
            }
        case .fee(let fee):
            return "FREQ=YEARLY;BYMONTH=\(fee.due.month);\(clampedDay(fee.due.day))"
        case .coupon, .rebuy:
            return nil
        }
    }

    private static func interval(_ count: Int) -> String { count == 1 ? "" : ";INTERVAL=\(count)" }

    /// An anchor day past 28 falls on the month's last day when the month is shorter — RFC 5545
    /// would skip such months, so the rule picks the last of the days 28…anchor that exist.
    private static func clampedDay(_ day: Int) -> String {
        guard day > 28 else { return "BYMONTHDAY=\(day)" }
        return "BYMONTHDAY=" + (28...day).map(String.init).joined(separator: ",") + ";BYSETPOS=-1"
    }

    /// The due day of periods starting on `day` (clamped): the day before. From the 1st that is
    /// the previous month's last day; from the 29th–31st, the second-to-last of the days
    /// 27…`day` that the month has (Feb 28 start → due Feb 27; a 30-day month → the 29th).
    private static func dayBefore(_ day: Int) -> String {
        if day == 1 { return "BYMONTHDAY=-1" }
        guard day > 28 else { return "BYMONTHDAY=\(day - 1)" }
        return "BYMONTHDAY=" + (27...day).map(String.init).joined(separator: ",") + ";BYSETPOS=-2"
    }

    /// The trigger for `lead` on an event starting at 23:59 local: a day lead is whole days back
    /// (nominal, so DST does not shift it) and then back to the reminder time; a time lead is
    /// exact elapsed time.
    public static func trigger(lead: CalendarDuration, reminderTime: LocalTime) -> Trigger {
        if lead.isElapsedTime { return Trigger(days: 0, seconds: lead.nominalSeconds) }
        let back = Int64(FireTimeRules.endOfDay.secondsOfDay - reminderTime.secondsOfDay)
        return back >= 0
            ? Trigger(days: lead.days, seconds: back) : Trigger(days: lead.days - 1, seconds: 86_400 + back)
    }

    /// A negative duration before an event's start: `days` nominal days, then `seconds` exact.
    public struct Trigger: Hashable, Sendable {
        public let days: Int64
        public let seconds: Int64

        /// `-P7DT14H59M`.
        public var text: String { duration.description }

        /// The trigger as an RFC 5545 duration, negative (before the start or due time).
        public var duration: DurationValue { DurationValue(isNegative: true, days: days, seconds: seconds) }

        /// Where a calendar program puts this alarm for an event starting at local `start`
        /// (RFC 5545 §3.3.6: days on the wall clock, the rest in elapsed time).
        public func instant(beforeLocal start: Int64, in zone: TimeZoneRules) -> Int64 {
            zone.resolve(localSeconds: start - days * 86_400).instant - seconds
        }
    }
}
