import Dispatch
import ReminderPlatform

/// One connection used by one thread at a time: the store's queue and the group commit's flush
/// thread take turns at it on a serial queue of its own, as they did at GRDB's `DatabaseQueue`;
/// the connection is in a box that checks every access is on that queue (`QueueBound`).
/// Accesses do not nest (a read inside a write would wait for itself: Dispatch stops the
/// process instead).
final class DatabaseQueue: Sendable {
    private let database: QueueBound<Database>

    /// Opens `path`; `prepare` runs first on the new connection (the store's PRAGMAs).
    init(path: String, busyTimeout: Double = 0, prepare: (Database) throws -> Void = { _ in }) throws {
        let database = try Database(path: path, busyTimeout: busyTimeout)
        try prepare(database)
        self.database = QueueBound(database, queue: DispatchQueue(label: "reminderd.store.connection"))
    }

    /// `body` with the connection, outside any transaction (it opens its own, or runs a
    /// statement SQLite does not allow in one: `PRAGMA journal_mode`, a checkpoint).
    func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try database.queue.sync { try body(database.value) }
    }

    /// `body` in one IMMEDIATE transaction (the write lock taken at once, so it never has to be
    /// upgraded from a read lock, which fails at once with SQLITE_BUSY when another process got
    /// it first). Committed when `body` returns; rolled back when it or the commit throws.
    /// `lockWait`: how long to wait for another process's lock, when not the connection's own.
    func write<T>(lockWait: Double? = nil, _ body: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction { db in
            guard let lockWait else { return try db.inTransaction(.immediate) { try body(db) } }
            return try db.waitingForLock(lockWait) { try db.inTransaction(.immediate) { try body(db) } }
        }
    }

    /// `body` in one DEFERRED transaction, so all it reads is one snapshot, with writes refused
    /// (`PRAGMA query_only`).
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction { db in
            try db.cachedStatement(sql: "PRAGMA query_only = 1").execute()
            defer { try? db.cachedStatement(sql: "PRAGMA query_only = 0").execute() }
            return try db.inTransaction(.deferred) { try body(db) }
        }
    }
}
