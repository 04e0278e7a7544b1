import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

@testable import ReminderDaemon

/// Reminders waiting their turn are as durable as one on screen (issue 27, defect 5): four
/// coupons fired together, "One at a time" pressed, reminderd restarted — the three still to
/// come were recorded fired with their group and were never shown again.
@Suite struct EngineTurnRestartTests {
    /// The reminders' own pop-ups shown so far (a Done button), with their ids.
    private func ownPopUps(_ notifier: RecordingNotifier) -> [(request: NotificationRequest, id: UInt32)] {
        zip(notifier.requests, notifier.acceptedIds).filter { $0.0.actions.first?.key == "done" }.map { ($0.0, $0.1) }
    }

    private func upcomingItems(_ harness: EngineHarness) -> [String] {
        guard case .success(let reply) = harness.perform("Upcoming", ["days": .integer(1)]),
            case .array(let reminders)? = reply["reminders"]
        else { return [] }
        return reminders.compactMap {
            if case .object(let fields) = $0, case .string(let item)? = fields["item"] { return item }
            return nil
        }
    }

    @Test func theRemindersWaitingTheirTurnComeBackAfterARestart() throws {
        let harness = try EngineHarness()
        let ids = ["A", "B", "C", "D"].map { harness.addCoupon(expiresIn: 3 * 86_400, leads: ["2d"], title: $0) }
        harness.advance(to: 86_400)
        let group = try #require(harness.notifier.acceptedIds.last)
        harness.notifier.press("one-at-a-time", on: group)
        harness.settle()
        let first = try #require(ownPopUps(harness.notifier).last)
        #expect(first.request.summary == "\u{2068}A\u{2069}")
        // Seen in status and upcoming: A on screen, B, C and D waiting their turn.
        #expect(harness.status("inTurn") == .integer(4))
        #expect(upcomingItems(harness).prefix(4) == ids[...])

        try harness.restart()  // the same notification server, still showing A
        let shown = ownPopUps(harness.notifier)
        #expect(shown.count == 1, "A again, in place of its pop-up, and the others after it")
        #expect(shown.first?.request.summary == "\u{2068}A\u{2069}")
        #expect(shown.first?.request.replacesId == first.id)
        #expect(harness.status("inTurn") == .integer(4))
        var seen = ["A"]
        while let current = ownPopUps(harness.notifier).last, seen.count < 5 {
            harness.notifier.press("done", on: current.id)
            harness.settle()
            guard let next = ownPopUps(harness.notifier).last, next.id != current.id else { break }
            seen.append(next.request.summary.filter(\.isLetter))
        }
        #expect(seen == ["A", "B", "C", "D"])
        #expect(harness.status("inTurn") == .integer(0))
        for id in ids { #expect(harness.history(id) == ["added", "fired", "done"]) }
        // Nothing is left to come after another restart.
        try harness.restart()
        #expect(ownPopUps(harness.notifier).isEmpty)
    }

    @Test func oneDoneFromTheCommandLineAfterTheRestartIsSkipped() throws {
        let harness = try EngineHarness()
        let ids = ["A", "B", "C"].map { harness.addCoupon(expiresIn: 3 * 86_400, leads: ["2d"], title: $0) }
        harness.advance(to: 86_400)
        harness.notifier.press("one-at-a-time", on: try #require(harness.notifier.acceptedIds.last))
        harness.settle()
        try harness.restart()
        _ = harness.perform("Done", ["id": .string(ids[1])])
        harness.settle()
        let a = try #require(ownPopUps(harness.notifier).last)
        harness.notifier.press("done", on: a.id)
        harness.settle()
        #expect(ownPopUps(harness.notifier).map { $0.request.summary.filter(\.isLetter) } == ["A", "C"])
    }
}
