import CivilTime
import Foundation
import ReminderCore
import ReminderJSON
import ReminderProtocol
import ReminderStore
import ReminderTestSupport
import Testing

@testable import ReminderDaemon

/// A benefit's partial use (`done --amount`) counts in its period only (CONTRACT §2): once the
/// month is over, the next one starts with nothing used — in Get, the pop-up, `summary`, the next
/// `done --amount` — while `report` keeps what was redeemed in the month it was.
@Suite struct EnginePartialUseTests {
    let harness: EngineHarness

    init() throws {
        harness = try EngineHarness()
        at("2030-01-10T12:00:00Z")
    }

    /// Moves the clock to `rfc3339` (UTC), running what came due, as the timer would.
    func at(_ rfc3339: String) {
        harness.advance(to: Fixture.instant(rfc3339) - EngineHarness.start)
    }

    func addUber() -> String {
        harness.add([
            "kind": "benefit", "title": "Uber Cash", "card": "Gold", "amount": "15", "period": "monthly",
        ])
    }

    /// What Get shows as used now.
    func shownUsed(_ id: String) -> String? {
        guard case .success(let reply) = harness.perform("Get", ["id": .string(id)]),
            case .object(let item)? = reply["item"], case .string(let used)? = item["amountUsed"]
        else { return nil }
        return used
    }

    func done(_ id: String, amount: String? = nil) -> [String: JSONValue] {
        var parameters: [String: JSONValue] = ["id": .string(id)]
        parameters["amount"] = amount.map { .string($0) }
        return ok(harness.engine, "Done", parameters)
    }

    @Test func aPartialUseEndsWithItsMonth() throws {
        let id = addUber()
        _ = harness.perform("Edit", ["id": .string(id), "changes": .object(["lead": .array([.string("3d")])])])
        _ = done(id, amount: "5")
        #expect(shownUsed(id) == "5")
        at("2030-01-28T09:30:00Z")
        #expect(harness.notifier.requests.last.map { plain($0.body) }?.contains("remaining $10 of $15") == true)

        at("2030-02-01T12:00:00Z")
        #expect(shownUsed(id) == nil, "January's $5 is not February's")
        let summary = try #require(reply(harness.engine, "Summary", SummaryReply.self))
        #expect(summary.benefitsAvailable == "15")
        at("2030-02-25T09:30:00Z")
        let popUp = try #require(harness.notifier.requests.last)
        #expect(plain(popUp.body).contains("Your $15 Uber Cash expires in 3 days"), "\(popUp.body)")

        let after = done(id, amount: "5")
        guard case .object(let item)? = after["item"] else {
            Issue.record("Done answered no item: \(after)")
            return
        }
        #expect(item["amountUsed"] == .string("5"), "$5 of February, not $10")
        #expect(harness.reasons(id, "done").last == "$5 of $15 used")
    }

    @Test func theReportCountsAPartialUseInItsMonthAndTheNextMonthWhole() throws {
        let id = addUber()
        _ = done(id, amount: "5")
        at("2030-02-10T12:00:00Z")
        _ = done(id, amount: "5")
        _ = done(id)  // the rest of February: $10
        let report = try #require(reply(harness.engine, "Report", ReportReply.self, ["months": .integer(2)])).report
        let redeemed = report.months.map { "\($0.month) \($0.redeemed) lost \($0.lost)" }
        #expect(redeemed == ["2030-01-01 5 lost 10", "2030-02-01 15 lost 0"])
    }

    /// An item stored before the used amount's period was recorded: its amount counts toward the
    /// period current at the first start after the upgrade, and that is written down — it does
    /// not count toward the period of every later start.
    @Test func anAmountStoredWithoutItsPeriodCountsTowardThePeriodOfTheFirstStart() throws {
        let id = addUber()
        var legacy = try #require(harness.engine.queue.sync { harness.engine.items[id] })
        legacy.schedule = .benefit(
            Benefit(
                card: "Gold", amount: Money(tenThousandths: 150_000), period: .monthly,
                amountUsed: Money(tenThousandths: 50_000)))
        try harness.engine.store.rewriteItems([legacy])
        try harness.restart()
        #expect(shownUsed(id) == "5")
        #expect(harness.field(id, "amountUsedPeriod") == "2030-01-31")
        harness.clock.set(Fixture.instant("2030-02-03T12:00:00Z"))
        try harness.restart()
        #expect(shownUsed(id) == nil)
    }

    /// A backup keeps the period a use counts toward: restored in the next month, January's use
    /// is not February's; restored in January, it is January's.
    @Test func aBackupKeepsThePeriodOfAUse() throws {
        let id = addUber()
        _ = done(id, amount: "5")
        let backup = ok(harness.engine, "Export", [:])
        for (when, used) in [("2030-02-03T12:00:00Z", nil), ("2030-01-12T12:00:00Z", "5")] as [(String, String?)] {
            let restored = try EngineHarness()
            restored.clock.set(Fixture.instant(when))
            ok(restored.engine, "Import", ["items": backup["items"] ?? .null, "state": backup["state"] ?? .null])
            guard case .success(let reply) = restored.perform("Get", ["id": .string(id)]),
                case .object(let item)? = reply["item"]
            else {
                Issue.record("no item \(id) after the import")
                continue
            }
            #expect(item["amountUsed"] == used.map { .string($0) }, "restored at \(when)")
        }
    }

    /// A stale use must not hold a new, lower amount down: the edit drops it.
    @Test func anEditAfterTheMonthIsNotHeldByItsUse() throws {
        let id = addUber()
        _ = done(id, amount: "12")
        at("2030-02-03T12:00:00Z")
        let edited = harness.perform("Edit", ["id": .string(id), "changes": .object(["amount": .string("10")])])
        guard case .success = edited else {
            Issue.record("edit refused: \(edited)")
            return
        }
        #expect(shownUsed(id) == nil)
        #expect(harness.field(id, "amountUsed") == nil)
    }
}

/// The body without markup and bidi isolates, as a person reads it.
private func plain(_ text: String) -> String {
    String(text.unicodeScalars.filter { !(0x2066...0x2069).contains($0.value) }).replacing(/<[^>]*>/, with: "")
}
