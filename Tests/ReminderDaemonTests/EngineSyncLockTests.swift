import Foundation
import Synchronization
import Testing

@testable import ReminderDaemon
@testable import ReminderStore

/// A local change stored only once another program let go of the store's lock still wakes
/// reminderd-sync on time. A dismiss made meanwhile is a write put aside (`LockedCalls`) that
/// notes the change when it lands; the timer must then be armed for its settling time. It was
/// not: the parked `SyncWait` heard of the dismiss only at the next unrelated wake-up (here the
/// coupon's expiry, a day on).
@Suite struct EngineSyncLockTests {
    @Test func aDismissStoredAfterAnotherProgramsLockWakesAParkedWaitAfterItsSettlingTime() throws {
        let harness = try EngineHarness()
        let item = harness.addCoupon(expiresIn: 2 * 86_400, leads: ["1d"])
        harness.advance(to: 10)
        _ = harness.perform("SyncWait", from: ParkingCaller())  // the add, told
        harness.advance(to: EngineSyncLinkTests.fireAt)  // no waiter: shown at once
        let popUp = try #require(harness.notifier.acceptedIds.first)
        let published = PublishedDeadlines()
        harness.engine.queue.sync { harness.engine.deadlineChanged = { published.append($0) } }
        let waiter = ParkingCaller()
        #expect(harness.perform("SyncWait", from: waiter) == nil)

        // Another program holds the store's write lock while the person closes the pop-up.
        let other = try Database(path: harness.directory.appendingPathComponent("store.sqlite").path, busyTimeout: 0)
        try other.execute(sql: "BEGIN IMMEDIATE")
        harness.emit(.closed(id: popUp, reason: 2))
        #expect(harness.engine.queue.sync { !harness.engine.lockedCalls.waiting.isEmpty }, "the dismiss put aside")
        try other.execute(sql: "ROLLBACK")
        // Tried again every 50 ms: stored at the first try after the lock went.
        let giveUp = Date().addingTimeInterval(10)
        func putAside() -> Bool { harness.engine.queue.sync { !harness.engine.lockedCalls.waiting.isEmpty } }
        while putAside(), Date() < giveUp { usleep(10_000) }
        #expect(harness.history(item).last == "dismissed")

        // The timer wakes at the deadline last published: the dismiss's settling time, 2 s on.
        let deadline = try #require(published.last)
        #expect(deadline <= EngineHarness.start + EngineSyncLinkTests.fireAt + SyncLink.settleSeconds)
        harness.advance(to: deadline - EngineHarness.start)
        #expect(waiter.answers == [waitReply(.changed)])
    }
}

/// The deadlines the engine handed its timer (`ReminderEngine.deadlineChanged`), in order.
final class PublishedDeadlines: Sendable {
    private let values = Mutex<[Int64?]>([])

    func append(_ deadline: Int64?) { values.withLock { $0.append(deadline) } }

    /// The timer's deadline now; nil when none was published or the last one was none.
    var last: Int64? { values.withLock { $0.last ?? nil } }
}
