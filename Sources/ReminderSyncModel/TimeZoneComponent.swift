import CivilTime
import ICalendar
import ReminderCore

/// The `VTIMEZONE` for the device's zone, so that `DUE;TZID=…` means the same instant to every
/// client (RFC 5545 §3.6.5). Built from the zone's own transitions — one observance per offset
/// change in a window around the current occurrence — rather than guessed rules; clients that
/// know the IANA name use their own database anyway.
enum TimeZoneComponent {
    /// Transitions from a year before `around` to five years after it.
    static func build(_ zone: TimeZoneRules, around instant: Int64) -> Component {
        var timezone = Component("VTIMEZONE", properties: [Property("TZID", zone.identifier)])
        let window = (instant - 366 * 86_400)...(instant + 5 * 366 * 86_400)
        var before = zone.offset(at: window.lowerBound)
        for change in zone.changes where window.contains(change.instant) {
            timezone.components.append(observance(at: change.instant, from: before, to: change.offset))
            before = change.offset
        }
        if timezone.components.isEmpty {
            timezone.components.append(observance(at: 0, from: before, to: before))
        }
        return timezone
    }

    /// One observance starting at `instant` (given in local time before the change, as §3.6.5
    /// asks); a change to a larger offset is daylight time.
    private static func observance(at instant: Int64, from: Int32, to: Int32) -> Component {
        let start = LocalDateTime(localSeconds: instant + Int64(from))
        return Component(
            to > from ? "DAYLIGHT" : "STANDARD",
            properties: [
                Property("DTSTART", DateTimeValue(local: start, zoneID: nil).description),
                Property("TZOFFSETFROM", offsetText(from)), Property("TZOFFSETTO", offsetText(to)),
            ])
    }

    /// `-0500`, `+0530`, `+001730` when seconds remain.
    static func offsetText(_ offset: Int32) -> String {
        let magnitude = Int(offset.magnitude)
        var text = (offset < 0 ? "-" : "+") + pad(magnitude / 3600, 2) + pad(magnitude / 60 % 60, 2)
        if magnitude % 60 != 0 { text += pad(magnitude % 60, 2) }
        return text
    }
}
