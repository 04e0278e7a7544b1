import CalDAV
import Foundation
import ReminderSyncService
import Testing

/// The VEVENT mirror against real Radicale and Xandikos.
@Suite struct EventMirrorTests {
    static func export(coupon: String = "Pizza expires") -> String {
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//reminderd//reminderctl export//EN", "METHOD:PUBLISH",
            "BEGIN:VEVENT", "UID:3eeca@reminderd", "DTSTAMP:20261122T120000Z", "DTSTART:20270131T235900",
            "SUMMARY:\(coupon)", "END:VEVENT",
            "BEGIN:VEVENT", "UID:3eecb@reminderd", "DTSTAMP:20261122T120000Z", "DTSTART:20261130T235900",
            "RRULE:FREQ=MONTHLY;BYMONTHDAY=-1", "SUMMARY:Uber Cash resets", "END:VEVENT",
            "BEGIN:VEVENT", "UID:3eecb@reminderd", "DTSTAMP:20261122T120000Z", "RECURRENCE-ID:20261231T235900",
            "DTSTART:20261231T235900", "SUMMARY:Uber Cash resets", "END:VEVENT",
            "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
    }

    @Test(arguments: ServerKind.allCases)
    func theMirrorIsCreatedKeptUpToDateAndLeavesOthersEventsAlone(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            let daemon = FakeDaemon()
            daemon.calendarICS = Self.export()
            let mirror = EventMirror(session: SyncPassPullTests.session(account), link: daemon, name: "deadlines")
            #expect(try mirror.run().get() == .init(written: 2, deleted: 0))
            #expect(daemon.calls == [.calendar(.init(days: 400))])
            let home = account.discovery.calendarHome
            let calendar = try #require(
                try account.client.calendars(in: home).first { $0.url.lastPathComponent == "deadlines" })
            #expect(calendar.components == ["VEVENT"])
            let listed = try account.client.listETags(in: calendar.url)
            let bodies = try account.client.multiget(in: calendar.url, hrefs: listed.map(\.href)).found
            #expect(bodies.count == 2 && bodies.allSatisfy { $0.calendarData.contains("-mirror@reminderd") })
            #expect(bodies.contains { $0.calendarData.contains("RECURRENCE-ID") && $0.calendarData.contains("RRULE") })

            // Someone's own event in that calendar is not the mirror's to delete.
            _ = try account.client.put(
                calendar.url.appendingPathComponent("mine.ics"),
                calendarData: Self.export().replacingOccurrences(of: "METHOD:PUBLISH\r\n", with: "")
                    .components(separatedBy: "BEGIN:VEVENT\r\nUID:3eecb")[0] + "END:VCALENDAR\r\n", .create)

            #expect(try mirror.run().get() == .init(written: 0, deleted: 0))
            #expect(try account.client.listETags(in: calendar.url).count == 3)

            daemon.calendarICS = Self.export(coupon: "Pizza expires soon")
            #expect(try mirror.run().get() == .init(written: 1, deleted: 1))
            let names = Set(try account.client.listETags(in: calendar.url).map(\.href.lastPathComponent))
            #expect(names.count == 3 && names.contains("mine.ics"))
        }
    }

    /// The export with each item's sync UID, as reminderd gives it now.
    static func syncedExport(coupon: String = "Pizza expires") -> String {
        export(coupon: coupon)
            .replacingOccurrences(of: "UID:3eeca@reminderd", with: "UID:3eeca@reminderd\r\nX-REMINDERD-UID:0c1d-coupon@reminderd")
            .replacingOccurrences(of: "UID:3eecb@reminderd", with: "UID:3eecb@reminderd\r\nX-REMINDERD-UID:0c1d-credit@reminderd")
    }

    /// A mirror written by an older reminderd (names from summary and start) is replaced once;
    /// after that an edited item is one PUT to its resource, not a delete and a create.
    @Test(arguments: ServerKind.allCases)
    func anEditIsAPutToTheSameEventAndOldNamesGoOnce(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            let daemon = FakeDaemon()
            daemon.calendarICS = Self.export()
            let mirror = EventMirror(session: SyncPassPullTests.session(account), link: daemon, name: "deadlines")
            #expect(try mirror.run().get() == .init(written: 2, deleted: 0))
            let calendar = try account.client.calendars(in: account.discovery.calendarHome)
                .first { $0.url.lastPathComponent == "deadlines" }!.url
            let old = Set(try account.client.listETags(in: calendar).map(\.href.lastPathComponent))

            daemon.calendarICS = Self.syncedExport()
            #expect(try mirror.run().get() == .init(written: 2, deleted: 2))
            let names = Set(try account.client.listETags(in: calendar).map(\.href.lastPathComponent))
            #expect(names.count == 2 && names.isDisjoint(with: old))

            daemon.calendarICS = Self.syncedExport(coupon: "Pizza expires soon")
            #expect(try mirror.run().get() == .init(written: 1, deleted: 0))
            #expect(Set(try account.client.listETags(in: calendar).map(\.href.lastPathComponent)) == names)
        }
    }

    @Test func aTaskListNameTakenByAListOfTasksIsNamed() throws {
        try ServerAccount.with(.radicale) { account in
            let daemon = FakeDaemon()
            daemon.calendarICS = Self.export()
            let failure = try #require(
                EventMirror(session: SyncPassPullTests.session(account), link: daemon, name: "reminderd").run().failure)
            #expect(failure.words.hasPrefix("the mirror \"reminderd\": ") && failure.words.contains("holds no events"))
        }
    }
}
