import CivilTime
import ReminderCore

/// Times as a person reads them in a table: `Tue 2026-11-24 09:00`.
enum HumanTime {
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    static func format(_ instant: Int64, in zone: TimeZoneRules) -> String {
        let local = zone.localDateTime(at: instant)
        let time = local.time
        let hm = "\(time.hour < 10 ? "0" : "")\(time.hour):\(time.minute < 10 ? "0" : "")\(time.minute)"
        return "\(weekdays[local.date.weekday]) \(local.date) \(hm)"
    }
}
