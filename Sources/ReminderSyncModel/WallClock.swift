import CivilTime
import ICalendar
import ReminderCore

/// Conversions from iCalendar date-time values to reminderd's civil time (the other way,
/// `DateTimeValue.utc` and `init(local:zoneID:)`, is in ReminderCore, which the export shares).
extension DateTimeValue {
    /// The value as a reminderd local date-time, read as written (no zone applied); a DATE is
    /// 23:59 on that day, as reminderd's date-only deadlines are. Nil outside reminderd's years.
    var wallClock: LocalDateTime? {
        guard LocalDate.supportedYears.contains(year), day <= LocalDate.daysInMonth(year: year, month: month) else {
            return nil
        }
        let date = LocalDate(uncheckedYear: year, month: month, day: day)
        guard let seconds = secondsOfDay else { return LocalDateTime(date: date, time: FireTimeRules.endOfDay) }
        return LocalDateTime(
            date: date, time: LocalTime(hour: seconds / 3600, minute: seconds / 60 % 60, second: seconds % 60))
    }

    /// The value on the device's wall clock: a UTC time or one in another known zone is
    /// converted; a floating time, a DATE, or a zone the database does not know is read as is.
    func onWallClock(of context: SyncContext) -> LocalDateTime? {
        guard let local = wallClock else { return nil }
        let source: TimeZoneRules? = isUTC ? .utc : timeZoneID.flatMap(context.zoneNamed)
        guard let source, source.identifier != context.zone.identifier else { return local }
        return context.zone.localDateTime(at: source.resolve(local).instant)
    }

    /// Unix seconds, for stamps such as COMPLETED and LAST-MODIFIED.
    func instant(in context: SyncContext) -> Int64? {
        guard let local = onWallClock(of: context) else { return nil }
        return context.zone.resolve(local).instant
    }
}

extension Occurrence {
    /// The ledger key of this occurrence: its due time on the item's wall clock.
    func key(in zone: TimeZoneRules) -> LocalDateTime {
        LocalDateTime(date: dueDate, time: zone.localDateTime(at: due).time)
    }
}

extension Component {
    /// The date or date-time value of the property `name`, with its `TZID`; nil when absent or
    /// unreadable.
    func dateTime(_ name: String) -> DateTimeValue? {
        property(name).flatMap { try? DateTimeValue($0) }
    }

    /// When this component says it was completed or last changed: `COMPLETED`, else
    /// `LAST-MODIFIED`, else `DTSTAMP`, else `now`.
    func completionTime(in context: SyncContext) -> Int64 {
        for name in ["COMPLETED", "LAST-MODIFIED", "DTSTAMP"] {
            if let instant = dateTime(name)?.instant(in: context) { return instant }
        }
        return context.now
    }
}
