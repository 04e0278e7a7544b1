import Dispatch
import Foundation
import Testing

@testable import ReminderStore

/// GroupCommit with a flush the test holds and decides: each flush waits for `release(_:)`,
/// which says whether it worked.
@Suite struct GroupCommitTests {
    final class HeldFlush: @unchecked Sendable {  // `outcomes` and `kinds` behind `lock`
        private let lock = NSLock()
        private let started = DispatchSemaphore(value: 0)
        private let gate = DispatchSemaphore(value: 0)
        private var outcomes: [String?] = []
        private var kinds: [Bool] = []

        /// For each flush so far, whether it was asked for after a failed one.
        var afterFailure: [Bool] { lock.withLock { kinds } }

        func flush(_ afterFailure: Bool) -> String? {
            lock.withLock { kinds.append(afterFailure) }
            started.signal()
            gate.wait()
            return lock.withLock { outcomes.removeFirst() }
        }

        func waitForStart() { started.wait() }

        /// Lets the flush under way finish: nil = worked, else the failure's reason.
        func release(_ failure: String?) {
            lock.withLock { outcomes.append(failure) }
            gate.signal()
        }
    }

    /// What the waiters were told, in order.
    final class Outcomes: @unchecked Sendable {  // `values` behind `lock`
        private let lock = NSLock()
        private var values: [(String, Durability)] = []
        func record(_ name: String, _ durability: Durability) { lock.withLock { values.append((name, durability)) } }
        var all: [(String, Durability)] { lock.withLock { values } }
        func waitFor(count: Int) {
            for _ in 0..<2000 where lock.withLock({ values.count }) < count { usleep(1000) }
        }
    }

    let queue = DispatchQueue(label: "test.group-commit")
    let held = HeldFlush()
    let outcomes = Outcomes()

    func make() -> GroupCommit {
        let held = self.held
        return GroupCommit(queue: queue) { held.flush($0) }
    }

    /// Registers a waiter for the commits made so far, as a reply made now does.
    func reply(_ commit: GroupCommit, _ name: String) {
        let outcomes = self.outcomes
        commit.whenDurable(through: commit.commitCount) { outcomes.record(name, $0) }
    }

    @Test func aChangeCommittedAfterAFlushBeganWaitsForTheNextFlushAndLearnsItFailed() {
        let commit = make()
        queue.sync {
            commit.changed()
            reply(commit, "first")
        }
        held.waitForStart()
        queue.sync {
            commit.changed()  // pipelined behind the first, after its flush began
            reply(commit, "second")
        }
        held.release(nil)
        outcomes.waitFor(count: 1)
        held.waitForStart()
        #expect(outcomes.all.map(\.0) == ["first"])  // the first flush did not answer the second
        held.release("fdatasync failed: Input/output error")
        outcomes.waitFor(count: 2)
        #expect(outcomes.all.map(\.0) == ["first", "second"])
        #expect(outcomes.all[0].1 == .onDisk)
        #expect(outcomes.all[1].1 == .notConfirmed(reason: "fdatasync failed: Input/output error"))
    }

    @Test func afterAFailedFlushAReadIsAnsweredAtOnceAndNothingWaitsForAFlushThatWillNotCome() {
        let commit = make()
        queue.sync {
            commit.changed()
            reply(commit, "change")
        }
        held.waitForStart()
        held.release("disk gone")
        outcomes.waitFor(count: 1)
        queue.sync { reply(commit, "read") }  // no change since: settled already
        #expect(outcomes.all.map(\.0) == ["change", "read"])
        // A later change gets a flush of its own, and its own outcome.
        queue.sync {
            commit.changed()
            reply(commit, "later")
        }
        held.waitForStart()
        held.release(nil)
        outcomes.waitFor(count: 3)
        #expect(
            outcomes.all.map(\.1) == [.notConfirmed(reason: "disk gone"), .notConfirmed(reason: "disk gone"), .onDisk])
        // The flush after the failure was a recovery (a full checkpoint), the one after that a
        // plain WAL sync again.
        queue.sync { commit.changed() }
        held.waitForStart()
        held.release(nil)
        #expect(held.afterFailure == [false, true, false])
    }

    @Test func changesMadeWhileAFlushRunsShareTheNextOne() {
        let commit = make()
        queue.sync { commit.changed() }
        held.waitForStart()
        queue.sync {
            for name in ["a", "b", "c"] {
                commit.changed()
                reply(commit, name)
            }
        }
        held.release(nil)
        held.waitForStart()  // one more flush covers all three
        held.release(nil)
        outcomes.waitFor(count: 3)
        #expect(outcomes.all.map(\.0) == ["a", "b", "c"])
        #expect(outcomes.all.allSatisfy { $0.1 == .onDisk })
    }
}
