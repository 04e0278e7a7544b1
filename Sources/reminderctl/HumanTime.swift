import CivilTime
import ReminderCore

/// Times as a person reads them in a table: `Tue 2026-11-24 09:00`.
enum HumanTime {
    static func format(_ instant: Int64, in zone: TimeZoneRules) -> String {
        let local = zone.localDateTime(at: instant)
        return "\(local.date.weekdayAbbreviation) \(local.date) \(local.time.hourMinute)"
    }
}
