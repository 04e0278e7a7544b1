import ReminderCore
@_spi(Testing) import ReminderStore
import Testing

@testable import ReminderDaemon

/// The engine's side of the notification server: pop-ups, buttons, server churn, refusals,
/// stalls and crashes, with `RecordingNotifier` and a manual clock.
@Suite struct EngineNotifierTests {
    /// A coupon due at +2 h with one reminder at +1 h.
    func dueInTwoHours(_ harness: EngineHarness) -> String {
        harness.addCoupon(expiresIn: 2 * 3600, leads: ["1h"])
    }

    @Test func aDueReminderIsShownWithButtonsAndRecorded() throws {
        let harness = try EngineHarness()
        let item = dueInTwoHours(harness)
        harness.advance(to: 3599)
        #expect(harness.notifier.requests.isEmpty)
        harness.advance(to: 3600)
        #expect(harness.notifier.requests.count == 1)
        #expect(harness.notifier.requests.first?.actions.map(\.key).contains("done") == true)
        #expect(harness.history(item).filter { $0 == "fired" }.count == 1)
    }

    @Test func aLateReminderPlannedAtStartIsNotLostWhenTheDaemonDiesBeforeSendingIt() throws {
        let harness = try EngineHarness()
        let item = dueInTwoHours(harness)
        harness.clock.set(EngineHarness.start + 3700)  // its reminder came due while the daemon was away
        try harness.restart()  // plans it as late, then dies before the timer ran it
        #expect(harness.notifier.requests.isEmpty)
        try harness.restart()
        harness.advance(to: 3701)
        #expect(harness.notifier.requests.count == 1)
        #expect(harness.notifier.requests.first?.body.contains("\nLate: reminderd was not running at 12:06") == true)
        #expect(harness.history(item).filter { $0 == "fired" }.count == 1)
    }

    /// A coffee rebuy that ran out on 2026-10-31, before the harness's start.
    func addOverdueRebuy(_ harness: EngineHarness) -> String {
        let reply = harness.perform(
            "Add",
            [
                "item": .object([
                    "kind": .string("rebuy"), "title": .string("Coffee"), "everyDays": .integer(30),
                    "lastPurchased": .string("2026-10-01"),
                ])
            ])
        guard case .success(let added) = reply, case .string(let item)? = added["id"] else {
            Issue.record("add failed: \(reply)")
            return ""
        }
        return item
    }

    @Test func anOverdueRebuyAddedWhileNoServerIsThereIsShownWhenOneAppears() throws {
        let harness = try EngineHarness(notifier: RecordingNotifier(capabilities: nil))
        let item = addOverdueRebuy(harness)
        harness.advance(to: 1)
        #expect(harness.notifier.requests.isEmpty)
        harness.clock.set(EngineHarness.start + 600)
        harness.notifier.appear()
        harness.settle()
        #expect(harness.notifier.requests.count == 1)
        #expect(harness.history(item).filter { $0 == "fired" }.count == 1)
        // Its Done button means "rebought today": taken although the run-out date has passed.
        harness.notifier.press("done", on: try #require(harness.notifier.acceptedIds.first))
        harness.settle()
        #expect(harness.history(item).last == "done")
        #expect(harness.notifier.requests.last?.actions.map(\.key) == ["undo"])
    }

    /// Issue 19, defect 9: an overdue rebuy waiting for a server, then Done and Undo: the Undo
    /// plans its reminder again, and both were shown when a server came ("fired" and "reshown").
    @Test func anOverdueRebuyWaitingThroughDoneAndUndoIsShownOnceWhenAServerComes() throws {
        let harness = try EngineHarness(notifier: RecordingNotifier(capabilities: nil))
        let item = addOverdueRebuy(harness)
        harness.advance(to: 1)
        guard case .success = harness.perform("Done", ["id": .string(item)]),
            case .success = harness.perform("Undo", ["id": .string(item)])
        else {
            Issue.record("Done or Undo refused")
            return
        }
        harness.advance(to: 2)
        harness.clock.set(EngineHarness.start + 600)
        harness.notifier.appear()
        harness.settle()
        #expect(harness.notifier.requests.count == 1)
        #expect(harness.history(item).filter { $0 == "fired" || $0 == "reshown" } == ["fired"])
    }

    @Test func doneFromTheButtonMarksItDoneAndOffersUndo() throws {
        let harness = try EngineHarness()
        let item = dueInTwoHours(harness)
        harness.advance(to: 3600)
        let popUp = try #require(harness.notifier.acceptedIds.first)
        harness.notifier.press("done", on: popUp)
        harness.settle()
        #expect(harness.history(item).last == "done")
        let confirmation = try #require(harness.notifier.requests.last)
        #expect(confirmation.summary == "Done")
        #expect(confirmation.actions.map(\.key) == ["undo"])
        harness.notifier.press("undo", on: try #require(harness.notifier.acceptedIds.last))
        harness.settle()
        #expect(harness.history(item).last == "undone")
    }

    @Test func doneOnAPopUpWhoseOccurrencePassedIsRefusedAndNotConfirmed() throws {
        let harness = try EngineHarness()
        let item = dueInTwoHours(harness)
        harness.advance(to: 3600)
        let popUp = try #require(harness.notifier.acceptedIds.first)
        harness.clock.set(EngineHarness.start + 2 * 3600 + 30)  // pressed just after the due time
        harness.notifier.press("done", on: popUp)
        harness.settle()
        #expect(!harness.history(item).contains("done"))
        #expect(!harness.notifier.requests.contains { $0.summary == "Done" })
        let refusal = try #require(harness.notifier.requests.last)
        #expect(refusal.summary == "Not done")
        #expect(refusal.body.contains("has passed"))
    }

    @Test func doneFromTheCommandLineClosesThePopUpAndALatePressIsIgnored() throws {
        let harness = try EngineHarness()
        let item = dueInTwoHours(harness)
        harness.advance(to: 3600)
        let popUp = try #require(harness.notifier.acceptedIds.first)
        guard case .success = harness.perform("Done", ["id": .string(item)]) else {
            Issue.record("Done failed")
            return
        }
        #expect(harness.notifier.closed == [popUp])
        harness.notifier.press("done", on: popUp)
        harness.settle()
        #expect(harness.notifier.requests.count == 1)
        #expect(harness.history(item).filter { $0 == "done" }.count == 1)
    }

    @Test func theSnoozeButtonSnoozesAndTheReminderComesBack() throws {
        let harness = try EngineHarness()
        let item = harness.addCoupon(expiresIn: 24 * 3600, leads: ["3h"])  // reminder at +21 h
        harness.advance(to: 21 * 3600)
        let popUp = try #require(harness.notifier.acceptedIds.first)
        let snooze = try #require(harness.notifier.requests.first?.actions.map(\.key).first { $0.hasPrefix("snooze-") })
        #expect(snooze == "snooze-1h")
        harness.notifier.press(snooze, on: popUp)
        harness.settle()
        #expect(harness.history(item).last == "snoozed")
        harness.advance(to: 22 * 3600 - 1)
        #expect(harness.notifier.requests.count == 1)
        harness.advance(to: 22 * 3600)
        #expect(harness.notifier.requests.count == 2)
    }

    @Test func aSnoozePressedAfterTheDueTimeIsRefusedAndSaysSo() throws {
        let harness = try EngineHarness()
        let item = harness.addCoupon(expiresIn: 24 * 3600, leads: ["3h"])
        harness.advance(to: 21 * 3600)
        let popUp = try #require(harness.notifier.acceptedIds.first)
        harness.clock.set(EngineHarness.start + 24 * 3600 + 30)
        harness.notifier.press("snooze-1h", on: popUp)
        harness.settle()
        #expect(!harness.history(item).contains("snoozed"))
        #expect(harness.notifier.requests.last?.summary == "Not snoozed")
    }

    @Test func aPopUpOpenWhenTheServerVanishedIsShownOnceOnTheNextOne() throws {
        let harness = try EngineHarness()
        let item = dueInTwoHours(harness)
        harness.advance(to: 3600)
        harness.notifier.vanish()
        harness.settle()
        harness.notifier.appear()
        harness.settle()
        #expect(harness.notifier.requests.count == 2)
        #expect(harness.notifier.requests[1].summary == harness.notifier.requests[0].summary)
        harness.emit(.serverAppeared)  // a second announcement of the same server adds nothing
        harness.advance(to: 3700)
        #expect(harness.notifier.requests.count == 2)
        #expect(harness.history(item).filter { $0 == "fired" || $0 == "reshown" } == ["fired", "reshown"])
    }

    @Test func aRefusedPopUpIsRetriedWithBackOffOnTheEnginesClock() throws {
        let harness = try EngineHarness()
        let item = dueInTwoHours(harness)
        harness.notifier.answer = .fail(.refused(reason: "too many pop-ups"))
        harness.advance(to: 3600)
        #expect(harness.notifier.requests.count == 1)
        #expect(harness.status("waiting") == .integer(1))
        harness.advance(to: 3609)
        #expect(harness.notifier.requests.count == 1)
        harness.advance(to: 3610)  // first retry after 10 s
        #expect(harness.notifier.requests.count == 2)
        harness.advance(to: 3629)
        #expect(harness.notifier.requests.count == 2)
        harness.advance(to: 3630)  // then after 20 s
        #expect(harness.notifier.requests.count == 3)
        harness.notifier.answer = .accept
        harness.advance(to: 3669)
        #expect(harness.notifier.requests.count == 3)
        harness.advance(to: 3670)  // then after 40 s, accepted
        #expect(harness.notifier.requests.count == 4)
        #expect(harness.history(item).filter { $0 == "fired" }.count == 1)
        #expect(harness.status("waiting") == .integer(0))
    }

    @Test func aStalledNotifyIsNeverSentAgainAndCountsWhenItsAnswerComes() throws {
        let harness = try EngineHarness()
        let item = dueInTwoHours(harness)
        harness.notifier.answer = .stall
        harness.advance(to: 3600)
        #expect(harness.notifier.stalled == 1)
        for later in [3630, 3700, 4000, 5000] as [Int64] { harness.advance(to: later) }
        #expect(harness.notifier.requests.count == 1)
        harness.notifier.completeStalled(.accept)
        harness.settle()
        #expect(harness.history(item).filter { $0 == "fired" }.count == 1)
        #expect(harness.notifier.requests.count == 1)
    }

    @Test func aNotifyWithoutAnswerIsShownAgainOnlyOnTheNextServer() throws {
        let harness = try EngineHarness()
        let item = dueInTwoHours(harness)
        harness.notifier.answer = .stall
        harness.advance(to: 3600)
        harness.notifier.answer = .accept
        harness.notifier.completeStalled(.fail(.timedOut(reason: "Timeout was reached")))
        harness.settle()
        for later in [3630, 3700, 4000, 5000] as [Int64] { harness.advance(to: later) }
        #expect(harness.notifier.requests.count == 1)  // it may be on this server's screen
        harness.notifier.vanish()
        harness.settle()
        harness.notifier.appear()
        harness.settle()
        #expect(harness.notifier.requests.count == 2)
        #expect(harness.history(item).filter { $0 == "fired" }.count == 1)
    }

    @Test func thePopUpOfAnOccurrenceThatPassedIsClosed() throws {
        let harness = try EngineHarness()
        let item = dueInTwoHours(harness)
        harness.advance(to: 3600)
        let popUp = try #require(harness.notifier.acceptedIds.first)
        #expect(harness.notifier.closed.isEmpty)
        harness.advance(to: 2 * 3600)
        #expect(harness.notifier.closed == [popUp])
        #expect(harness.history(item).last == "expired")
    }

    @Test func thePopUpOfAnOccurrenceMissedDuringASleepIsClosed() throws {
        let harness = try EngineHarness()
        let item = harness.addCoupon(expiresIn: 2 * 3600, leads: ["1h", "30m"])
        harness.advance(to: 3600)
        let popUp = try #require(harness.notifier.acceptedIds.first)
        harness.advance(to: 3 * 3600)  // asleep through the 30m reminder and the due time
        #expect(harness.notifier.closed == [popUp])
        #expect(harness.notifier.requests.last?.summary == "While You Were Away")
        #expect(harness.history(item).last == "missed")
    }

    @Test func aReminderWaitsUntilTheServersCapabilitiesAreKnown() throws {
        let harness = try EngineHarness(notifier: RecordingNotifier(capabilities: nil))
        _ = dueInTwoHours(harness)
        harness.advance(to: 3600)
        #expect(harness.notifier.requests.isEmpty)
        #expect(harness.status("waiting") == .integer(1))
        harness.notifier.appear(capabilities: ["actions", "body"])
        harness.settle()
        #expect(harness.notifier.requests.count == 1)
        #expect(harness.notifier.requests.first?.actions.map(\.key).contains("done") == true)
    }

    @Test func theMissedRemindersPopUpAtStartWaitsForTheServer() throws {
        let harness = try EngineHarness()
        _ = dueInTwoHours(harness)
        harness.clock.set(EngineHarness.start + 3 * 3600)  // away past the reminder and the due time
        try harness.restart(notifier: RecordingNotifier(capabilities: nil))
        harness.advance(to: 3 * 3600)
        #expect(harness.notifier.requests.isEmpty)
        harness.notifier.appear()
        harness.settle()
        #expect(harness.notifier.requests.map(\.summary) == ["While You Were Away"])
    }

    @Test func aReminderInFlightWhenTheDaemonDiedIsShownOnceAfterTheRestart() throws {
        let harness = try EngineHarness()
        let item = dueInTwoHours(harness)
        harness.notifier.answer = .stall
        harness.advance(to: 3600)
        #expect(harness.notifier.stalled == 1)
        harness.clock.set(EngineHarness.start + 3660)  // killed; back a minute later
        try harness.restart()
        harness.advance(to: 3660)
        #expect(harness.notifier.requests.count == 1)
        #expect(
            harness.notifier.requests.first?.body.contains(
                "\nLate: reminderd stopped before the notification server confirmed its 12:06 pop-up") == true)
        #expect(harness.history(item).filter { $0 == "fired" }.count == 1)
        try harness.restart()
        harness.advance(to: 3700)
        #expect(harness.notifier.requests.isEmpty)
    }

    @Test func aReminderInFlightWhenTheDaemonDiedIsReportedMissedOnceItsOccurrencePassed() throws {
        let harness = try EngineHarness()
        let item = dueInTwoHours(harness)
        harness.notifier.answer = .stall
        harness.advance(to: 3600)
        harness.clock.set(EngineHarness.start + 3 * 3600)  // back only after the due time
        try harness.restart()
        harness.advance(to: 3 * 3600)
        #expect(harness.notifier.requests.map(\.summary) == ["While You Were Away"])
        #expect(harness.history(item).filter { $0 == "missed" }.count == 1)
        try harness.restart()
        harness.advance(to: 3 * 3600 + 60)
        #expect(harness.notifier.requests.isEmpty)
    }

    @Test func aPopUpWhoseAnswerComesAfterItsOccurrenceWasDoneIsClosed() throws {
        let harness = try EngineHarness()
        let item = dueInTwoHours(harness)
        harness.notifier.answer = .stall
        harness.advance(to: 3600)
        guard case .success = harness.perform("Done", ["id": .string(item)]) else {
            Issue.record("done failed")
            return
        }
        harness.notifier.completeStalled(.accept)  // shown after all, for an occurrence now done
        harness.settle()
        let popUp = try #require(harness.notifier.acceptedIds.first)
        #expect(harness.notifier.closed == [popUp])
        #expect(harness.history(item).filter { $0 == "fired" }.count == 1)
    }

    @Test func aPopUpWhoseAnswerComesAfterItsOccurrencePassedIsClosed() throws {
        let harness = try EngineHarness()
        let item = dueInTwoHours(harness)
        harness.notifier.answer = .stall
        harness.advance(to: 3600)
        harness.advance(to: 2 * 3600)  // passes while the server has not answered
        harness.notifier.completeStalled(.accept)
        harness.settle()
        let popUp = try #require(harness.notifier.acceptedIds.first)
        #expect(harness.notifier.closed == [popUp])
        #expect(harness.history(item).contains("expired"))
    }

    @Test func aLateReminderPlannedAtStartIsNotLostWhenTheDaemonIsStoppedBeforeSendingIt() throws {
        let harness = try EngineHarness()
        let item = dueInTwoHours(harness)
        harness.clock.set(EngineHarness.start + 3700)  // its reminder came due while the daemon was away
        try harness.restart()  // plans it as late; SIGTERM comes before the timer ran it
        try harness.engine.queue.sync { try harness.engine.recordLastSeen(harness.clock.now) }  // as `stop` does
        #expect(harness.notifier.requests.isEmpty)
        try harness.restart()
        harness.advance(to: 3701)
        #expect(harness.notifier.requests.count == 1)
        #expect(harness.history(item).filter { $0 == "fired" }.count == 1)
    }

    @Test func aDigestShownIsNotShownAgainAfterARestart() throws {
        let harness = try EngineHarness()
        _ = harness.perform("Pause")
        // Due in three days, reminded a day from now: not urgent, so held.
        for title in ["One", "Two"] { _ = harness.addCoupon(expiresIn: 3 * 86_400, leads: ["48h"], title: title) }
        harness.advance(to: 86_400)
        #expect(harness.notifier.requests.isEmpty)
        _ = harness.perform("Resume")
        harness.settle()
        #expect(harness.notifier.requests.map(\.body) == ["2 reminders held by your pause since 11:06: One, Two"])
        try harness.restart()  // the digest's deliveries were settled with it
        harness.advance(to: 86_400 + 60)
        #expect(harness.notifier.requests.isEmpty)
    }

    @Test func aDigestShownButNotRecordedIsNotShownAgainWhileTheDaemonRuns() throws {
        let harness = try EngineHarness()
        harness.notifier.answer = .fail(.inhibited(reason: "the notification server is inhibited"))
        var ids: [String] = []
        for title in ["Coffee", "Tea"] {
            // Ran out before it was added: reminds once, now (held by the desktop's do-not-disturb).
            let reply = harness.perform(
                "Add",
                [
                    "item": .object([
                        "kind": .string("rebuy"), "title": .string(title), "everyDays": .integer(30),
                        "lastPurchased": .string("2026-10-01"),
                    ])
                ])
            guard case .success(let added) = reply, case .string(let id)? = added["id"] else {
                Issue.record("add failed: \(reply)")
                return
            }
            ids.append(id)
        }
        harness.advance(to: 0)
        #expect(ids.map { harness.history($0).last } == ["held", "held"])
        // The digest is shown, but recording it fails half-way (the second reminder's fire).
        try StoreFaults.failWrites(
            .fire(itemId: ids[1]), storeAt: harness.directory.appendingPathComponent("store.sqlite").path)
        harness.notifier.answer = .accept
        harness.emit(.doNotDisturbChanged)
        harness.settle()
        harness.settle()
        #expect(harness.notifier.requests.last?.body.hasPrefix("2 reminders held by Do Not Disturb since 11:06: ") == true)
        // Not recorded: the one transaction of both fires and history lines was refused.
        #expect(ids.map { harness.history($0).last } == ["held", "held"])
        let asked = harness.notifier.requests.count
        // Rescheduling either reminder must not find it unshown: both are on screen in the digest.
        for id in ids {
            _ = harness.perform("Edit", ["id": .string(id), "changes": .object(["category": .string("food")])])
        }
        harness.advance(to: 60)
        #expect(harness.notifier.requests.count == asked)
    }

    @Test func aPauseGivenWhileTheDesktopsDoNotDisturbIsBeingCheckedStays() throws {
        let harness = try EngineHarness()
        harness.notifier.answer = .fail(.inhibited(reason: "the notification server is inhibited"))
        let item = harness.addCoupon(expiresIn: 3 * 86_400, leads: ["48h"])
        harness.advance(to: 86_400)
        #expect(harness.history(item).last == "held")
        harness.notifier.answer = .accept
        harness.notifier.holdDoNotDisturb = true
        harness.emit(.doNotDisturbChanged)  // the desktop's do-not-disturb ended; asked whether it did
        _ = harness.perform("Pause")  // meanwhile the user pauses reminderd
        harness.notifier.completeDoNotDisturb(nil)
        harness.settle()
        #expect(harness.status("paused") == .string("until resumed"))
        #expect(harness.notifier.requests.count == 1)  // only the refused one: still held
    }

    @Test func aDigestTheServerRefusesIsTriedAgain() throws {
        let harness = try EngineHarness()
        _ = harness.perform("Pause")
        let items = ["One", "Two"].map { harness.addCoupon(expiresIn: 3 * 86_400, leads: ["48h"], title: $0) }
        harness.advance(to: 86_400)
        harness.notifier.answer = .fail(.refused(reason: "busy"))
        _ = harness.perform("Resume")
        harness.settle()
        harness.notifier.answer = .accept
        harness.advance(to: 86_400 + 60)  // past the first retry's 10 s
        for id in items { #expect(harness.history(id).contains("fired")) }
        #expect(harness.status("waiting") == .integer(0))
    }

    @Test func aReminderShownInADigestIsInHistoryAsFired() throws {
        let harness = try EngineHarness()
        _ = harness.perform("Pause")
        let items = ["One", "Two"].map { harness.addCoupon(expiresIn: 3 * 86_400, leads: ["48h"], title: $0) }
        harness.advance(to: 86_400)
        _ = harness.perform("Resume")
        harness.settle()
        for id in items { #expect(harness.history(id) == ["added", "held", "fired"]) }
    }
}
