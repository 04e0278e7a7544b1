import CivilTime
import ReminderCore
import ReminderJSON
import ReminderPlatform
import Testing

@testable import ReminderDaemon

/// What an edit or a new zone carried along, seen from the far side (issue 27): an Undo after a
/// date-moving edit undoes the edit's carry with it (defect 16: the earlier Done was left on a
/// date the restored item does not have), and a snooze carried to at or after its occurrence's
/// due time ends a minute before it instead of swallowing the reminder (defect 17).
@Suite struct EngineCarryBackTests {
    func ok(_ harness: EngineHarness, _ method: String, _ parameters: [String: JSONValue]) -> [String: JSONValue] {
        guard case .success(let reply) = harness.perform(method, parameters) else {
            Issue.record("\(method) refused: \(harness.perform(method, parameters))")
            return [:]
        }
        return reply
    }

    func add(_ harness: EngineHarness, _ fields: [String: JSONValue]) -> String {
        guard case .string(let id)? = ok(harness, "Add", ["item": .object(fields)])["id"] else { return "" }
        return id
    }

    func view(_ harness: EngineHarness, _ id: String) -> [String: JSONValue] {
        guard case .object(let item)? = ok(harness, "Get", ["id": .string(id)])["item"] else { return [:] }
        return item
    }

    func refused(_ harness: EngineHarness, _ method: String, _ parameters: [String: JSONValue]) -> Bool {
        if case .failure = harness.perform(method, parameters) { return true }
        return false
    }

    /// Explain's snooze end and each lead's result.
    func explain(_ harness: EngineHarness, _ id: String) -> (snoozed: String?, results: [String]) {
        let reply = ok(harness, "Explain", ["id": .string(id)])
        var snoozed: String?
        if case .string(let text)? = reply["snoozedUntil"] { snoozed = text }
        guard case .array(let steps)? = reply["steps"] else { return (snoozed, []) }
        return (
            snoozed,
            steps.compactMap {
                if case .object(let step) = $0, case .string(let result)? = step["result"] { return result }
                return nil
            }
        )
    }

    @Test func undoAfterAnEditThatMovedTheDatesKeepsTheEarlierDone() throws {
        let harness = try EngineHarness()
        let q = add(
            harness,
            [
                "kind": .string("benefit"), "title": .string("Q"), "amount": .string("100"),
                "period": .string("quarterly"),
            ])
        _ = ok(harness, "Done", ["id": .string(q)])  // the quarter due 2026-12-31
        _ = ok(harness, "Done", ["id": .string(q), "early": .bool(true)])  // the next, due 2027-03-31
        _ = ok(harness, "Edit", ["id": .string(q), "changes": .object(["period": .string("monthly")])])
        _ = ok(harness, "Undo", ["id": .string(q)])
        // Quarterly again, its fourth quarter still used: a Done now is refused, not a second $100.
        #expect(view(harness, q)["period"] == .string("quarterly"))
        #expect(view(harness, q)["status"] == .string("used"))
        #expect(refused(harness, "Done", ["id": .string(q)]))
        // The next Undo takes back that quarter's Done.
        _ = ok(harness, "Undo", ["id": .string(q)])
        #expect(view(harness, q)["status"] == .string("available"))
        #expect(refused(harness, "Undo", ["id": .string(q)]))
    }

    @Test func undoAfterASubscriptionsNextWasMovedKeepsTheEarlierDone() throws {
        let harness = try EngineHarness()
        let s = add(
            harness,
            [
                "kind": .string("subscription"), "title": .string("S"), "amount": .string("9.99"),
                "every": .string("1mo"), "next": .string("2026-12-08"),
            ])
        _ = ok(harness, "Done", ["id": .string(s)])  // 2026-12-08
        _ = ok(harness, "Done", ["id": .string(s), "early": .bool(true)])  // 2027-01-08
        _ = ok(harness, "Edit", ["id": .string(s), "changes": .object(["next": .string("2026-12-01")])])
        _ = ok(harness, "Undo", ["id": .string(s)])
        #expect(view(harness, s)["next"] == .string("2026-12-08"))
        #expect(view(harness, s)["status"] == .string("used"))
        #expect(refused(harness, "Done", ["id": .string(s)]))
    }

    /// Found by the model test's longer runs: the reminder waiting for a server stayed at the old
    /// expiry while the Done moved with the edit, so it was shown for a used coupon.
    @Test func aUsedCouponsReminderWaitingForAServerIsNotShownAfterAnEditMovedIt() throws {
        let harness = try EngineHarness()
        let id = harness.addCoupon(expiresIn: 3 * 86_400, leads: ["1d"])
        harness.notifier.vanish()
        harness.settle()
        harness.advance(to: 2 * 86_400 + 60)  // its 1d reminder waits for a server
        #expect(harness.status("waiting") == .integer(1))
        _ = ok(harness, "Done", ["id": .string(id)])
        _ = ok(harness, "Edit", ["id": .string(id), "changes": .object(["expires": .string("2026-11-28T12:00")])])
        harness.notifier.appear()
        harness.settle()
        let reminders = harness.notifier.requests.filter { request in request.actions.contains { $0.key == "done" } }
        #expect(reminders.isEmpty)
        #expect(view(harness, id)["status"] == .string("used"))
    }

    /// Found by the model test at 400 steps: an overdue rebuy's reminder waited for a server, was
    /// rebought and the rebuy undone (planning its one reminder again), then the server came: the
    /// waiting one went out, and the planned one a minute later too.
    @Test func anOverdueRebuyRemindsOnceWhenItsWaitingReminderGoesOutAfterAnUndo() throws {
        let harness = try EngineHarness()
        harness.notifier.vanish()
        harness.settle()
        let id = add(
            harness,
            [
                "kind": .string("rebuy"), "title": .string("Coffee"), "everyDays": .integer(7),
                "lastPurchased": .string("2026-11-01"),
            ])
        harness.advance(to: 60)
        #expect(harness.status("waiting") == .integer(1))
        _ = ok(harness, "Done", ["id": .string(id)])
        _ = ok(harness, "Undo", ["id": .string(id)])
        harness.notifier.appear()
        harness.settle()
        harness.advance(to: 180)
        let reminders = harness.notifier.requests.filter { request in request.actions.contains { $0.key == "done" } }
        #expect(reminders.count == 1)
    }

    /// Found by the model test (seed 4047450750647935008): a renewal paid before its first
    /// reminder, its next occurrence snoozed and that snooze's reminder waiting for a server; then
    /// the payment undone and the restored occurrence snoozed too: when a server came, both
    /// snoozes' reminders went out — the later occurrence's beside the current one's.
    @Test func aLaterOccurrencesReminderWaitingForAServerIsNotShownAfterAnUndo() throws {
        let harness = try EngineHarness()
        harness.notifier.vanish()
        harness.settle()
        let s = add(
            harness,
            [
                "kind": .string("subscription"), "title": .string("Renewal"), "amount": .string("9.99"),
                "every": .string("1mo"), "next": .string("2026-12-22"), "lead": .array([.string("3d")]),
            ])
        _ = ok(harness, "Done", ["id": .string(s)])  // 2026-12-22 paid: 2027-01-22 is current
        _ = ok(harness, "Snooze", ["id": .string(s), "duration": .string("1h")])
        harness.advance(to: 3600 + 60)  // 2027-01-22's snooze reminder waits for a server
        #expect(harness.status("waiting") == .integer(1))
        _ = ok(harness, "Undo", ["id": .string(s)])  // 2026-12-22 is current again
        _ = ok(harness, "Snooze", ["id": .string(s), "duration": .string("1h")])
        harness.advance(to: 2 * 3600 + 120)  // and its snooze reminder waits too
        harness.notifier.appear()
        harness.settle()
        let reminders = harness.notifier.requests.filter { request in request.actions.contains { $0.key == "done" } }
        #expect(reminders.count == 1)
        #expect(harness.history(s).filter { $0 == "fired" }.count == 1)
    }

    @Test func aSnoozeCarriedPastTheDueTimeByAnEditStillReminds() throws {
        let harness = try EngineHarness()
        let s = add(
            harness,
            [
                "kind": .string("subscription"), "title": .string("Renewal"), "amount": .string("9.99"),
                "every": .string("1mo"), "next": .string("2026-11-28"),
                "lead": .array([.string("2d"), .string("1d")]),
            ])
        _ = ok(harness, "Snooze", ["id": .string(s), "duration": .string("1w")])  // until 2026-11-25 11:06
        _ = ok(harness, "Edit", ["id": .string(s), "changes": .object(["next": .string("2026-11-22")])])
        // Due 2026-11-22 23:59: the snooze ends a minute before, and explain says the leads before it are skipped.
        let explained = explain(harness, s)
        #expect(explained.snoozed == "2026-11-22T23:58:00+00:00")
        #expect(explained.results.allSatisfy { $0.hasPrefix("skipped: snoozed until 2026-11-22T23:58") })
        harness.advance(to: 4 * 86_400 + 12 * 3600 + 60 * 52)  // 2026-11-22 23:58:40
        #expect(harness.notifier.requests.count == 1)
        #expect(harness.history(s).contains("fired"))
    }

    @Test func aSnoozeCarriedPastTheExpiryByANewZoneStillReminds() throws {
        let havana = try ZoneDatabase.shared.zone(named: "America/Havana")  // UTC−5 in November
        let harness = try EngineHarness(
            configuration: Configuration(timeZone: "America/Havana", quietHours: nil), zone: havana)
        let c = add(
            harness,
            [
                "kind": .string("coupon"), "title": .string("Deal"), "expires": .string("2026-11-20T12:00"),
                "lead": .array([.string("1d")]),
            ])
        // Snoozed to a minute before its expiry in Havana: 2026-11-20 16:59 UTC.
        _ = ok(harness, "Snooze", ["id": .string(c), "duration": .string("30d")])
        harness.reload(Configuration(timeZone: "UTC", quietHours: nil), zone: .utc)
        // Now due 2026-11-20 12:00 UTC, before the stored snooze: it ends at 11:59 instead.
        #expect(explain(harness, c).snoozed == "2026-11-20T11:59:00+00:00")
        harness.advance(to: 2 * 86_400 + 3140)  // 2026-11-20 11:59:00 UTC
        #expect(harness.notifier.requests.count == 1)
        #expect(harness.history(c).contains("fired"))
    }
}
