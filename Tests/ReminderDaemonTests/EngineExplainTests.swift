import CivilTime
import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

@testable import ReminderDaemon

/// `explain` names the rule that really dropped a reminder: at 22:00 with quiet hours 22:00–08:00,
/// a coupon due at 22:03 with a 1m lead has its 22:02 reminder moved to 21:59, before it was added
/// — not "at or after the due time", with quiet hours "not affected" (issue #22).
@Suite struct EngineExplainTests {
    let harness = try! EngineHarness(
        configuration: Configuration(
            timeZone: "UTC",
            quietHours: QuietHours(start: LocalTime(hour: 22, minute: 0), end: LocalTime(hour: 8, minute: 0))))

    /// 2026-11-18T22:00:00Z, seconds after the harness's start (11:06:40).
    static let tenPM: Int64 = 39_200

    func steps(_ id: String) throws -> [ExplainReply.Step] {
        guard case .success(let parameters) = harness.perform("Explain", ["id": .string(id)]) else {
            Issue.record("Explain failed")
            return []
        }
        return try ExplainReply(parameters: parameters).steps
    }

    @Test func aReminderMovedOutOfQuietHoursToBeforeTheItemWasAddedSaysSo() throws {
        harness.advance(to: EngineExplainTests.tenPM)
        let id = harness.addCoupon(expiresIn: EngineExplainTests.tenPM + 180, leads: ["1m"])
        let step = try #require(try steps(id).first)
        #expect(step.fireAt == nil)
        #expect(step.quietHours == "moved to a minute before quiet hours")
        #expect(
            step.result
                == "dropped: in quiet hours 22:00–08:00, which end after the due time; a minute before they "
                + "begin (2026-11-18T21:59:00+00:00) is before the item was added")
    }

    @Test func aReminderPassedOverByAnEditIsNotSaidToBeKept() throws {
        let id = harness.addCoupon(expiresIn: 3_600, leads: ["50m"])
        harness.clock.set(EngineHarness.start + 1_900)  // no timer ran: the 50m reminder is not shown
        let edit = harness.perform("Edit", ["id": .string(id), "changes": .object(["lead": .array([.string("35m")])])])
        guard case .success = edit else {
            Issue.record("Edit failed: \(edit)")
            return
        }
        let step = try #require(try steps(id).first)
        #expect(step.result == "dropped: its time had passed when the item or the settings changed")
        #expect(step.fireAt == Timestamp.format(EngineHarness.start + 1_500, in: .utc))
    }

    @Test func aReminderWhoseTimeHadPassedStillSaysSo() throws {
        harness.advance(to: EngineExplainTests.tenPM - 3_600)  // 21:00
        let id = harness.addCoupon(expiresIn: EngineExplainTests.tenPM - 3_600 + 600, leads: ["1h", "1m"])
        let steps = try steps(id)
        #expect(steps.map(\.result) == ["dropped: before the item was added", "kept"])
        #expect(steps.map(\.quietHours) == ["not affected", "not affected"])
    }
}
