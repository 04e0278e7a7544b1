import CivilTime
import ICalendar
import ReminderCore
import ReminderTestSupport
import Testing

@testable import ReminderSyncModel

/// Other apps' tasks (issue #30 item 6, `sync.otherTasks`): which are reminded, when, and what
/// a Done or snooze here changes of them — only their completion and alarm state.
@Suite struct TaskListTaskTests {
    static let on: SyncContext = {
        var context = Kit.context
        context.otherTasks = true
        return context
    }()

    func body(_ todo: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:+//IDN tasks.org//android-140000//EN\r\n"
            + "BEGIN:VTODO\r\nUID:phone-1\r\nSUMMARY:Call the bank\r\nX-APP-SORT:7\r\n\(todo)"
            + "END:VTODO\r\nEND:VCALENDAR\r\n"
    }

    func read(_ todo: String, context: SyncContext = on) throws -> SyncRecord {
        try Kit.read(body(todo), context: context).record
    }

    func expiry(_ record: SyncRecord) -> Coupon.Expiry? {
        if case .coupon(let coupon) = record.item.schedule, coupon.taskList { return coupon.expires }
        return nil
    }

    @Test func offTheyAreNotItemsAsBefore() {
        #expect(throws: SyncFormatError.self) { try read("DUE:20261120T150000Z\r\n", context: Kit.context) }
    }

    @Test func everyFormOfDueIsTheExpiryOnThisDevicesClock() throws {
        let at = { (text: String) in try! LocalDateTime.parse(text).get() }
        #expect(expiry(try read("DUE:20261120T150000Z\r\n")) == .dateTime(at("2026-11-20T10:00")))
        #expect(expiry(try read("DUE;TZID=Europe/Berlin:20261120T160000\r\n")) == .dateTime(at("2026-11-20T10:00")))
        #expect(expiry(try read("DUE:20261120T093000\r\n")) == .dateTime(at("2026-11-20T09:30")))
        #expect(expiry(try read("DUE;VALUE=DATE:20261120\r\n")) == .date(Fixture.date("2026-11-20")))
        #expect(try read("DUE:20261120T150000Z\r\n").item.title == "Call the bank")
    }

    @Test func withoutDueOrRepeatingItIsNotReminded() {
        #expect(throws: SyncFormatError.self) { try read("STATUS:NEEDS-ACTION\r\n") }
        #expect(throws: SyncFormatError.self) { try read("DUE:20261120T150000Z\r\nRRULE:FREQ=WEEKLY\r\n") }
    }

    @Test func eachAlarmIsALeadAndNoneLeavesTheConfiguredOnes() throws {
        func alarm(_ trigger: String) -> String { "BEGIN:VALARM\r\nACTION:DISPLAY\r\n\(trigger)\r\nEND:VALARM\r\n" }
        let due = "DUE:20261120T150000Z\r\nDTSTART:20261120T130000Z\r\n"
        #expect(try read(due).item.lead == nil)
        #expect(try read(due + alarm("TRIGGER;RELATED=END:-PT15M")).item.lead == [CalendarDuration(15, .minutes)])
        // Relative to the start (the default), two hours before the due time: 30 minutes after it.
        #expect(try read(due + alarm("TRIGGER:PT30M")).item.lead == [CalendarDuration(90, .minutes)])
        #expect(
            try read(due + alarm("TRIGGER;VALUE=DATE-TIME:20261120T140000Z")).item.lead
                == [CalendarDuration(60, .minutes)])
        // At the due moment (or after it): a minute before, never after it.
        #expect(try read(due + alarm("TRIGGER;RELATED=END:PT0S")).item.lead == [CalendarDuration(1, .minutes)])
        let dated = "DUE;VALUE=DATE:20261120\r\n"
        #expect(try read(dated + alarm("TRIGGER:-P1D")).item.lead == [CalendarDuration(1, .days)])
        #expect(try read(dated + alarm("TRIGGER:PT0S")).item.lead == [CalendarDuration(0, .days)])
    }

    @Test func completedOrCancelledIsDoneAndNotReminded() throws {
        let due = "DUE:20261120T150000Z\r\n"
        let completed = try read(due + "STATUS:COMPLETED\r\nCOMPLETED:20261119T120000Z\r\n")
        #expect(completed.ledger.entries.map(\.doneAt) == [Kit.utc("20261119T120000Z")])
        #expect(try read(due + "STATUS:CANCELLED\r\n").ledger.entries.count == 1)
        #expect(try read(due + "STATUS:NEEDS-ACTION\r\n").ledger.entries.isEmpty)
    }

    @Test func controlCharactersInTheSummaryAreNotKept() throws {
        let record = try Kit.read(
            body("DUE:20261120T150000Z\r\n").replacing("SUMMARY:Call the bank", with: "SUMMARY:a\u{1B}[31mb"),
            context: Self.on
        ).record
        #expect(record.item.title == "a [31mb")
    }

    @Test func doneCompletesItAndLeavesTheRestAsTheAppWroteIt() throws {
        let text = body(
            "DUE:20261120T150000Z\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER;RELATED=END:-PT15M\r\nEND:VALARM\r\n")
        let calendar = try Component.parse(Array(text.utf8))
        var record = try read(
            "DUE:20261120T150000Z\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER;RELATED=END:-PT15M\r\nEND:VALARM\r\n")
        #expect(TaskListTask.write(record, into: calendar, context: Self.on) == calendar)
        let occurrence = try #require(record.currentOccurrence(in: Self.on))
        record.markDone(occurrence, at: Kit.now, in: Self.on)
        record.alarms.lastAcknowledged = Kit.now
        let done = TaskListTask.write(record, into: calendar, context: Self.on)
        let todo = try #require(VTodoReader.master(of: done))
        #expect(todo.property("STATUS")?.value == "COMPLETED")
        #expect(todo.property("PERCENT-COMPLETE")?.value == "100")
        #expect(todo.property("COMPLETED")?.value == DateTimeValue.utc(Kit.now).description)
        #expect(todo.property("X-MOZ-LASTACK")?.value == DateTimeValue.utc(Kit.now).description)
        let before = try #require(VTodoReader.master(of: calendar))
        let set = ["STATUS", "PERCENT-COMPLETE", "COMPLETED", "X-MOZ-LASTACK"]
        let untouched = todo.properties.filter { !set.contains($0.name) }
        #expect(untouched == before.properties)
        #expect(todo.components == before.components)
        #expect(done.properties == calendar.properties)
    }

    @Test func aSnoozeIsTheMozillaSnoozeTime() throws {
        let text = body("DUE:20261120T150000Z\r\n")
        var record = try read("DUE:20261120T150000Z\r\n")
        record.alarms = AlarmState(lastAcknowledged: Kit.now, snoozedUntil: Kit.now + 3600)
        let written = TaskListTask.write(record, into: try Component.parse(Array(text.utf8)), context: Self.on)
        let todo = try #require(VTodoReader.master(of: written))
        #expect(todo.property("X-MOZ-SNOOZE-TIME")?.value == DateTimeValue.utc(Kit.now + 3600).description)
        #expect(todo.property("STATUS") == nil)
    }
}
