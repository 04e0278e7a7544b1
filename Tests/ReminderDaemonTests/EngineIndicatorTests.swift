import ReminderCore
import ReminderJSON
import Testing

@testable import ReminderDaemon

/// The panel indicator on the engine's side: composed on publish only while a watcher is there,
/// the next local midnight a timer deadline only then, and its menu's clicks run the commands.
@Suite(.serialized) struct EngineIndicatorTests {
    /// 2026-11-19 00:00 UTC, the first midnight after `EngineHarness.start`.
    static let midnight: Int64 = 1_795_046_400

    func harness() throws -> (EngineHarness, Deadlines) {
        let harness = try EngineHarness()
        let deadlines = Deadlines()
        harness.engine.queue.sync { harness.engine.deadlineChanged = { deadlines.append($0) } }
        return (harness, deadlines)
    }

    @Test func withoutAWatcherNothingIsComposedAndMidnightIsNoDeadline() throws {
        let (harness, deadlines) = try harness()
        _ = harness.addCoupon(expiresIn: 3 * 86_400, leads: [])
        #expect(harness.notifier.views.isEmpty)
        #expect(deadlines.last == EngineHarness.start + 3 * 86_400)  // only the coupon's passing
    }

    @Test func aWatcherGetsTheViewAndMidnightBecomesADeadline() throws {
        let (harness, deadlines) = try harness()
        let today = harness.addCoupon(expiresIn: 3600, leads: [], title: "Pizza")
        _ = harness.addCoupon(expiresIn: 3 * 86_400, leads: [], title: "Tacos")
        harness.notifier.watcher(present: true)
        harness.settle()
        let view = try #require(harness.notifier.views.last)
        #expect(view.status == "NeedsAttention")
        #expect(view.toolTipTitle == "reminderd: 2 due this week, 1 today")
        #expect(deadlines.last == EngineHarness.start + 3600)  // Pizza passes before midnight

        // Pizza done: only Tacos left, Active, and midnight is the earliest deadline.
        harness.emit(.indicatorClicked(.done(itemId: today, due: EngineHarness.start + 3600)))
        #expect(harness.history(today).contains("done"))
        #expect(harness.notifier.views.last?.status == "Active")
        #expect(deadlines.last == EngineIndicatorTests.midnight)

        // At midnight Tacos is a day nearer.
        harness.advance(to: EngineIndicatorTests.midnight - EngineHarness.start)
        #expect(harness.notifier.views.last?.toolTipBody == "Tacos, in 2 days")
        #expect(deadlines.last == EngineIndicatorTests.midnight + 86_400)

        // The watcher leaves: no more views, midnight no longer a deadline.
        let composed = harness.notifier.views.count
        harness.notifier.watcher(present: false)
        harness.settle()
        _ = harness.perform("Status")
        #expect(harness.notifier.views.count == composed)
        #expect(deadlines.last == EngineHarness.start + 3 * 86_400)
    }

    @Test func snoozePauseAndResumeFromTheMenuRunTheCommands() throws {
        let (harness, _) = try harness()
        let id = harness.addCoupon(expiresIn: 3 * 86_400, leads: ["2d"])
        harness.notifier.watcher(present: true)
        harness.settle()
        let due = EngineHarness.start + 3 * 86_400
        harness.emit(.indicatorClicked(.snooze(itemId: id, due: due, CalendarDuration(1, .days))))
        #expect(harness.history(id).contains("snoozed"))
        harness.emit(.indicatorClicked(.pause(CalendarDuration(1, .hours))))
        #expect(harness.status("paused") != .null)
        #expect(harness.notifier.views.last?.menu.last?.action == .resume)
        harness.emit(.indicatorClicked(.resume))
        #expect(harness.status("paused") == .null)
        #expect(harness.notifier.views.last?.menu.last?.action == .pause(CalendarDuration(1, .hours)))
    }

    /// A host shows the menu it fetched; a click on a renewal whose due time passed since (or that
    /// was paid elsewhere) is refused, as a stale pop-up's button is, and does not pay the next one.
    @Test func aClickOnAnEntryWhoseOccurrencePassedIsRefusedAndTheNextIsNotDone() throws {
        let (harness, _) = try harness()
        let reply = harness.perform(
            "Add",
            [
                "item": .object([
                    "kind": .string("subscription"), "title": .string("Netflix"), "amount": .string("15.99"),
                    "every": .string("1mo"), "next": .string("2026-11-18"),
                ])
            ])
        guard case .success(let parameters) = reply, case .string(let id)? = parameters["id"] else {
            Issue.record("add failed: \(reply)")
            return
        }
        harness.notifier.watcher(present: true)
        harness.settle()
        let due: Int64 = 1_795_046_340  // 2026-11-18 23:59 UTC, the entry's occurrence
        harness.advance(to: due + 120 - EngineHarness.start)
        harness.emit(.indicatorClicked(.done(itemId: id, due: due)))
        #expect(!harness.history(id).contains("done"))
        #expect(harness.notifier.requests.contains { $0.summary == "Not done" && $0.body.contains("has passed") })
    }
}
