import CivilTime
import ICalendar
import ReminderCore
import ReminderTestSupport
import Testing

@testable import ReminderSyncModel

/// A free trial over CalDAV (issue #30 item 2): its last day and the day it was cancelled travel as
/// `X-REMINDERD-TRIAL-ENDS` and `X-REMINDERD-CANCELLED`, so another device reminds of the same
/// trial (its `DUE` is the trial's last day) and a round trip keeps both.
@Suite struct TrialSyncTests {
    func trial(cancelled: LocalDate? = nil) -> Item {
        Item(
            title: "Hulu", currency: "USD",
            schedule: .subscription(
                Subscription(
                    amount: Money(tenThousandths: 99_900), every: CalendarDuration(1, .months),
                    next: Fixture.date("2026-11-21"), trialEnds: Fixture.date("2026-11-20"), cancelled: cancelled)))
    }

    @Test func theTrialsEndIsItsPropertyAndItsDueAndReadsBackTheSame() throws {
        let text = Kit.written(SyncRecord(item: trial()))
        let todo = try Kit.todo(text)
        #expect(todo.property("X-REMINDERD-TRIAL-ENDS")?.value == "2026-11-20")
        #expect(todo.property("DUE")?.value.hasPrefix("20261120") == true)
        #expect(try Kit.read(text).record.item.schedule == trial().schedule)
    }

    /// What a phone's task app is given during the trial: the trial's last day, not repeating. A
    /// weekly series starting on that day (as written before) stepped to 11-27, 12-04, … while
    /// the charges are 11-21, 11-28, …; once kept, the series starts at the first charge.
    @Test func duringTheTrialTheTaskDoesNotRepeatAndOnceKeptItRepeatsFromTheFirstCharge() throws {
        var weekly = trial()
        guard case .subscription(var subscription) = weekly.schedule else { return }
        subscription.every = CalendarDuration(1, .weeks)
        weekly.schedule = .subscription(subscription)
        let during = try Kit.todo(Kit.written(SyncRecord(item: weekly)))
        #expect(during.property("DUE")?.value.hasPrefix("20261120") == true)
        #expect(during.property("RRULE") == nil)
        subscription.trialEnds = nil
        weekly.schedule = .subscription(subscription)
        let kept = try Kit.todo(Kit.written(SyncRecord(item: weekly)))
        #expect(kept.property("DTSTART")?.value.hasPrefix("20261121") == true)
        #expect(kept.property("RRULE")?.value == "FREQ=WEEKLY")
    }

    @Test func aCancelledTrialReadsBackCancelled() throws {
        let cancelled = trial(cancelled: Fixture.date("2026-11-19"))
        let text = Kit.written(SyncRecord(item: cancelled))
        #expect(try Kit.todo(text).property("X-REMINDERD-CANCELLED")?.value == "2026-11-19")
        #expect(try Kit.read(text).record.item.schedule == cancelled.schedule)
    }

    /// The task a phone shows once the trial is cancelled: cancelled, not an open task due on the
    /// trial's last day (the body written during the trial kept STATUS:NEEDS-ACTION); an Undo
    /// opens it again.
    @Test func aCancelledTrialsTaskIsCancelledAndAnUndoOpensItAgain() throws {
        let during = VTodoWriter.write(SyncRecord(item: trial()), uid: Kit.uid, into: nil, context: Kit.context)
        #expect(try Kit.todo(during.serialized()).property("STATUS")?.value == "NEEDS-ACTION")
        let cancelled = VTodoWriter.write(
            SyncRecord(item: trial(cancelled: Fixture.date("2026-11-19"))), uid: Kit.uid, into: during, context: Kit.context)
        let todo = try Kit.todo(cancelled.serialized())
        #expect(todo.property("STATUS")?.value == "CANCELLED")
        #expect(todo.property("RRULE") == nil)
        let undone = VTodoWriter.write(SyncRecord(item: trial()), uid: Kit.uid, into: cancelled, context: Kit.context)
        #expect(try Kit.todo(undone.serialized()).property("STATUS")?.value == "NEEDS-ACTION")
    }
}
