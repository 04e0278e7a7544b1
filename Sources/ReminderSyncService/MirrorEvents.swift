import ICalendar

/// The mirror's resources, cut from reminderd's `Calendar` export: one per event UID (a repeating
/// item's master and its overrides stay together, as RFC 4791 wants), each a VCALENDAR of its
/// own with the export's calendar properties (less METHOD, which a CalDAV resource may not have).
///
/// The export names events by reminderd's local item ids, which differ on every device. A mirror
/// fed by two devices would then hold each event twice, and each device would delete the other's.
/// So a mirror event's UID is made from what all devices share: the item's sync UID, which the
/// export gives as `X-REMINDERD-UID` — a series (RRULE, with its overrides) from that alone, a
/// one-off event from it and its occurrence's start — plus `-mirror`, so it never equals a task's
/// UID (some servers refuse one UID in two calendars). Neither the summary nor a series' start
/// is in it, so an edited item (or a series whose first occurrence moved on) is a PUT to the
/// same resource, not a delete and a create on the phone. An export without `X-REMINDERD-UID`
/// (written by an older reminderd) falls back to the summary and the start, as mirrors were once
/// named; such old events carry the marker and are not among the names wanted, so the next run
/// deletes them once. `X-REMINDERD-MIRROR` holds a hash of the content (DTSTAMP left out: it
/// changes at every export), so an unchanged event is not written again, and marks what the
/// mirror may delete.
public struct MirrorEvent: Equatable, Sendable {
    public static let marker = "X-REMINDERD-MIRROR"
    /// The item's sync UID on each event of the export (`CalendarExport`).
    public static let itemUID = "X-REMINDERD-UID"

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
        var resources: [(id: String, events: [Component])] = []
        for group in groups {
            let master = group.events.first { $0.property("RECURRENCE-ID") == nil } ?? group.events[0]
            if let item = master.property(itemUID)?.value {
                if master.property("RRULE") != nil {
                    resources.append((fnv1a("series\n\(item)"), group.events))
                } else {
                    for event in group.events {
                        let start = event.property("DTSTART")?.value ?? ""
                        resources.append((fnv1a("event\n\(item)\n\(start)"), [event]))
                    }
                }
                continue
            }
            let identity = [master.property("SUMMARY")?.value, master.property("DTSTART")?.value]
                .map { $0 ?? "" }.joined(separator: "\n")
            var id = fnv1a(identity)
            taken[id, default: 0] += 1
            if let count = taken[id], count > 1 { id += "-\(count)" }  // two items alike: in export order
            resources.append((id, group.events))
        }
        return resources.map { id, events in
            var resource = calendar
            resource.components += events.map { event in
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
