import CivilTime
import ICalendar

/// iCalendar date-time values from reminderd's civil time, shared by the `.ics` export and the
/// sync model's VTODOs (the ICalendar module itself knows no zones or civil time).
extension DateTimeValue {
    /// `20261124T140000Z`.
    public static func utc(_ instant: Int64) -> DateTimeValue {
        DateTimeValue(local: LocalDateTime(localSeconds: instant), zoneID: nil, isUTC: true)
    }

    /// A wall-clock time in the zone `zoneID` (floating when nil).
    public init(local: LocalDateTime, zoneID: String?, isUTC: Bool = false) {
        self.init(
            year: local.date.year, month: local.date.month, day: local.date.day, secondsOfDay: local.time.secondsOfDay,
            isUTC: isUTC, timeZoneID: isUTC ? nil : zoneID)
    }
}
