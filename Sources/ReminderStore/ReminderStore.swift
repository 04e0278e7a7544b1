import CivilTime
import Dispatch
import ReminderCore
import ReminderJSON
import ReminderPlatform
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's durable state in SQLite: items (as their §2 JSON), per-occurrence state, the
/// fires the notification server accepted, and history.
///
/// WAL with `synchronous = FULL`: a write that returned has reached the disk, so every change
/// acknowledged to a client survives `kill -9` and power loss, and each change is one
/// transaction, so none is half-applied. With a group-commit queue (the daemon's), writes reach
/// the disk together at the end of the queue's turn instead, and `whenDurable` says when.
/// The file is created 0600 in a 0700 directory.
public final class ReminderStore: Sendable {
    public let path: String
    private let database: DatabaseQueue
    private let groupCommit: GroupCommit?
    /// Told, once per row and run, of a stored row a read left out because a value in it cannot
    /// be read (`ReminderStore.fetchAll`): the daemon logs it as an error.
    private let unreadableRow: @Sendable (String) -> Void
    private let reportedRows = Mutex<Set<String>>([])

    /// `$XDG_DATA_HOME/reminderd/reminderd.sqlite` (`~/.local/share` when unset).
    public static func defaultPath() -> String {
        xdgDirectory("XDG_DATA_HOME", else: ".local/share") + "/reminderd/reminderd.sqlite"
    }

    /// Opens (creating) the store; every write must then run on `groupCommit` when given.
    public init(
        path: String, groupCommit queue: DispatchQueue? = nil,
        unreadableRow: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(ReminderStoreError) {
        self.path = path
        self.unreadableRow = unreadableRow
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !directory.isEmpty {
            do { try makePrivateDirectories(directory) } catch {
                throw .cannotOpen(path: path, reason: error.description)
            }
        }
        let synchronous = queue == nil ? "FULL" : "NORMAL"
        // Created private before SQLite opens it, which gives its -wal and -shm files the
        // database file's mode. Not by umask: that is the whole process's, and another thread
        // creating a file meanwhile would get 0600 or leave the mask changed. A symbolic link is
        // followed, as SQLite follows it: a link to a file not made yet makes that file private.
        let created = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        if created >= 0 { close(created) }
        do {
            // Another process (a backup, `sqlite3`) holding the file for a moment is waited for.
            database = try DatabaseQueue(path: path, busyTimeout: ReminderStore.lockWait) { db in
                try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
                // A page cache of 512 KiB instead of SQLite's 2 MiB: the daemon keeps what it
                // reads in memory, so the cache only held start-up's one scan of the items — 2 MiB
                // of its idle memory at 10k items (massif) — and the system's file cache has the pages.
                try db.execute(sql: "PRAGMA cache_size = -512")
            }
            // Before anything writes: a file that is not ours, or is newer, stays as it is.
            try database.read { db in try ReminderStore.refuseForeignOrNewer(db) }
            try database.writeWithoutTransaction { db in
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            }
            try ReminderStore.migrator.migrate(database)
        } catch let error as ReminderStoreError {
            throw .cannotOpen(path: path, reason: error.description)
        } catch {
            throw .cannotOpen(path: path, reason: ReminderStore.describeOpenFailure(error, path: path))
        }
        chmod(path, 0o600)
        let database = self.database
        groupCommit = queue.map { queue in
            GroupCommit(
                queue: queue,
                flush: GroupCommit.walFlush(databasePath: path) {
                    (try? database.writeWithoutTransaction { try $0.checkpoint(.full) }) != nil
                })
        }
    }

    /// How many changes have been written so far. A reply made now shows or acknowledges them,
    /// so it waits for `whenDurable(through:)` of this count.
    public var commitCount: Int { groupCommit?.commitCount ?? 0 }

    /// Runs `body` once the first `count` changes are on disk, or their flush failed.
    public func whenDurable(through count: Int, _ body: @escaping @Sendable (Durability) -> Void) {
        if let groupCommit { groupCommit.whenDurable(through: count, body) } else { body(.onDisk) }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // The SQL GRDB's table builder wrote for these steps, word for word: a store made here
        // has the schema of one a GRDB-era reminderd made (StoreCompatibilityTests).
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE "item" ("id" TEXT PRIMARY KEY NOT NULL, "json" TEXT NOT NULL, "createdAt" INTEGER NOT NULL);
                    CREATE TABLE "occurrence" ("itemId" TEXT NOT NULL REFERENCES "item"("id") ON DELETE CASCADE, \
                    "due" INTEGER NOT NULL, "doneAt" INTEGER, "snoozedUntil" INTEGER, "passedAt" INTEGER, \
                    PRIMARY KEY ("itemId", "due"));
                    CREATE TABLE "fire" ("itemId" TEXT NOT NULL REFERENCES "item"("id") ON DELETE CASCADE, \
                    "due" INTEGER NOT NULL, "fireAt" INTEGER NOT NULL, "shownAt" INTEGER NOT NULL, \
                    "notificationId" INTEGER NOT NULL, PRIMARY KEY ("itemId", "due", "fireAt"));
                    CREATE TABLE "history" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "at" INTEGER NOT NULL, \
                    "itemId" TEXT NOT NULL, "title" TEXT NOT NULL, "event" TEXT NOT NULL, "reason" TEXT NOT NULL);
                    CREATE INDEX "history_on_at" ON "history"("at");
                    CREATE TABLE "setting" ("key" TEXT PRIMARY KEY NOT NULL, "value" TEXT NOT NULL);
                    """)
            // Undo: the item and occurrence as they were before the last Done.
            try db.execute(
                sql: """
                    CREATE TABLE "undo" ("itemId" TEXT PRIMARY KEY NOT NULL REFERENCES "item"("id") ON DELETE CASCADE, \
                    "itemJSON" TEXT NOT NULL, "due" INTEGER NOT NULL)
                    """)
        }
        // v2: what each Done of a benefit redeemed, for the per-card fee return in `summary`.
        migrator.registerMigration("v2") { db in
            try db.execute(
                sql: """
                    CREATE TABLE "redemption" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "itemId" TEXT NOT NULL, \
                    "card" TEXT NOT NULL, "at" INTEGER NOT NULL, "amount" TEXT NOT NULL);
                    CREATE INDEX "redemption_on_itemId" ON "redemption"("itemId");
                    ALTER TABLE "undo" ADD COLUMN "doneAt" INTEGER NOT NULL DEFAULT 0;
                    """)
        }
        // v3: items are read in creation order at every start; without an index SQLite sorted
        // them all in a temporary b-tree (~80 ms for 100k).
        migrator.registerMigration("v3") { db in
            try db.execute(sql: #"CREATE INDEX "item_order" ON "item"("createdAt", "id")"#)
        }
        registerDeliveries(&migrator)
        // v5-state: every Done can be undone, newest first (one slot lost the older ones), and an
        // item whose stored JSON cannot be read is set aside with the reason instead of stopping
        // the daemon.
        migrator.registerMigration("v5-state") { db in
            try db.execute(
                sql: """
                    CREATE TABLE "undoStep" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, \
                    "itemId" TEXT NOT NULL REFERENCES "item"("id") ON DELETE CASCADE, "itemJSON" TEXT NOT NULL, \
                    "due" INTEGER NOT NULL, "doneAt" INTEGER NOT NULL);
                    CREATE INDEX "undoStep_on_itemId" ON "undoStep"("itemId");
                    """)
            try db.execute(
                sql:
                    "INSERT INTO undoStep (itemId, itemJSON, due, doneAt) SELECT itemId, itemJSON, due, doneAt FROM undo"
            )
            try db.execute(sql: #"DROP TABLE "undo""#)
            try db.execute(sql: #"ALTER TABLE "item" ADD COLUMN "unreadable" TEXT"#)
        }
        registerSync(&migrator)
        registerZoneMoves(&migrator)
        registerWriteBacks(&migrator)
        return migrator
    }

    /// Runs `body` in one write transaction, mapping SQLite's errors to the store's. Internal: what
    /// the daemon changes goes through the store's intent-level methods, so SQL stays here.
    ///
    /// A value a single-row read cannot read (`UnreadableValue`) fails the access in words
    /// (`ReminderStoreError.unreadableRow`); the rows a table read left out are reported.
    func write<T>(_ body: (Database) throws -> T) throws(ReminderStoreError) -> T {
        let result: T
        let setAside: [String]
        do {
            (result, setAside) = try database.write { db in
                db.setAside = []
                return (try body(db), db.setAside)
            }
        } catch { throw ReminderStore.storeError(error) }
        // Only a transaction that committed waits for a flush (a rolled-back one left nothing).
        groupCommit?.changed()
        report(setAside)
        return result
    }

    func read<T>(_ body: (Database) throws -> T) throws(ReminderStoreError) -> T {
        let result: T
        let setAside: [String]
        do {
            (result, setAside) = try database.read { db in
                db.setAside = []
                return (try body(db), db.setAside)
            }
        } catch { throw ReminderStore.storeError(error) }
        report(setAside)
        return result
    }

    private static func storeError(_ error: any Error) -> ReminderStoreError {
        switch error {
        case let error as ReminderStoreError: error
        case let unreadable as UnreadableValue: .unreadableRow(reason: unreadable.description)
        default: .database(reason: "\(error)")
        }
    }

    /// Hands each row left out to `unreadableRow`, the first time it is seen in this run.
    private func report(_ setAside: [String]) {
        guard !setAside.isEmpty else { return }
        let new = reportedRows.withLock { reported in setAside.filter { reported.insert($0).inserted } }
        for row in new { unreadableRow(row) }
    }

    /// `PRAGMA integrity_check`: "ok" when the file is sound.
    public func integrityCheck() throws(ReminderStoreError) -> String {
        try read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer" }
    }
}

// MARK: - Items

extension ReminderStore {
    /// Every readable stored item, oldest first. One whose JSON cannot be read is quarantined
    /// (set aside with the reason, and a history line) rather than stopping everything else.
    public func items(zone: TimeZoneRules, now: Int64) throws(ReminderStoreError) -> [Item] {
        let rows = try read { db in
            try ReminderStore.fetchAll(
                db, sql: "SELECT id, json FROM item WHERE unreadable IS NULL ORDER BY createdAt, id"
            ) {
                (id: try $0[0] as String, json: try $0[1] as String)
            }
        }
        let decoded = rows.concurrentMap { row in
            Result { () throws(ReminderCoreError) in
                try Item(json: try JSONValue.parse(Array(row.json.utf8), source: "item"), context: .init(zone: zone, present: .unchecked))
            }
        }
        var items: [Item] = []
        var unreadable: [(id: String, json: String, reason: String)] = []
        items.reserveCapacity(decoded.count)
        for (row, result) in zip(rows, decoded) {
            switch result {
            case .success(let item): items.append(item)
            case .failure(let error): unreadable.append((row.id, row.json, error.description))
            }
        }
        if !unreadable.isEmpty { try quarantine(unreadable, now: now) }
        return items
    }

    public func occurrences() throws(ReminderStoreError) -> [OccurrenceRecord] {
        try read { db in try OccurrenceRecord.fetchAll(db) }
    }

    public func fires() throws(ReminderStoreError) -> [FireRecord] {
        try read { db in try FireRecord.fetchAll(db) }
    }

}

extension Item {
    /// The item's §2 JSON as stored: compact, keys sorted.
    public var jsonText: String { json.text() }
}
