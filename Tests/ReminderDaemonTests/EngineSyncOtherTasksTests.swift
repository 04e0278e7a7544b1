import ICalendar
import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

@testable import ReminderDaemon

/// Other apps' tasks through the engine (`sync.otherTasks`): a phone's task read from the fake
/// task list, its snooze written back into the phone's body alone, refused edits, and the tasks
/// of a task list no longer synced.
@Suite struct EngineSyncOtherTasksTests {
    let server = FakeTaskList()
    let harness: EngineHarness
    let href = "/alice/reminderd/phone-1.ics"

    init() throws {
        let sync = SyncSettings(
            url: "https://dav.example/", username: "alice", password: .file("/nonexistent"), otherTasks: true)
        harness = try EngineHarness(configuration: Configuration(timeZone: "UTC", quietHours: nil, sync: sync))
        // Due two hours after the harness's start (2026-11-18T11:06:40Z), its alarm 30 minutes before.
        server.put(
            href,
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tasks.org//android-140000//EN\r\nBEGIN:VTODO\r\n"
                + "UID:phone-1\r\nSUMMARY:Call the bank\r\nDUE:20261118T130640Z\r\nX-APP-SORT:7\r\n"
                + "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER;RELATED=END:-PT30M\r\nEND:VALARM\r\n"
                + "END:VTODO\r\nEND:VCALENDAR\r\n")
        server.sync(harness.engine)
    }

    var id: String { harness.ids.first ?? "" }

    @Test func itIsReadAsATaskListCouponAndNothingIsPushed() {
        #expect(harness.ids.count == 1)
        #expect(harness.field(id, "title") == "Call the bank")
        #expect(harness.field(id, "expires") == "2026-11-18T13:06:40")
        let id = id
        #expect(harness.engine.queue.sync { harness.engine.items[id]?.lead } == [CalendarDuration(30, .minutes)])
        #expect(harness.pending.isEmpty)
    }

    @Test func aSnoozeIsWrittenIntoThePhonesBodyAlone() throws {
        harness.advance(to: 5400)
        #expect(harness.notifier.acceptedIds.count == 1, "the pop-up at the alarm")
        _ = harness.perform("Snooze", ["id": .string(id), "duration": .string("10m")])
        let change = try #require(harness.pending.first)
        #expect(change.href == href && change.etag == server.resources[href]?.etag)
        let before = try Component.parse(try #require(server.resources[href]?.body))
        let after = try Component.parse(try #require(change.body))
        let todo = try #require(after.components.first { $0.name == "VTODO" })
        #expect(todo.property("X-MOZ-SNOOZE-TIME")?.value == "20261118T124640Z")
        #expect(todo.property("X-MOZ-LASTACK") != nil && todo.property("STATUS") == nil)
        let kept = todo.properties.filter { !$0.name.hasPrefix("X-MOZ-") }
        #expect(kept == before.components.first { $0.name == "VTODO" }?.properties)
        #expect(after.properties == before.properties)
    }

    @Test func aDoneHereMeetsAnEditThereAndBothStay() throws {
        harness.advance(to: 5400)
        _ = harness.perform("Done", ["id": .string(id)])
        // Meanwhile the phone renamed it (its write, a new ETag): the pass pulls, merges, and puts.
        let renamed = try #require(server.resources[href]?.body).replacing("Call the bank", with: "Call the bank!")
        server.put(href, renamed)
        server.sync(harness.engine)
        let body = try #require(server.resources[href]?.body)
        let todo = try #require(try Component.parse(body).components.last)
        #expect(todo.property("SUMMARY")?.value == "Call the bank!")
        #expect(todo.property("STATUS")?.value == "COMPLETED" && todo.property("PERCENT-COMPLETE")?.value == "100")
        #expect(harness.field(id, "title") == "Call the bank!")
        #expect(harness.pending.isEmpty)
    }

    @Test func editAndRemoveRefuseInWords() {
        for (method, parameters) in [
            ("Edit", ["id": JSONValue.string(id), "changes": .object(["title": .string("Mine")])]),
            ("Remove", ["id": .string(id)]),
        ] {
            guard case .failure(let error) = harness.perform(method, parameters) else {
                Issue.record("\(method) was not refused")
                continue
            }
            #expect("\(error)".contains("another app's task"), "\(method): \(error)")
        }
        #expect(harness.ids == [id])
    }

    @Test func anotherTaskListTakesTheOldListsTasksAway() {
        _ = reply(
            harness.engine, "SyncBegin", SyncBeginReply.self,
            ["collection": .string("https://dav.example/alice/other/"), "account": .string("alice@dav.example")])
        #expect(harness.ids.isEmpty, "not pushed into the other list as a reminderd coupon")
        #expect(harness.pending.isEmpty)
    }
}
