import Dispatch
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// Group commit: the store's transactions commit with `synchronous = NORMAL` (into the WAL, not
/// yet forced to disk), and one `fdatasync` of the WAL makes every change committed before it
/// durable at once. Replies that acknowledge a change wait for it (`whenDurable`), so an
/// acknowledged change has still reached the disk — but the changes of many clients share one
/// disk flush, and the flush runs on its own thread while `queue` goes on serving.
///
/// SQLite's NORMAL mode syncs the WAL before each checkpoint and the database after it, so the
/// WAL this flushes is the only place a committed change can be waiting.
final class GroupCommit: @unchecked Sendable {  // all mutable state is confined to `queue`
    let queue: DispatchQueue
    private let flushQueue = DispatchQueue(label: "reminderd.store.flush")
    private let walPath: String
    private let checkpoint: @Sendable () -> Bool
    /// Transactions committed so far, and how many of them are known to be on disk.
    private var committed = 0
    private var durable = 0
    private var flushing = false
    private var waiters: [(upTo: Int, body: @Sendable (Bool) -> Void)] = []

    init(queue: DispatchQueue, databasePath: String, checkpoint: @escaping @Sendable () -> Bool) {
        self.queue = queue
        self.walPath = databasePath + "-wal"
        self.checkpoint = checkpoint
    }

    /// A transaction just committed.
    func changed() {
        dispatchPrecondition(condition: .onQueue(queue))
        committed += 1
        // Queued behind the work already waiting, so that work's changes join this flush.
        if !flushing {
            flushing = true
            queue.async { [self] in startFlush() }
        }
    }

    /// Runs `body` once every change committed so far is on disk: now, or after a flush (false
    /// if the flush failed).
    func whenDurable(_ body: @escaping @Sendable (Bool) -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        if durable >= committed { body(true) } else { waiters.append((committed, body)) }
    }

    private func startFlush() {
        let covering = committed
        flushQueue.async { [self] in
            let ok = flushWAL()
            queue.async { [self] in finished(covering: covering, ok: ok) }
        }
    }

    private func finished(covering: Int, ok: Bool) {
        if ok { durable = covering }
        let ready = waiters.filter { $0.upTo <= covering }
        waiters.removeAll { $0.upTo <= covering }
        for waiter in ready { waiter.body(ok) }
        if committed > covering {
            startFlush()
        } else {
            flushing = false
        }
    }

    /// Runs on `flushQueue`.
    private func flushWAL() -> Bool {
        let fd = open(walPath, O_RDONLY | O_CLOEXEC)
        // No WAL file would mean the changes went elsewhere: a full checkpoint syncs everything.
        guard fd >= 0 else { return checkpoint() }
        defer { close(fd) }
        while fdatasync(fd) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }
}
