import ReminderJSON
import ReminderProtocol
import Testing

@testable import ReminderDaemon

/// reminderd-sync's wake-ups (issue 14): `SyncWait` parked until local changes settle (2 s after
/// the latest), `SyncNow` answered by the next `SyncReport` or failing in words, a closed
/// connection forgetting its calls, and fires held ≤ 2 s for a refresh.
@Suite struct EngineSyncLinkTests {
    /// A harness whose item `Deal` fires at `fireAt` (a day later), with the change its adding
    /// made already told, and `waiter` parked on `SyncWait`.
    func linkedHarness() throws -> (EngineHarness, item: String, waiter: ParkingCaller) {
        let harness = try EngineHarness()
        let item = harness.addCoupon(expiresIn: 2 * 86_400, leads: ["1d"])
        harness.advance(to: 10)
        #expect(harness.perform("SyncWait", from: ParkingCaller()) == waitReply(.changed))
        let waiter = ParkingCaller()
        #expect(harness.perform("SyncWait", from: waiter) == nil)
        return (harness, item, waiter)
    }

    static let fireAt: Int64 = 86_400

    @Test func aParkedWaitIsAnsweredTwoSecondsAfterAChangeAndNotBefore() throws {
        let harness = try EngineHarness()
        let waiter = ParkingCaller()
        #expect(harness.perform("SyncWait", from: waiter) == nil)
        #expect(harness.engine.queue.sync { harness.engine.sync.connected })
        _ = harness.addCoupon(expiresIn: 30 * 86_400, leads: ["1d"])
        harness.advance(to: 1)
        #expect(waiter.answers.isEmpty)
        harness.advance(to: 2)
        #expect(waiter.answers == [waitReply(.changed)])
        #expect(!harness.engine.queue.sync { harness.engine.sync.connected })
    }

    @Test func theWaitIsAnsweredAfterTheLatestChangeOnce() throws {
        let harness = try EngineHarness()
        let waiter = ParkingCaller()
        _ = harness.perform("SyncWait", from: waiter)
        let item = harness.addCoupon(expiresIn: 30 * 86_400, leads: ["1d"])
        harness.clock.set(EngineHarness.start + 1)
        _ = harness.perform("Edit", ["id": .string(item), "changes": .object(["title": .string("Better deal")])])
        harness.advance(to: 2)
        #expect(waiter.answers.isEmpty)
        harness.advance(to: 3)
        #expect(waiter.answers == [waitReply(.changed)])
        let next = ParkingCaller()
        #expect(harness.perform("SyncWait", from: next) == nil)  // told once
        harness.advance(to: 60)
        #expect(next.answers.isEmpty)
    }

    @Test func aChangeWithNoWaiterIsRememberedAndAnswersTheNextWaitAtOnce() throws {
        let harness = try EngineHarness()
        _ = harness.addCoupon(expiresIn: 30 * 86_400, leads: ["1d"])
        // No reminderd-sync: the change is remembered without a timer for it.
        #expect(harness.engine.queue.sync { harness.engine.sync.link.nextDeadline } == nil)
        harness.advance(to: 30)
        #expect(harness.perform("SyncWait", from: ParkingCaller()) == waitReply(.changed))
    }

    @Test func aWaitComingDuringTheSettlingTimeWaitsForItsEnd() throws {
        let harness = try EngineHarness()
        _ = harness.addCoupon(expiresIn: 30 * 86_400, leads: ["1d"])
        harness.advance(to: 1)
        let waiter = ParkingCaller()
        #expect(harness.perform("SyncWait", from: waiter) == nil)
        #expect(harness.engine.queue.sync { harness.engine.sync.link.nextDeadline } == EngineHarness.start + 2)
        harness.advance(to: 2)
        #expect(waiter.answers == [waitReply(.changed)])
    }

    @Test func aClockSetBackDoesNotHoldAChangeOrASyncNowLonger() throws {
        let harness = try EngineHarness()
        let waiter = ParkingCaller()
        _ = harness.perform("SyncWait", from: waiter)
        harness.clock.set(EngineHarness.start + 3600)
        _ = harness.addCoupon(expiresIn: 30 * 86_400, leads: ["1d"])
        harness.advance(to: 0)  // the clock is set back an hour
        harness.advance(to: 2)
        #expect(waiter.answers == [waitReply(.changed)])
        _ = harness.perform("SyncWait", from: ParkingCaller())
        harness.clock.set(EngineHarness.start + 3600)
        let asker = ParkingCaller()
        _ = harness.perform("SyncNow", from: asker)
        harness.advance(to: 0)
        harness.advance(to: 120)
        #expect(asker.answers == [syncFailed("reminderd-sync did not finish a pass within 2 minutes")])
    }

    @Test func aParkedWaitWithNothingChangingArmsNoTimer() throws {
        let harness = try EngineHarness()
        _ = harness.perform("SyncWait", from: ParkingCaller())
        #expect(harness.engine.queue.sync { harness.engine.sync.link.nextDeadline } == nil)
    }

    @Test func syncMethodsPausesAndFailedCommandsAreNoLocalChange() throws {
        let harness = try EngineHarness()
        let waiter = ParkingCaller()
        _ = harness.perform("SyncWait", from: waiter)
        harness.report(error: nil)
        _ = harness.perform("Pause", ["duration": .string("1h")])
        _ = harness.perform("Done", ["id": .string("nope")])
        harness.advance(to: 60)
        #expect(waiter.answers.isEmpty)
    }

    @Test func aDoneButtonAndADismissAreLocalChanges() throws {
        let harness = try EngineHarness()
        let one = harness.addCoupon(expiresIn: 2 * 86_400, leads: ["1d"])
        let other = harness.addCoupon(expiresIn: 2 * 86_400, leads: ["1d"], title: "Other")
        harness.advance(to: 10)
        _ = harness.perform("SyncWait", from: ParkingCaller())  // the adds, told
        harness.advance(to: EngineSyncLinkTests.fireAt)  // no waiter: shown at once
        let ids = harness.notifier.acceptedIds
        #expect(ids.count == 2)
        let first = ParkingCaller()
        _ = harness.perform("SyncWait", from: first)
        harness.notifier.press("done", on: ids[0])
        harness.settle()
        harness.advance(to: EngineSyncLinkTests.fireAt + 2)
        #expect(first.answers == [waitReply(.changed)])
        let second = ParkingCaller()
        _ = harness.perform("SyncWait", from: second)
        harness.emit(.closed(id: ids[1], reason: 2))
        #expect([harness.history(one), harness.history(other)].contains { $0.last == "dismissed" })
        harness.advance(to: EngineSyncLinkTests.fireAt + 4)
        #expect(second.answers == [waitReply(.changed)])
    }

    @Test func snoozeAndUndoButtonsAreLocalChanges() throws {
        let harness = try EngineHarness()
        _ = harness.addCoupon(expiresIn: 2 * 86_400, leads: ["1d"])
        harness.advance(to: 10)
        _ = harness.perform("SyncWait", from: ParkingCaller())  // the add, told
        harness.advance(to: EngineSyncLinkTests.fireAt)
        let popUp = try #require(harness.notifier.acceptedIds.first)
        let first = ParkingCaller()
        _ = harness.perform("SyncWait", from: first)
        harness.notifier.press("snooze-1h", on: popUp)
        harness.settle()
        harness.advance(to: EngineSyncLinkTests.fireAt + 2)
        #expect(first.answers == [waitReply(.changed)])
        harness.advance(to: EngineSyncLinkTests.fireAt + 3600)  // shown again after the snooze
        let again = try #require(harness.notifier.acceptedIds.last)
        harness.notifier.press("done", on: again)
        harness.settle()
        let undoOffer = try #require(harness.notifier.acceptedIds.last)
        #expect(undoOffer != again)
        harness.advance(to: EngineSyncLinkTests.fireAt + 3610)
        let second = ParkingCaller()
        #expect(harness.perform("SyncWait", from: second) == waitReply(.changed))  // the Done, settled
        let third = ParkingCaller()
        _ = harness.perform("SyncWait", from: third)
        harness.notifier.press("undo", on: undoOffer)
        harness.settle()
        harness.advance(to: EngineSyncLinkTests.fireAt + 3612)
        #expect(third.answers == [waitReply(.changed)])
    }

    /// A change made while reminderd-sync was stopped is pushed by its pass at start, which no
    /// waiter was told of: it then has nothing more to hear. It was told "changed" all the same,
    /// and ran a second pass at once with nothing to push.
    @Test func aChangePushedByAPassAtStartIsNotToldAgain() throws {
        let harness = try EngineHarness()
        _ = harness.addCoupon(expiresIn: 30 * 86_400, leads: ["1d"])
        harness.advance(to: 10)
        harness.begin(from: ParkingCaller())
        let change = try #require(harness.pending.first)
        ok(harness.engine, "SyncPushed", [
            "uid": .string(change.uid), "seq": .integer(change.seq), "href": .string(change.href),
            "etag": .string("\"e1\""), "body": .string(change.body ?? ""),
        ])
        #expect(harness.pending.isEmpty)
        harness.report(error: nil)
        let waiter = ParkingCaller()
        #expect(harness.perform("SyncWait", from: waiter) == nil)
        harness.advance(to: 60)
        #expect(waiter.answers.isEmpty)
    }

    @Test func syncNowWithoutAWaiterFailsInWords() throws {
        let harness = try EngineHarness()
        #expect(
            harness.perform("SyncNow", from: ParkingCaller())
                == syncFailed("reminderd-sync is not running (start it: systemctl --user enable --now reminderd-sync)"))
    }

    @Test func syncNowIsAnsweredByTheNextReport() throws {
        let harness = try EngineHarness()
        let waiter = ParkingCaller()
        _ = harness.perform("SyncWait", from: waiter)
        let asker = ParkingCaller()
        #expect(harness.perform("SyncNow", from: asker) == nil)
        #expect(waiter.answers == [waitReply(.now)])
        #expect(asker.answers.isEmpty)
        harness.report(error: nil)
        #expect(asker.answers == [.success([:])])
    }

    @Test func syncNowFailsWithTheReportsWords() throws {
        let harness = try EngineHarness()
        _ = harness.perform("SyncWait", from: ParkingCaller())
        let asker = ParkingCaller()
        _ = harness.perform("SyncNow", from: asker)
        harness.report(error: "PROPFIND https://dav.example/alice/: 401 Unauthorized")
        #expect(asker.answers == [syncFailed("PROPFIND https://dav.example/alice/: 401 Unauthorized")])
    }

    @Test func syncNowDuringAPassWaitsForTheNextPassNotThisOne() throws {
        let harness = try EngineHarness()
        _ = harness.addCoupon(expiresIn: 30 * 86_400, leads: ["1d"])
        harness.advance(to: 10)
        #expect(harness.perform("SyncWait", from: ParkingCaller()) == waitReply(.changed))  // a pass begins
        let asker = ParkingCaller()
        #expect(harness.perform("SyncNow", from: asker) == nil)
        harness.report(error: nil)  // the pass that began before SyncNow
        #expect(asker.answers.isEmpty)
        #expect(harness.perform("SyncWait", from: ParkingCaller()) == waitReply(.now))
        harness.report(error: nil)
        #expect(asker.answers == [.success([:])])
    }

    @Test func syncNowTimesOutAfterTwoMinutes() throws {
        let harness = try EngineHarness()
        _ = harness.perform("SyncWait", from: ParkingCaller())
        let asker = ParkingCaller()
        _ = harness.perform("SyncNow", from: asker)
        harness.advance(to: 119)
        #expect(asker.answers.isEmpty)
        harness.advance(to: 120)
        #expect(asker.answers == [syncFailed("reminderd-sync did not finish a pass within 2 minutes")])
        harness.report(error: nil)  // too late: nothing left to answer
        #expect(asker.answers.count == 1)
    }

    @Test func aClosedConnectionDropsItsParkedCalls() throws {
        let harness = try EngineHarness()
        let waiter = ParkingCaller()
        _ = harness.perform("SyncWait", from: waiter)
        harness.close(waiter)
        #expect(!harness.engine.queue.sync { harness.engine.sync.connected })
        #expect(harness.engine.queue.sync { harness.engine.sync.link.waiters.isEmpty })
        _ = harness.addCoupon(expiresIn: 30 * 86_400, leads: ["1d"])
        harness.advance(to: 5)
        #expect(waiter.answers.isEmpty)
        #expect(
            harness.perform("SyncNow", from: ParkingCaller())
                == syncFailed("reminderd-sync is not running (start it: systemctl --user enable --now reminderd-sync)"))
        // A SyncNow whose client went: forgotten too, nothing answered when the pass ends.
        let waiter2 = ParkingCaller()
        let asker = ParkingCaller()
        _ = harness.perform("SyncWait", from: waiter2)
        _ = harness.perform("SyncNow", from: asker)
        harness.close(asker)
        #expect(harness.engine.queue.sync { harness.engine.sync.link.nowCalls.isEmpty })
        harness.report(error: nil)
        #expect(asker.answers.isEmpty)
    }

    @Test func aRefreshHoldsAFireAtMostTwoSecondsThenShowsIt() throws {
        let (harness, item, waiter) = try linkedHarness()
        harness.advance(to: EngineSyncLinkTests.fireAt)
        let uids = harness.engine.queue.sync { harness.engine.sync.uids(of: [item]) }
        #expect(uids.count == 1 && uids[0].hasSuffix("@reminderd"))
        #expect(waiter.answers == [waitReply(.refresh, uids)])
        #expect(harness.notifier.requests.isEmpty)
        harness.advance(to: EngineSyncLinkTests.fireAt + 1)
        #expect(harness.notifier.requests.isEmpty)
        harness.advance(to: EngineSyncLinkTests.fireAt + 2)
        #expect(harness.notifier.requests.count == 1)
        #expect(harness.history(item).last == "fired")
    }

    @Test func aReportEndsTheRefreshAtOnce() throws {
        let (harness, _, _) = try linkedHarness()
        harness.advance(to: EngineSyncLinkTests.fireAt)
        #expect(harness.notifier.requests.isEmpty)
        harness.report(error: nil)
        #expect(harness.notifier.requests.count == 1)
    }

    @Test func aDoneDuringTheRefreshSuppressesThePopUp() throws {
        let (harness, item, _) = try linkedHarness()
        harness.advance(to: EngineSyncLinkTests.fireAt)
        ok(harness.engine, "Done", ["id": .string(item)])
        harness.advance(to: EngineSyncLinkTests.fireAt + 2)
        #expect(harness.notifier.requests.isEmpty)
        #expect(!harness.history(item).contains("fired"))
    }

    @Test func anOccurrenceDoneOnAnotherDeviceIsNotShownAfterTheRefreshsPull() throws {
        let devices = try TwoDevices()
        let (server, phone, laptop) = (devices.server, devices.a, devices.b)
        let item = devices.shared { $0.addCoupon(expiresIn: 2 * 86_400, leads: ["1d"]) }
        let waiter = ParkingCaller()
        #expect(laptop.perform("SyncWait", from: waiter) == nil)
        phone.clock.set(EngineHarness.start + EngineSyncLinkTests.fireAt - 60)
        ok(phone.engine, "Done", ["id": .string(item)])
        server.sync(phone.engine)
        laptop.advance(to: EngineSyncLinkTests.fireAt)
        let uids = laptop.engine.queue.sync { laptop.engine.sync.uids(of: [item]) }
        #expect(waiter.answers == [waitReply(.refresh, uids)])
        server.pull(laptop.engine, Array(server.resources.keys))  // what reminderd-sync does on "refresh"
        laptop.settle()
        #expect(laptop.notifier.requests.isEmpty)
        #expect(laptop.history(item).suffix(1) == ["done elsewhere"])
        #expect(!laptop.history(item).contains("fired"))
    }

    @Test func aPullThatChangesNothingShowsTheHeldFireAtOnce() throws {
        let (harness, _, _) = try linkedHarness()
        harness.advance(to: EngineSyncLinkTests.fireAt)
        ok(harness.engine, "SyncPulled", ["resources": .array([]), "removed": .array([])])
        #expect(harness.notifier.requests.count == 1)
    }

    @Test func aHeldFireKeepsLastSeenBeforeIt() throws {
        let (harness, _, _) = try linkedHarness()
        harness.advance(to: EngineSyncLinkTests.fireAt)
        let lastSeen = try harness.engine.queue.sync { try harness.engine.store.lastSeen() }
        // Not moved on to now: a restart before the fire is shown shows it, late.
        #expect(try #require(lastSeen) < EngineHarness.start + EngineSyncLinkTests.fireAt)
    }

    @Test func withoutAWaiterNothingIsDelayed() throws {
        let harness = try EngineHarness()
        _ = harness.addCoupon(expiresIn: 2 * 86_400, leads: ["1d"])
        harness.advance(to: EngineSyncLinkTests.fireAt)
        #expect(harness.notifier.requests.count == 1)
    }
}
