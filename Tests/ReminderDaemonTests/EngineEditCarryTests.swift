import CivilTime
import ReminderCore
import ReminderJSON
import Testing

@testable import ReminderDaemon

/// A Done belongs to its occurrence, not to its date: an edit that moves the date carries it (and
/// what was shown) along (CONTRACT, "What a Done belongs to"; issue 19, defect 8: a used coupon
/// moved a day later became available and reminded again, and was used again when moved back).
@Suite struct EngineEditCarryTests {
    func ok(_ harness: EngineHarness, _ method: String, _ parameters: [String: JSONValue]) -> [String: JSONValue] {
        guard case .success(let reply) = harness.perform(method, parameters) else {
            Issue.record("\(method) refused: \(harness.perform(method, parameters))")
            return [:]
        }
        return reply
    }

    func status(_ harness: EngineHarness, _ id: String) -> String? {
        guard case .object(let item)? = ok(harness, "Get", ["id": .string(id)])["item"],
            case .string(let status)? = item["status"]
        else { return nil }
        return status
    }

    func edit(_ harness: EngineHarness, _ id: String, _ changes: [String: JSONValue]) {
        _ = ok(harness, "Edit", ["id": .string(id), "changes": .object(changes)])
    }

    @Test func aUsedCouponStaysUsedWhereverItsExpiryMoves() throws {
        let harness = try EngineHarness()
        let id = harness.addCoupon(expiresIn: 3 * 86_400, leads: ["1d", "2h"])
        _ = ok(harness, "Done", ["id": .string(id)])
        edit(harness, id, ["expires": .string("2026-11-22")])  // a day later
        #expect(status(harness, id) == "used")
        harness.advance(to: 5 * 86_400)
        #expect(harness.notifier.requests.isEmpty)
        edit(harness, id, ["expires": .string("2026-11-21")])
        #expect(status(harness, id) == "used")
        // An Undo after the edits undoes the Done of the occurrence as it is now.
        _ = ok(harness, "Undo", ["id": .string(id)])
        #expect(status(harness, id) == "expired")
    }

    @Test func aSubscriptionsDoneRenewalMovedByAnEditStaysDone() throws {
        let harness = try EngineHarness()
        guard
            case .string(let id)? = ok(
                harness, "Add",
                [
                    "item": .object([
                        "kind": .string("subscription"), "title": .string("Gym"), "amount": .string("30"),
                        "every": .string("1mo"), "next": .string("2026-11-25"), "lead": .array([.string("1d")]),
                    ])
                ])["id"]
        else { return }
        _ = ok(harness, "Done", ["id": .string(id)])
        #expect(status(harness, id) == "used")
        edit(harness, id, ["next": .string("2026-11-27")])
        #expect(status(harness, id) == "used")
        harness.advance(to: 10 * 86_400)  // past the moved renewal: its 1d reminder must not have come
        #expect(harness.notifier.requests.isEmpty)
    }

    @Test func aShownReminderIsNotShownAgainWhenAnEditMovesItsOccurrence() throws {
        let harness = try EngineHarness()
        let id = harness.addCoupon(expiresIn: 2 * 3600, leads: ["1h"])
        harness.advance(to: 3600)
        #expect(harness.notifier.requests.count == 1)
        // The coupon's expiry ten minutes later: its 1h reminder, shown, is not shown again.
        let later = LocalDateTime(localSeconds: EngineHarness.start + 2 * 3600 + 600)
        edit(harness, id, ["expires": .string(later.description)])
        harness.advance(to: 3600 + 900)
        #expect(harness.notifier.requests.count == 1)
    }
}
