import Dispatch
import ReminderPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// Group commit: the store's transactions commit with `synchronous = NORMAL` (into the WAL, not
/// yet forced to disk), and one `fdatasync` of the WAL makes every change committed before it
/// durable at once. The changes of many clients share one disk flush, and the flush runs on its
/// own thread while `queue` goes on serving.
///
/// Transactions are numbered as they commit; a reply notes the count at the moment it was made
/// (`commitCount`) and waits for the flush covering exactly that count (`whenDurable(through:)`),
/// so a change committed after a flush began is never acknowledged by it. A failed flush settles
/// its range too (`notConfirmed`): nothing waits for a flush that will not come.
///
/// SQLite's NORMAL mode syncs the WAL before each checkpoint and the database after it, so the
/// WAL this flushes is the only place a committed change can be waiting.
///
/// After a failed flush a later `fdatasync` of the WAL proves nothing: Linux reports a
/// write-back error once, and SQLite's WAL recovery stops at the first frame whose checksum
/// fails, which would take later, "flushed" transactions with it. So once a flush failed, the
/// next ones are full checkpoints — every committed page copied into the database file and that
/// file synced — until one works.
final class GroupCommit: Sendable {
    /// What the group commit counts and keeps, read and written only on `queue` (checked).
    struct State {
        /// Transactions committed so far.
        var commitCount = 0
        /// The count the last finished flush covered, whether it worked or not.
        var settled = 0
        /// The range (after, through] of the last flush that failed, and why.
        var lastFailure: (after: Int, through: Int, reason: String)?
        /// A flush failed and none has worked since.
        var failedSinceLastSuccess = false
        var flushing = false
        var waiters: [(through: Int, body: @Sendable (Durability) -> Void)] = []
    }

    let queue: DispatchQueue
    private let flushQueue = DispatchQueue(label: "reminderd.store.flush")
    /// Forces the committed transactions to disk; nil when it worked, else why not. Its argument
    /// says a flush failed since the last that worked. Runs on `flushQueue`.
    private let flush: @Sendable (_ afterFailure: Bool) -> String?
    private let state: QueueBound<State>

    /// Transactions committed so far.
    var commitCount: Int { state.commitCount }

    init(queue: DispatchQueue, flush: @escaping @Sendable (_ afterFailure: Bool) -> String?) {
        self.queue = queue
        self.flush = flush
        state = QueueBound(State(), queue: queue)
    }

    /// Syncs the WAL beside `databasePath`; without one, or after a failed flush, `checkpoint`
    /// (a full checkpoint, which syncs the database file) does.
    static func walFlush(
        databasePath: String, checkpoint: @escaping @Sendable () -> Bool
    ) -> @Sendable (_ afterFailure: Bool) -> String? {
        let walPath = databasePath + "-wal"
        return { afterFailure in
            if afterFailure {
                return checkpoint() ? nil : "a full checkpoint into \(databasePath) failed after a failed flush"
            }
            let fd = open(walPath, O_RDONLY | O_CLOEXEC)
            // No WAL file would mean the changes went elsewhere: a full checkpoint syncs everything.
            guard fd >= 0 else {
                return checkpoint() ? nil : "no WAL at \(walPath) and a full checkpoint of the database failed"
            }
            defer { close(fd) }
            while fdatasync(fd) != 0 {
                if errno != EINTR { return "fdatasync of \(walPath) failed: \(errnoDescription())" }
            }
            return nil
        }
    }

    /// A transaction just committed.
    func changed() {
        state.commitCount += 1
        // Queued behind the work already waiting, so that work's changes join this flush.
        if !state.flushing {
            state.flushing = true
            queue.async { [self] in startFlush() }
        }
    }

    /// Runs `body` once the first `count` transactions are settled: at once when they are,
    /// else after the flush that covers them. (Invariant: while no flush is under way, every
    /// committed transaction is settled.)
    func whenDurable(through count: Int, _ body: @escaping @Sendable (Durability) -> Void) {
        if count <= state.settled { body(outcome(count)) } else { state.waiters.append((count, body)) }
    }

    /// The fate of transaction number `count`, once settled. Only the last failure is kept: a
    /// change registers before its flush finishes, so only replies that acknowledge nothing of
    /// their own (reads) ask about a count settled earlier.
    private func outcome(_ count: Int) -> Durability {
        if let failure = state.lastFailure, count > failure.after, count <= failure.through {
            return .notConfirmed(reason: failure.reason)
        }
        return .onDisk
    }

    private func startFlush() {
        let covering = state.commitCount
        let afterFailure = state.failedSinceLastSuccess
        flushQueue.async { [self] in
            let failure = flush(afterFailure)
            queue.async { [self] in finished(covering: covering, failure: failure) }
        }
    }

    private func finished(covering: Int, failure: String?) {
        if let failure { state.lastFailure = (state.settled, covering, failure) }
        state.failedSinceLastSuccess = failure != nil
        state.settled = covering
        let ready = state.waiters.filter { $0.through <= covering }
        state.waiters.removeAll { $0.through <= covering }
        for waiter in ready { waiter.body(outcome(waiter.through)) }
        if state.commitCount > covering {
            startFlush()
        } else {
            state.flushing = false
        }
    }
}
