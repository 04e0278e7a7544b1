import CivilTime
import Foundation
import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

@testable import ReminderDaemon

/// A free trial (issue #30 item 2): reminded before its last day with what it will then charge;
/// "I cancelled" ends the subscription and `report` counts the charge kept, "Keep it" clears the
/// trial and the renewals go on from the first charge. Both are undone as a Done is.
@Suite struct EngineTrialTests {
    /// 2026-11-19T09:00Z, the reminder a day before the trial's last day (the harness is in UTC).
    let dayBefore: Int64 = 78_800

    func addTrial(_ harness: EngineHarness) -> String {
        let reply = harness.perform(
            "Add",
            [
                "item": .object([
                    "kind": .string("subscription"), "title": .string("Hulu"), "amount": .string("9.99"),
                    "every": .string("1mo"), "next": .string("2026-11-21"), "trialEnds": .string("2026-11-20"),
                    "lead": .array([.string("1d")]),
                ])
            ])
        guard case .success(let parameters) = reply, case .string(let id)? = parameters["id"] else {
            Issue.record("add failed: \(reply)")
            return ""
        }
        return id
    }

    @Test func theTrialsEndIsRemindedWithWhatItWillChargeAndCancellingEndsIt() throws {
        let harness = try EngineHarness()
        let id = addTrial(harness)
        harness.advance(to: dayBefore)
        let popUp = try #require(harness.notifier.requests.last)
        #expect(plain(popUp.body) == "Free Trial Ends Soon · Hulu free trial ends tomorrow · then $9.99/mo")
        #expect(popUp.actions.map(\.key).prefix(2) == ["done", "cancelled"])
        #expect(popUp.actions.map(\.label).prefix(2) == ["Keep it", "I cancelled"])

        harness.emit(.actionInvoked(id: try #require(harness.notifier.acceptedIds.last), action: "cancelled"))
        #expect(harness.field(id, "cancelled") == "2026-11-19")
        let shown = harness.notifier.requests.count
        #expect(plain(try #require(harness.notifier.requests.last).body).contains("Cancelled Hulu"))
        for day in 1...60 { harness.advance(to: dayBefore + Int64(day) * 86_400) }
        #expect(harness.notifier.requests.count == shown, "no reminder after it was cancelled")

        let report = try #require(reply(harness.engine, "Report", ReportReply.self, ["months": .integer(3)])).report
        let redeemed = report.months.map { "\($0.month) \($0.redeemed)" }
        #expect(redeemed == ["2026-11-01 9.99", "2026-12-01 0", "2027-01-01 0"])
        #expect(report.subscriptions.isEmpty, "a cancelled subscription costs nothing")

        _ = harness.perform("Undo", ["id": .string(id)])
        #expect(harness.field(id, "cancelled") == nil)
        #expect(harness.field(id, "trialEnds") == "2026-11-20")
    }

    @Test func keepingItClearsTheTrialAndTheRenewalsGoOnFromTheFirstCharge() throws {
        let harness = try EngineHarness()
        let id = addTrial(harness)
        harness.advance(to: dayBefore)
        _ = harness.perform("Done", ["id": .string(id)])
        #expect(harness.field(id, "trialEnds") == nil)
        #expect(harness.field(id, "next") == "2026-11-21")
        #expect(harness.reasons(id, "done").last == "kept after the free trial; renews 2026-11-21")
        harness.advance(to: dayBefore + 86_400)
        let popUp = try #require(harness.notifier.requests.last)
        #expect(plain(popUp.body).contains("Hulu renews tomorrow"), "\(popUp.body)")
        _ = harness.perform("Undo", ["id": .string(id)])
        #expect(harness.field(id, "trialEnds") == "2026-11-20")
    }

    /// "Keep it" on the pop-up paid nothing: its confirmation says the subscription is kept and
    /// when it first charges, not "Marked Hulu as paid" (as it did: the item, its trial cleared,
    /// looked like any subscription to the confirmation).
    @Test func keepItOnThePopUpIsConfirmedAsKeptWithTheFirstCharge() throws {
        let harness = try EngineHarness()
        let id = addTrial(harness)
        harness.advance(to: dayBefore)
        harness.emit(.actionInvoked(id: try #require(harness.notifier.acceptedIds.last), action: "done"))
        #expect(harness.field(id, "trialEnds") == nil)
        let confirmation = try #require(harness.notifier.requests.last)
        #expect(plain(confirmation.body) == "Keeping Hulu · first charge $9.99 on Sat 2026-11-21")
        #expect(confirmation.actions.map(\.label) == ["Undo"])
    }

    @Test func cancelledIsRefusedWithoutAFreeTrialRunning() throws {
        let harness = try EngineHarness()
        let id = harness.add(["kind": "subscription", "title": "Gym", "every": "1mo", "next": "2026-12-01"])
        guard case .failure(let error) = harness.perform("Done", ["id": .string(id), "cancelled": .bool(true)]) else {
            Issue.record("a subscription without a trial was cancelled")
            return
        }
        #expect("\(error)".contains("no free trial running to cancel"))
        #expect(harness.field(id, "next") == "2026-12-01")
    }
}

/// The body without markup and bidi isolates, as a person reads it.
private func plain(_ text: String) -> String {
    String(text.unicodeScalars.filter { !(0x2066...0x2069).contains($0.value) }).replacing(/<[^>]*>/, with: "")
}
