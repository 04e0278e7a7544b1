import ReminderCore
import ReminderProtocol
import Testing

@testable import ReminderDaemon

/// A pop-up for several reminders keeps them actionable (issue 22, item 1): "One at a time"
/// shows each on its own pop-up with its Done and snoozes, the next once the one shown is acted
/// on or closed; "Snooze all" snoozes every one. No Done for all. The same on the pause digest.
@Suite struct EngineGroupButtonsTests {
    /// Seven coupons due in three days, reminded two days before: one grouped pop-up at 1 d.
    private func sevenAtOneInstant(_ harness: EngineHarness) -> [String] {
        let ids = (1...7).map { harness.addCoupon(expiresIn: 3 * 86_400, leads: ["2d"], title: "Deal \($0)") }
        harness.advance(to: 86_400)
        return ids
    }

    /// The last pop-up shown and the id the server gave it.
    private func last(_ harness: EngineHarness) throws -> (request: NotificationRequest, id: UInt32) {
        let requests = harness.notifier.requests
        let ids = harness.notifier.acceptedIds
        try #require(requests.count == ids.count, "every pop-up accepted")
        return (try #require(requests.last), try #require(ids.last))
    }

    /// The reminders' own pop-ups shown so far (a Done button), with their ids.
    private func ownPopUps(_ harness: EngineHarness) -> [(request: NotificationRequest, id: UInt32)] {
        zip(harness.notifier.requests, harness.notifier.acceptedIds).filter { $0.0.actions.first?.key == "done" }
            .map { ($0.0, $0.1) }
    }

    @Test func aGroupOffersOneAtATimeAndSnoozeAllButNoDone() throws {
        let harness = try EngineHarness()
        _ = sevenAtOneInstant(harness)
        let group = try last(harness).request
        #expect(harness.notifier.requests.count == 1 && group.category == "x-reminderd.group")
        #expect(group.actions.map(\.key) == ["one-at-a-time", "snooze-all-1h"])
        #expect(group.actions.map(\.label) == ["One at a time", "Snooze all 1h"])
    }

    @Test func aGroupWithoutActionsOnTheServerKeepsItsCommandsAndNoButtons() throws {
        let harness = try EngineHarness(notifier: RecordingNotifier(capabilities: []))
        let ids = sevenAtOneInstant(harness)
        let group = try last(harness).request
        #expect(group.actions.isEmpty)
        #expect(group.body.contains("reminderctl done \(ids[0])"))
    }

    @Test func snoozeAllIsOfferedOnlyWhenASnoozeEndsBeforeEveryDueTime() throws {
        let harness = try EngineHarness()
        // Due in an hour: even 1h would end at the due time.
        _ = ["A", "B", "C"].map { harness.addCoupon(expiresIn: 2 * 3600, leads: ["1h"], title: $0) }
        harness.advance(to: 3600)
        #expect(try last(harness).request.actions.map(\.key) == ["one-at-a-time"])
    }

    @Test func sevenAtOneInstantAreEachMarkedDoneOneAtATimeWithButtonsOnly() throws {
        let harness = try EngineHarness()
        let ids = sevenAtOneInstant(harness)
        let group = try last(harness).id
        harness.notifier.press("one-at-a-time", on: group)
        harness.settle()
        #expect(harness.notifier.closed.contains(group))
        var seen: [String] = []
        for step in 1...7 {
            let own = ownPopUps(harness)
            #expect(own.count == step, "one pop-up at a time: the next only after a Done")
            let current = try #require(own.last)
            #expect(current.request.actions.map(\.key) == ["done", "snooze-1h", "snooze-tomorrow"])
            seen.append(current.request.summary)
            harness.notifier.press("done", on: current.id)
            harness.settle()
        }
        #expect(ownPopUps(harness).count == 7, "none left to show")
        #expect(Set(seen).count == 7)
        for id in ids {
            // Fired once with the group; shown alone in turn without being recorded again.
            #expect(harness.history(id) == ["added", "fired", "done"])
        }
    }

    /// Issue 27, defect 9: going through a group one at a time, a Done's confirmation must not
    /// put an Undo beside the next reminder (dunst's menu listed it first; Enter undid the Done).
    /// In the middle of the walk it says what was done and how to undo it, with no button; the
    /// last Done, with nothing to come, offers Undo, and that Undo shows what it restored.
    @Test func aWalkPutsNoUndoBesideTheNextReminderAndTheLastUndoShowsWhatItRestored() throws {
        let harness = try EngineHarness()
        let ids = ["A", "B", "C", "D"].map { harness.addCoupon(expiresIn: 3 * 86_400, leads: ["2d"], title: $0) }
        harness.advance(to: 86_400)
        harness.notifier.press("one-at-a-time", on: try last(harness).id)
        harness.settle()
        for (step, id) in ids.enumerated() {
            let current = try #require(ownPopUps(harness).last)
            #expect(current.request.summary == "\u{2068}\(["A", "B", "C", "D"][step])\u{2069}")
            harness.notifier.press("done", on: current.id)
            harness.settle()
            let confirmation = try #require(harness.notifier.requests.last { $0.category == "x-reminderd.done" })
            if step < 3 {
                #expect(confirmation.actions.isEmpty, "no Undo beside the next reminder")
                #expect(confirmation.body.contains("reminderctl undo \(id)"))
            } else {
                #expect(confirmation.actions.map(\.key) == ["undo"])
            }
        }
        #expect(ids.allSatisfy { harness.history($0).last == "done" })
        harness.notifier.press("undo", on: try last(harness).id)
        harness.settle()
        let undone = try last(harness).request
        #expect(undone.summary == "Undone")
        #expect(undone.body.hasPrefix("Coupon Expiring · \u{2068}D\u{2069} expires in 2 days"), "\(undone.body)")
        #expect(harness.history(ids[3]).last == "undone")
        #expect(ids.dropLast().allSatisfy { harness.history($0).last == "done" })
    }

    @Test func theNextComesWhenTheOneShownIsDismissedSnoozedOrDoneElsewhere() throws {
        let harness = try EngineHarness()
        let ids = ["A", "B", "C", "D"].map { harness.addCoupon(expiresIn: 3 * 86_400, leads: ["2d"], title: $0) }
        harness.advance(to: 86_400)
        harness.notifier.press("one-at-a-time", on: try last(harness).id)
        harness.settle()
        // Sorted by name: A first. Dismissed on screen: B comes.
        var current = try #require(ownPopUps(harness).last)
        #expect(current.request.summary == "\u{2068}A\u{2069}")
        harness.emit(.closed(id: current.id, reason: 2))
        harness.settle()
        current = try #require(ownPopUps(harness).last)
        #expect(current.request.summary == "\u{2068}B\u{2069}")
        // Snoozed from its button: C comes.
        harness.notifier.press("snooze-1h", on: current.id)
        harness.settle()
        current = try #require(ownPopUps(harness).last)
        #expect(current.request.summary == "\u{2068}C\u{2069}")
        // D is done from the command line while C is shown: it is skipped; C done, nothing comes.
        _ = harness.perform("Done", ["id": .string(ids[3])])
        harness.settle()
        #expect(ownPopUps(harness).count == 3)
        _ = harness.perform("Done", ["id": .string(ids[2])])
        harness.settle()
        #expect(ownPopUps(harness).count == 3)
        #expect(harness.history(ids[0]).last == "dismissed")
        #expect(harness.history(ids[1]).last == "snoozed")
    }

    @Test func snoozeAllSnoozesEveryReminderOfTheGroupAndTheyComeBack() throws {
        let harness = try EngineHarness()
        let ids = sevenAtOneInstant(harness)
        let group = try last(harness).id
        harness.notifier.press("snooze-all-1h", on: group)
        harness.settle()
        #expect(harness.notifier.closed.contains(group))
        #expect(harness.notifier.requests.count == 1, "no pop-up per snooze")
        for id in ids { #expect(harness.history(id).last == "snoozed") }
        harness.advance(to: 86_400 + 3600)
        #expect(harness.notifier.requests.count == 2)
        #expect(harness.notifier.requests.last?.category == "x-reminderd.group")
    }

    @Test func thePauseDigestOffersTheSameButtonsAndGoesThroughItsReminders() throws {
        let harness = try EngineHarness()
        _ = harness.perform("Pause")
        let ids = ["One", "Two", "Three"].map { harness.addCoupon(expiresIn: 3 * 86_400, leads: ["2d"], title: $0) }
        harness.advance(to: 86_400)
        #expect(harness.notifier.requests.isEmpty)
        _ = harness.perform("Resume")
        harness.settle()
        let digest = try last(harness)
        #expect(digest.request.body.hasPrefix("3 reminders held by your pause since 11:06: "))
        #expect(digest.request.actions.map(\.key) == ["one-at-a-time", "snooze-all-1h"])
        harness.notifier.press("one-at-a-time", on: digest.id)
        harness.settle()
        for _ in ids {
            let current = try #require(ownPopUps(harness).last)
            harness.notifier.press("done", on: current.id)
            harness.settle()
        }
        #expect(ownPopUps(harness).count == 3)
        for id in ids { #expect(harness.history(id).last == "done") }
    }

    @Test func aDigestReminderDoneMeanwhileLeavesTheDigestWhichStaysADigest() throws {
        let harness = try EngineHarness()
        _ = harness.perform("Pause")
        let ids = ["One", "Two", "Three"].map { harness.addCoupon(expiresIn: 3 * 86_400, leads: ["2d"], title: $0) }
        harness.advance(to: 86_400)
        _ = harness.perform("Resume")
        harness.settle()
        let digest = try last(harness).id
        _ = harness.perform("Done", ["id": .string(ids[0])])
        harness.settle()
        let again = try last(harness)
        #expect(again.request.replacesId == digest)
        #expect(again.request.body.hasPrefix("2 reminders held by your pause since 11:06: "))
        #expect(!again.request.body.contains("One") && again.request.body.contains("Two"))
        #expect(again.request.actions.map(\.key) == ["one-at-a-time", "snooze-all-1h"])
        harness.notifier.press("snooze-all-1h", on: again.id)
        harness.settle()
        #expect(ids.map { harness.history($0).last } == ["done", "snoozed", "snoozed"])
    }

    @Test func theServerGoingAwayWhileGoingThroughShowsTheRestOnTheNextOne() throws {
        let harness = try EngineHarness()
        let ids = ["A", "B", "C"].map { harness.addCoupon(expiresIn: 3 * 86_400, leads: ["2d"], title: $0) }
        harness.advance(to: 86_400)
        harness.notifier.press("one-at-a-time", on: try last(harness).id)
        harness.settle()
        harness.notifier.vanish()
        harness.settle()
        harness.notifier.appear()
        harness.settle()
        #expect(try last(harness).request.category == "x-reminderd.group")
        for id in ids { #expect(harness.history(id) == ["added", "fired", "reshown"]) }
    }

    @Test func everyButtonKeyReadsBackAsTheButtonItWasMadeFrom() {
        let buttons: [PopUpAction] = [
            .done, .snooze(CalendarDuration(1, .hours)), .snoozeToLastMinute, .snoozeUntilTomorrow, .undo, .oneAtATime,
            .snoozeAll(CalendarDuration(1, .days)),
        ]
        for button in buttons { #expect(PopUpAction(key: button.key) == button) }
        #expect(PopUpAction(key: "default") == nil)
        #expect(PopUpAction(key: "snooze-all-soon") == nil)
    }
}
