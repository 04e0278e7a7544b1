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
        // Before midnight Pizza's "Remind 1 min before" stops fitting (two minutes before it passes).
        #expect(deadlines.last == EngineHarness.start + 3600 - 120)

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

    func add(_ harness: EngineHarness, _ fields: [String: JSONValue]) -> String {
        guard case .success(let parameters) = harness.perform("Add", ["item": .object(fields)]),
            case .string(let id)? = parameters["id"]
        else {
            Issue.record("add failed")
            return ""
        }
        return id
    }

    /// The submenu of the entry whose label starts with `title`, as its labels.
    func offers(_ view: IndicatorView?, _ title: String) -> [String]? {
        view?.menu.first { $0.label.hasPrefix(title) }?.children.map(\.label)
    }

    /// Issue 27 case 8: an overdue rebuy's snoozes were always refused, and a coupon due in two
    /// hours offered "Snooze 1 day", shortened without a word. The menu offers the pop-up's.
    @Test func theMenuOffersWhatThePopUpWouldInItsWords() throws {
        let (harness, _) = try harness()
        _ = harness.addCoupon(expiresIn: 2 * 3600, leads: [], title: "Pizza")
        _ = add(
            harness,
            ["kind": .string("rebuy"), "title": .string("Milk"), "everyDays": .integer(30),
             "lastPurchased": .string("2026-10-01")])
        harness.notifier.watcher(present: true)
        harness.settle()
        let view = harness.notifier.views.last
        #expect(offers(view, "Pizza") == ["Mark as used", "Snooze 1h"])
        #expect(offers(view, "Milk") == ["Rebought"])
    }

    /// Issue 30: the menu offers the pop-up's "Snooze until tomorrow", which snoozes until
    /// tomorrow at the reminder time (09:00 UTC); clicked once that is no longer before the due
    /// time (the item was edited meanwhile), it is refused, not shortened.
    @Test func snoozeUntilTomorrowFromTheMenu() throws {
        let (harness, _) = try harness()
        let id = harness.addCoupon(expiresIn: 3 * 86_400, leads: ["2d"], title: "Pizza")
        harness.notifier.watcher(present: true)
        harness.settle()
        #expect(offers(harness.notifier.views.last, "Pizza") == ["Mark as used", "Snooze 1h", "Snooze until tomorrow"])
        harness.emit(.indicatorClicked(.snoozeUntilTomorrow(itemId: id, due: EngineHarness.start + 3 * 86_400)))
        guard case .success(let explained) = harness.perform("Explain", ["id": .string(id)]),
            case .string(let until)? = explained["snoozedUntil"]
        else {
            Issue.record("no snooze explained")
            return
        }
        #expect(until.hasPrefix("2026-11-19T09:00"))

        let soon = harness.addCoupon(expiresIn: 2 * 3600, leads: [], title: "Tacos")
        harness.emit(.indicatorClicked(.snoozeUntilTomorrow(itemId: soon, due: EngineHarness.start + 2 * 3600)))
        #expect(!harness.history(soon).contains("snoozed"))
        #expect(
            harness.notifier.requests.contains { $0.summary == "Not snoozed" && $0.body.contains("before it is due") })
    }

    /// A snooze offered while it fit, clicked after it stopped fitting, is refused in words.
    @Test func aSnoozeThatNoLongerFitsIsRefusedNotShortened() throws {
        let (harness, _) = try harness()
        let id = harness.addCoupon(expiresIn: 2 * 3600, leads: [])
        harness.notifier.watcher(present: true)
        harness.settle()
        let due = EngineHarness.start + 2 * 3600
        harness.emit(.indicatorClicked(.snooze(itemId: id, due: due, CalendarDuration(1, .days))))
        #expect(!harness.history(id).contains("snoozed"))
        #expect(
            harness.notifier.requests.contains { $0.summary == "Not snoozed" && $0.body.contains("before it is due") })
    }

    /// A click on an entry the menu no longer holds is refused in words, and changes nothing.
    @Test func aClickOnAWithdrawnEntryIsRefusedInWords() throws {
        let (harness, _) = try harness()
        harness.notifier.watcher(present: true)
        harness.settle()
        harness.emit(.indicatorClicked(.withdrawn("“Mark as used” for Alpha")))
        #expect(
            harness.notifier.requests.contains { $0.body.hasPrefix("“Mark as used” for Alpha is no longer in the menu") })
    }

    /// Issue 27 case 7: every publish with a panel present worked out every item's status (947 ms
    /// per snooze at 100k items). A change works out the items it changed; the view stays what a
    /// walk over every item composes.
    @Test func aChangeWorksOutOnlyTheItemsItChanged() throws {
        let (harness, _) = try harness()
        var ids: [String] = []
        for n in 0..<40 { ids.append(harness.addCoupon(expiresIn: Int64(n + 1) * 86_400, leads: [], title: "C\(n)")) }
        harness.notifier.watcher(present: true)
        harness.settle()
        func worked() -> Int { harness.engine.queue.sync { harness.engine.indicatorCache?.worked ?? 0 } }
        func fresh() -> IndicatorView {
            harness.engine.queue.sync {
                let snapshot = harness.engine.queries(now: harness.engine.clock())
                let context = harness.engine.indicatorCache!.context
                return snapshot.indicator(IndicatorCache(context: context, snapshot)).view
            }
        }
        let before = worked()
        _ = harness.perform("Snooze", ["id": .string(ids[2]), "duration": .string("1h")])
        _ = harness.perform("Done", ["id": .string(ids[0])])
        #expect(worked() - before == 2)
        #expect(harness.notifier.views.last == fresh())
        // A week later the items that came within the week are shown, as a full walk shows them.
        harness.advance(to: 8 * 86_400)
        #expect(harness.notifier.views.last == fresh())
        #expect(worked() - before < 2 + 40)
        // Benefits counted in the wallet, one used, and months passing: still a full walk's view.
        let gas = add(harness, ["kind": .string("benefit"), "title": .string("Gas"), "amount": .string("10"),
                                "period": .string("monthly")])
        _ = add(harness, ["kind": .string("benefit"), "title": .string("Dining"), "amount": .string("25.5"),
                          "period": .string("quarterly")])
        #expect(harness.notifier.views.last?.menu.contains { $0.label == "Wallet: $35.50 left" } == true)
        _ = harness.perform("Done", ["id": .string(gas)])
        #expect(harness.notifier.views.last == fresh())
        for days in [20, 45, 75, 130] {
            harness.advance(to: Int64(days) * 86_400)
            #expect(harness.notifier.views.last == fresh(), "\(days) days on")
        }
    }
}
