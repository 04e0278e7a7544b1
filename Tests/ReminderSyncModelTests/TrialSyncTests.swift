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

    @Test func aCancelledTrialReadsBackCancelled() throws {
        let cancelled = trial(cancelled: Fixture.date("2026-11-19"))
        let text = Kit.written(SyncRecord(item: cancelled))
        #expect(try Kit.todo(text).property("X-REMINDERD-CANCELLED")?.value == "2026-11-19")
        #expect(try Kit.read(text).record.item.schedule == cancelled.schedule)
    }
}
