import Dispatch
import ReminderProtocol
import Testing

@testable import ReminderDaemon

/// `SyncLink` alone, from plain values: its deadlines exist only while there is something to
/// wait for, and its invariant names what is broken.
@Suite struct SyncLinkTests {
    /// The queue parked calls live on (the engine's, in the daemon); each test runs on it.
    let queue = DispatchQueue(label: "test.parked")

    func call() -> ParkedCall { ParkedCall(on: queue) { _ in } }

    @Test func aChangeHasADeadlineOnlyWhileAWaiterCanBeTold() {
        queue.sync {
            var link = SyncLink()
            link.changed(at: 100)
            #expect(link.nextDeadline == nil)
            link.park(call())
            #expect(link.nextDeadline == 102)
            let told = link.due(now: 102).changed
            #expect(told.count == 1)
            #expect(link.nextDeadline == nil)
            #expect(link.checkInvariant() == [])
        }
    }

    @Test func theInvariantNamesAnAnsweredCallKeptAndACallKeptTwice() {
        queue.sync {
            var link = SyncLink()
            let waiter = call()
            link.park(waiter)
            link.park(waiter)
            waiter.answer(.success([:]))
            #expect(
                link.checkInvariant() == [
                    "a parked call is kept after it was answered or dropped",
                    "a parked call is kept after it was answered or dropped",
                    "a parked call is kept twice",
                ])
        }
    }

    @Test func aDroppedCallTellsItsKeeperOnceAndTakesNoAnswer() {
        queue.sync {
            var answers: [VarlinkReply] = []
            var drops = 0
            let waiter = ParkedCall(on: queue) { answers.append($0) }
            waiter.dropped = { drops += 1 }
            waiter.drop()
            waiter.drop()
            waiter.answer(.success([:]))
            #expect(drops == 1)
            #expect(answers.isEmpty)
            #expect(!waiter.isOpen)
        }
    }
}
