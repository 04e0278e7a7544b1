import Foundation
import ReminderSyncService
import Testing

/// Calendar exports as `reminderctl export --ics` writes them, cut into mirror resources.
enum ExportFixture {
    static func ics(stamp: String = "20261122T120000Z", coupon: String = "Pizza expires", device: String = "3eec")
        -> String
    {
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//reminderd//reminderctl export//EN", "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH", "X-WR-TIMEZONE:UTC",
            "BEGIN:VEVENT", "UID:\(device)a@reminderd", "DTSTAMP:\(stamp)", "DTSTART:20270131T235900",
            "SUMMARY:\(coupon)", "END:VEVENT",
            "BEGIN:VEVENT", "UID:\(device)b@reminderd", "DTSTAMP:\(stamp)", "DTSTART:20261130T235900",
            "RRULE:FREQ=MONTHLY;BYMONTHDAY=-1", "SUMMARY:Uber Cash $15 resets",
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Uber Cash", "TRIGGER:-P1D", "END:VALARM", "END:VEVENT",
            "BEGIN:VEVENT", "UID:\(device)b@reminderd", "DTSTAMP:\(stamp)", "RECURRENCE-ID:20261231T235900",
            "DTSTART:20261231T235900", "SUMMARY:Uber Cash $15 resets", "END:VEVENT",
            "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
    }
}

@Suite struct MirrorEventTests {
    @Test func oneResourcePerUIDWithTheOverridesBesideTheirMasterAndNoMethod() throws {
        let events = try MirrorEvent.events(fromExport: ExportFixture.ics())
        #expect(events.count == 2)
        let repeating = events[1]
        #expect(repeating.body.components(separatedBy: "BEGIN:VEVENT").count == 3)
        #expect(repeating.body.contains("RECURRENCE-ID:20261231T235900") && repeating.body.contains("BEGIN:VALARM"))
        for event in events {
            #expect(!event.body.contains("METHOD:") && event.body.contains("X-WR-TIMEZONE:UTC"))
            #expect(event.body.contains("UID:\(event.name.dropLast(4))@reminderd") && event.name.hasSuffix("-mirror.ics"))
            #expect(MirrorEvent.hash(of: event.body) == event.hash)
        }
    }

    /// Two devices export the same items under their own ids, at other moments: the same mirror.
    @Test func namesAndHashesDependOnWhatDevicesShareNotOnIdsOrStamps() throws {
        let here = try MirrorEvent.events(fromExport: ExportFixture.ics())
        let there = try MirrorEvent.events(fromExport: ExportFixture.ics(stamp: "20261123T080000Z", device: "77f0"))
        #expect(here.map(\.name) == there.map(\.name) && here.map(\.hash) == there.map(\.hash))
        let edited = try MirrorEvent.events(fromExport: ExportFixture.ics(coupon: "Pizza expires soon"))
        #expect(edited[0].name != here[0].name && edited[1] == here[1])
    }

    /// With the items' sync UIDs in the export, a name depends on the item, not on its summary
    /// nor on where its series starts: an edit is a PUT to the same resource on every device.
    @Test func namesFollowTheSyncUIDSoAnEditKeepsTheResource() throws {
        func ics(coupon: String = "Pizza expires", device: String = "3eec", seriesStart: String = "20261130T235900")
            -> String
        {
            ExportFixture.ics(coupon: coupon, device: device)
                .replacingOccurrences(of: "UID:\(device)a@reminderd", with: "UID:\(device)a@reminderd\r\nX-REMINDERD-UID:11111111-aaaa@reminderd")
                .replacingOccurrences(of: "UID:\(device)b@reminderd", with: "UID:\(device)b@reminderd\r\nX-REMINDERD-UID:22222222-bbbb@reminderd")
                .replacingOccurrences(of: "DTSTART:20261130T235900", with: "DTSTART:\(seriesStart)")
        }
        let here = try MirrorEvent.events(fromExport: ics())
        let there = try MirrorEvent.events(fromExport: ics(device: "77f0"))
        #expect(here.map(\.name) == there.map(\.name) && here.map(\.hash) == there.map(\.hash))
        let edited = try MirrorEvent.events(fromExport: ics(coupon: "Pizza expires soon"))
        #expect(edited.map(\.name) == here.map(\.name) && edited[0].hash != here[0].hash && edited[1] == here[1])
        let movedOn = try MirrorEvent.events(fromExport: ics(seriesStart: "20261231T235900"))
        #expect(movedOn[1].name == here[1].name && movedOn[1].hash != here[1].hash)
        // Not the names of the summary and the start, which older mirrors hold: those go once.
        let old = try MirrorEvent.events(fromExport: ExportFixture.ics())
        #expect(Set(old.map(\.name)).isDisjoint(with: here.map(\.name)))
        #expect(here.allSatisfy { $0.body.contains("UID:\($0.name.dropLast(4))@reminderd") })
    }

    @Test func twoEventsAlikeGetTwoNames() throws {
        let ics = ExportFixture.ics().replacingOccurrences(of: "Uber Cash $15 resets", with: "Pizza expires")
            .replacingOccurrences(of: "20261130T235900", with: "20270131T235900")
        let names = try MirrorEvent.events(fromExport: ics).map(\.name)
        #expect(names.count == 2 && names[1] == names[0].replacingOccurrences(of: "-mirror", with: "-2-mirror"))
    }

    @Test func aResourceWithoutTheMarkerIsNotTheMirrors() {
        #expect(MirrorEvent.hash(of: ExportFixture.ics()) == nil)
        #expect(MirrorEvent.hash(of: "not a calendar") == nil)
    }
}
