import ICalendar

/// The mirror's resources, cut from reminderd's `Calendar` export: one per event UID (a repeating
/// item's master and its overrides stay together, as RFC 4791 wants), each a VCALENDAR of its
/// own with the export's calendar properties (less METHOD, which a CalDAV resource may not have).
///
/// The export names events by reminderd's local item ids, which differ on every device. A mirror
/// fed by two devices would then hold each event twice, and each device would delete the other's.
/// So a mirror event's UID is made from what all devices agree on once synced — its summary and
/// its start — plus `-mirror`, so it never equals a task's UID (some servers refuse one UID in two
/// calendars). `X-REMINDERD-MIRROR` holds a hash of the content (DTSTAMP left out: it changes at
/// every export), so an unchanged event is not written again, and marks what the mirror may delete.
public struct MirrorEvent: Equatable, Sendable {
    public static let marker = "X-REMINDERD-MIRROR"

    /// The resource's file name in the mirror calendar.
    public let name: String
    public let body: String
    public let hash: String

    public static func events(fromExport ics: String) throws(ICalendarError) -> [MirrorEvent] {
        let root = try Component.parse(ics)
        var groups: [(uid: String, events: [Component])] = []
        for event in root.components("VEVENT") {
            let uid = event.property("UID")?.value ?? ""
            if let index = groups.firstIndex(where: { $0.uid == uid }) {
                groups[index].events.append(event)
            } else {
                groups.append((uid, [event]))
            }
        }
        var calendar = root
        calendar.remove("METHOD")
        calendar.components = root.components.filter { $0.name != "VEVENT" }
        var taken: [String: Int] = [:]
        return groups.map { group in
            let master = group.events.first { $0.property("RECURRENCE-ID") == nil } ?? group.events[0]
            let identity = [master.property("SUMMARY")?.value, master.property("DTSTART")?.value]
                .map { $0 ?? "" }.joined(separator: "\n")
            var id = fnv1a(identity)
            taken[id, default: 0] += 1
            if let count = taken[id], count > 1 { id += "-\(count)" }  // two items alike: in export order
            var resource = calendar
            resource.components += group.events.map { event in
                var event = event
                event.set("UID", "\(id)-mirror@reminderd")
                return event
            }
            let hash = fnv1a(contentText(resource))
            resource.components = resource.components.map { component in
                guard component.name == "VEVENT" else { return component }
                var event = component
                event.set(marker, hash)
                return event
            }
            return MirrorEvent(name: "\(id)-mirror.ics", body: resource.serialized(), hash: hash)
        }
    }

    /// The resource's mirror hash as it was written, or nil when it is not the mirror's.
    public static func hash(of body: String) -> String? {
        guard let calendar = try? Component.parse(body) else { return nil }
        return calendar.components("VEVENT").first?.property(marker)?.value
    }

    /// The serialized text less DTSTAMP lines: what decides whether an event changed.
    static func contentText(_ calendar: Component) -> String {
        calendar.serialized().split(separator: "\r\n").filter { !$0.hasPrefix("DTSTAMP") }.joined(separator: "\n")
    }

    /// FNV-1a, 64 bits, as 16 hex digits: stable across runs and machines (Swift's `hashValue` is not).
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
