import ReminderCore
import ReminderProtocol
import Testing

@testable import ReminderDaemon

/// What a pass of reminderd-sync (`SyncBegin` … `SyncReport` on its connection for calls) means
/// to `SyncNow` and `SyncStatus.connected`: a `sync now` is answered by a pass that began after
/// it, never by one already under way (seen: `sync now` said 0 while the server refused every
/// request), and a reminderd-sync in a pass is running.
@Suite struct EngineSyncPassTests {
    static let unauthorized = "PROPFIND https://dav.example/alice/: 401 Unauthorized"

    /// reminderd-sync in its pass at start (or a scheduled one): its `SyncWait` stays parked
    /// meanwhile; `link` is its connection for the pass's calls.
    func midPass() throws -> (EngineHarness, waiter: ParkingCaller, link: ParkingCaller) {
        let harness = try EngineHarness()
        let waiter = ParkingCaller()
        #expect(harness.perform("SyncWait", from: waiter) == nil)
        let link = ParkingCaller()
        harness.begin(from: link)
        return (harness, waiter, link)
    }

    @Test func syncNowIsNotAnsweredByThePassUnderWayWhenItCame() throws {
        let (harness, waiter, link) = try midPass()
        let asker = ParkingCaller()
        #expect(harness.perform("SyncNow", from: asker) == nil)
        #expect(waiter.answers == [waitReply(.now)])
        harness.report(error: nil)  // the pass that began before SyncNow
        #expect(asker.answers.isEmpty)
        // reminderd-sync reads "now", waits again and runs the pass it was asked for.
        #expect(harness.perform("SyncWait", from: ParkingCaller()) == nil)
        harness.begin(from: link)
        #expect(asker.answers.isEmpty)
        harness.report(error: EngineSyncPassTests.unauthorized)
        #expect(asker.answers == [syncFailed(.verbatim(EngineSyncPassTests.unauthorized))])
    }

    @Test func theAskedPassFailingBeforeSyncBeginAnswersWithItsWords() throws {
        let (harness, _, _) = try midPass()
        let asker = ParkingCaller()
        _ = harness.perform("SyncNow", from: asker)
        harness.report(error: nil)
        #expect(asker.answers.isEmpty)
        // The pass "now" started finds no password: it reports without a SyncBegin.
        #expect(harness.perform("SyncWait", from: ParkingCaller()) == nil)
        harness.report(error: "no password: the password file is empty")
        #expect(asker.answers == [syncFailed(.verbatim("no password: the password file is empty"))])
    }

    @Test func aPassBegunAfterSyncNowAnswersIt() throws {
        let harness = try EngineHarness()
        _ = harness.addCoupon(expiresIn: 30 * 86_400, leads: ["1d"])
        harness.advance(to: 10)
        // Told "changed"; SyncNow comes before reminderd-sync waits again or begins its pass.
        #expect(harness.perform("SyncWait", from: ParkingCaller()) == waitReply(.changed))
        let asker = ParkingCaller()
        #expect(harness.perform("SyncNow", from: asker) == nil)
        harness.begin(from: ParkingCaller())
        harness.report(error: nil)
        #expect(asker.answers == [.success([:])])
    }

    @Test func reminderdSyncIsConnectedDuringAPassUntilItsReportOrItsConnectionCloses() throws {
        let harness = try EngineHarness()
        func connected() -> Bool { harness.engine.queue.sync { harness.engine.sync.connected } }
        let link = ParkingCaller()
        // Its SyncWait was answered and is not parked again yet: the pass alone shows it runs.
        harness.begin(from: link)
        #expect(connected())
        #expect(try #require(reply(harness.engine, "SyncStatus", SyncStatusReply.self)).connected)
        let asker = ParkingCaller()
        #expect(harness.perform("SyncNow", from: asker) == nil)  // kept for the next pass, not refused
        harness.report(error: nil)
        #expect(!connected())
        #expect(harness.perform("SyncWait", from: ParkingCaller()) == waitReply(.now))
        harness.begin(from: link)
        #expect(connected())
        harness.close(link)  // reminderd-sync died mid-pass
        #expect(!connected())
        #expect(asker.answers.isEmpty)
    }
}
