import ReminderCore

/// One item's place on the CalDAV server: its `uid` (its identity across devices), and once
/// pushed its `href`, the server's `etag` and `body` — the text both sides last agreed on, the
/// merge base. The row outlives a removed item until its DELETE is pushed.
public struct SyncObject: Sendable, Equatable {
    public var itemId: String
    public var uid: String
    public var href: String?
    public var etag: String?
    public var body: String?
    /// When a pop-up of the item was last acknowledged here (dismissed, snoozed, Done) — or on
    /// another device, once pulled (`recordAcknowledgedElsewhere`): other clients read it as
    /// `X-MOZ-LASTACK`. Only the store sets it (`markAcknowledged`); writing a `SyncObject`
    /// leaves it as stored.
    public var acknowledgedAt: Int64?

    public init(
        itemId: String, uid: String, href: String? = nil, etag: String? = nil, body: String? = nil,
        acknowledgedAt: Int64? = nil
    ) {
        (self.itemId, self.uid, self.href, self.etag, self.body) = (itemId, uid, href, etag, body)
        self.acknowledgedAt = acknowledgedAt
    }
}

/// A resource of the task list that is no item of reminderd's (a phone's own task, without
/// `X-REMINDERD-KIND`) and the ETag it was read at: `SyncBegin` lists it among the known
/// resources, so a full listing does not fetch it again while it is unchanged.
public struct ForeignResource: Sendable, Equatable {
    public var href: String
    public var etag: String

    public init(href: String, etag: String) { (self.href, self.etag) = (href, etag) }
}

/// One waiting change: which item (with its server state), the change's `seq`, since when the
/// item waits, and whether the item is gone (a DELETE to push).
public struct SyncPendingRow: Sendable, Equatable {
    public var seq: Int64
    public var since: Int64
    public var object: SyncObject
    public var removed: Bool
}

/// What `SyncStatus` reports of the store. Times are Unix seconds.
public struct SyncStatusFigures: Sendable, Equatable {
    public var account: String?
    public var collection: String?
    public var lastSync: Int64?
    public var lastAttempt: Int64?
    public var error: String?
    public var waiting: Int
    public var waitingSince: Int64?
    public var conflicts: Int
}

/// Sync's state in the store (docs/ARCHITECTURE.md, "Sync state"): `syncObject` per item and
/// `syncOutbox`, one row per item with a change the server has not taken. Every intent that
/// changes an item writes its outbox row in its own transaction (`markChanged`), so no change
/// can be stored without the server hearing of it.
extension ReminderStore {
    /// v6: the two tables, every existing item with a uid and waiting (a first join pushes it).
    static func registerSync(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6-sync") { db in
            // No foreign key: the row must outlive its item until the DELETE is pushed.
            try db.execute(
                sql: """
                    CREATE TABLE "syncObject" ("itemId" TEXT PRIMARY KEY NOT NULL, "uid" TEXT NOT NULL UNIQUE, \
                    "href" TEXT, "etag" TEXT, "body" TEXT);
                    CREATE INDEX "syncObject_on_href" ON "syncObject"("href");
                    """)
            // AUTOINCREMENT: a seq is never reused, so a stale SyncPushed cannot clear a newer change.
            try db.execute(
                sql: """
                    CREATE TABLE syncOutbox (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT, itemId TEXT NOT NULL UNIQUE, since INTEGER NOT NULL)
                    """)
            let now = try Int64.fetchOne(db, sql: "SELECT CAST(strftime('%s', 'now') AS INTEGER)") ?? 0
            let ids = try String.fetchAll(db, sql: "SELECT id FROM item ORDER BY createdAt, id")
            for id in ids { try markChanged(id, at: now, db) }
        }
        // v7: acknowledgements made here, which no other column holds (a dismiss changes nothing else).
        migrator.registerMigration("v7-sync-ack") { db in
            try db.execute(sql: #"ALTER TABLE "syncObject" ADD COLUMN "acknowledgedAt" INTEGER"#)
        }
        // v8: other apps' tasks read at an ETag, so that an unchanged one is not fetched again.
        migrator.registerMigration("v8-sync-foreign") { db in
            try db.execute(sql: #"CREATE TABLE "syncForeign" ("href" TEXT PRIMARY KEY NOT NULL, "etag" TEXT NOT NULL)"#)
        }
    }

    /// A new item uid: a random (version 4) UUID in lower case, `…@reminderd`.
    static func newUID() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }
        let groups = [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }
        return groups.joined(separator: "-") + "@reminderd"
    }

    /// The item changed here: it gets a uid if it has none, and its outbox row is replaced by
    /// one with a new seq that keeps the oldest `since`.
    static func markChanged(_ itemId: String, at now: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO syncObject (itemId, uid) VALUES (?, ?)").execute(
            arguments: [itemId, newUID()])
        let since = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT since FROM syncOutbox WHERE itemId = ?"), arguments: [itemId])
        try db.cachedStatement(sql: "DELETE FROM syncOutbox WHERE itemId = ?").execute(arguments: [itemId])
        try db.cachedStatement(sql: "INSERT INTO syncOutbox (itemId, since) VALUES (?, ?)").execute(
            arguments: [itemId, min(since ?? now, now)])
    }

    /// A pop-up of the item was acknowledged here at `now` (dismissed, snoozed, Done): the item
    /// waits to be pushed with it.
    static func markAcknowledged(_ itemId: String, at now: Int64, _ db: Database) throws {
        try markChanged(itemId, at: now, db)
        try db.cachedStatement(
            sql: "UPDATE syncObject SET acknowledgedAt = max(coalesce(acknowledgedAt, ?), ?) WHERE itemId = ?"
        ).execute(arguments: [now, now, itemId])
    }

    /// Acknowledgements another device made (from a pull), kept with this device's own: where a
    /// repeat until acknowledged stopped, after a restart too (`acknowledgements()`). The server
    /// has them already, so nothing waits to be pushed; equal to the base's, they change no record.
    public func recordAcknowledgedElsewhere(_ acknowledged: [String: Int64]) throws(ReminderStoreError) {
        guard !acknowledged.isEmpty else { return }
        try write { db in
            for (itemId, instant) in acknowledged {
                try db.cachedStatement(
                    sql: "UPDATE syncObject SET acknowledgedAt = max(coalesce(acknowledgedAt, ?), ?) WHERE itemId = ?"
                ).execute(arguments: [instant, instant, itemId])
            }
        }
    }

    /// The item was removed here: one the server never had is forgotten; otherwise its row
    /// stays so that its DELETE is pushed.
    static func markRemoved(_ itemId: String, at now: Int64, _ db: Database) throws {
        let href = try String.fetchOne(db, sql: "SELECT href FROM syncObject WHERE itemId = ?", arguments: [itemId])
        if href == nil {
            try forget(itemId, db)
        } else {
            try markChanged(itemId, at: now, db)
        }
    }

    /// Drops what sync knows of an item: its server state and any waiting change.
    static func forget(_ itemId: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM syncObject WHERE itemId = ?", arguments: [itemId])
        try db.execute(sql: "DELETE FROM syncOutbox WHERE itemId = ?", arguments: [itemId])
    }

    static func upsert(_ object: SyncObject, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO syncObject (itemId, uid, href, etag, body) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (itemId) DO UPDATE
                SET uid = excluded.uid, href = excluded.href, etag = excluded.etag, body = excluded.body
                """
        ).execute(arguments: [object.itemId, object.uid, object.href, object.etag, object.body])
    }
}

// MARK: - Reads

extension ReminderStore {
    static func syncObject(_ row: Row) throws -> SyncObject {
        SyncObject(
            itemId: try row["itemId"], uid: try row["uid"], href: try row["href"], etag: try row["etag"],
            body: try row["body"], acknowledgedAt: try row["acknowledgedAt"])
    }

    /// Per item, when one of its pop-ups was last acknowledged here: where its repeats stopped.
    public func acknowledgements() throws(ReminderStoreError) -> [String: Int64] {
        try read { db in
            let pairs = try ReminderStore.fetchAll(
                db, sql: "SELECT itemId, acknowledgedAt FROM syncObject WHERE acknowledgedAt IS NOT NULL"
            ) { row -> (String, Int64) in (try row[0], try row[1]) }
            return Dictionary(pairs, uniquingKeysWith: max)
        }
    }

    public func syncObject(uid: String) throws(ReminderStoreError) -> SyncObject? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM syncObject WHERE uid = ?", arguments: [uid]).map(
                ReminderStore.syncObject)
        }
    }

    public func syncObject(itemId: String) throws(ReminderStoreError) -> SyncObject? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM syncObject WHERE itemId = ?", arguments: [itemId]).map(
                ReminderStore.syncObject)
        }
    }

    public func syncObject(href: String) throws(ReminderStoreError) -> SyncObject? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM syncObject WHERE href = ?", arguments: [href]).map(
                ReminderStore.syncObject)
        }
    }

    /// The hrefs of other apps' tasks kept with their ETag (`ForeignResource`).
    public func foreignHrefs() throws(ReminderStoreError) -> Set<String> {
        try read { db in Set(try String.fetchAll(db, sql: "SELECT href FROM syncForeign")) }
    }

    /// Whether the last `SyncBegin` reminded other apps' tasks (`sync.otherTasks`).
    public func syncOtherTasks() throws(ReminderStoreError) -> Bool { try setting("sync.otherTasks") == "1" }

    /// The task list's URL of the last `SyncBegin`, nil before the first.
    public func syncCollection() throws(ReminderStoreError) -> String? { try setting("sync.collection") }

    /// The uid of each of `itemIds` that has one.
    public func syncUIDs(of itemIds: [String]) throws(ReminderStoreError) -> [String: String] {
        try read { db in
            var uids: [String: String] = [:]
            for id in itemIds {
                uids[id] = try String.fetchOne(db, sql: "SELECT uid FROM syncObject WHERE itemId = ?", arguments: [id])
            }
            return uids
        }
    }

    /// Items the server never had (no href), for the first join's catalog match.
    public func syncUnpushed() throws(ReminderStoreError) -> [String] {
        try read { db in
            try String.fetchAll(
                db, sql: "SELECT s.itemId FROM syncObject s JOIN item i ON i.id = s.itemId WHERE s.href IS NULL")
        }
    }

    /// Whether a change made here waits for the server: one of the item's own (an edit, a Done,
    /// an acknowledgement), not only the write-back of a pulled copy in reminderd's own form
    /// (`markWaitingAfterPull`). A removal elsewhere keeps an item only for such a change.
    public func syncChangedHere(itemId: String) throws(ReminderStoreError) -> Bool {
        try read { db in
            try Bool.fetchOne(
                db, sql: "SELECT writeBack = 0 FROM syncOutbox WHERE itemId = ?", arguments: [itemId]) ?? false
        }
    }

    /// v10: `syncOutbox.writeBack`, 1 for a row that only writes a pulled copy back in
    /// reminderd's own form (a phone's tick normalized, a date put back), 0 for a change made
    /// here. A device that pulled such a copy while the server refused its writes kept, with it,
    /// an item another device then removed: "kept because it was changed here", though nothing
    /// was (EngineSyncModelTests seed 29).
    static func registerWriteBacks(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v10-sync-write-back") { db in
            try db.execute(sql: #"ALTER TABLE "syncOutbox" ADD COLUMN "writeBack" INTEGER NOT NULL DEFAULT 0"#)
        }
    }

    /// A pulled item that differs from the server's copy waits to be written back: with a new
    /// seq, the oldest `since`, and a change made here still counted as one.
    static func markWaitingAfterPull(_ itemId: String, at now: Int64, _ db: Database) throws {
        let waiting = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT since, writeBack FROM syncOutbox WHERE itemId = ?"), arguments: [itemId])
        try markChanged(itemId, at: now, db)
        let writeBack: Bool = try waiting.map { try $0["writeBack"] } ?? true
        if writeBack {
            try db.cachedStatement(sql: "UPDATE syncOutbox SET writeBack = 1 WHERE itemId = ?").execute(
                arguments: [itemId])
        }
    }

    /// Up to `limit` waiting changes, oldest first. An unreadable item's change waits until it
    /// is readable or removed (it cannot be written as a resource).
    public func pendingSync(limit: Int) throws(ReminderStoreError) -> [SyncPendingRow] {
        try read { db in
            try ReminderStore.fetchAll(
                db,
                sql: """
                    SELECT o.seq, o.since, s.*, i.id IS NULL AS removed FROM syncOutbox o
                    JOIN syncObject s ON s.itemId = o.itemId LEFT JOIN item i ON i.id = o.itemId
                    WHERE i.unreadable IS NULL ORDER BY o.seq LIMIT ?
                    """, arguments: [limit]
            ) { row in
                SyncPendingRow(
                    seq: try row["seq"], since: try row["since"], object: try ReminderStore.syncObject(row),
                    removed: try row["removed"])
            }
        }
    }

    public func syncStatus(conflictsSince: Int64) throws(ReminderStoreError) -> SyncStatusFigures {
        try read { db in
            let settings = Dictionary(
                uniqueKeysWithValues: try ReminderStore.fetchAll(
                    db, sql: "SELECT key, value FROM setting WHERE key LIKE 'sync.%'"
                ) { (try $0[0] as String, try $0[1] as String) })
            let waiting = try Row.fetchOne(db, sql: "SELECT count(*) AS n, min(since) AS since FROM syncOutbox")
            let conflicts = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM history WHERE event = ? AND at >= ?",
                arguments: [HistoryEvent.conflict.rawValue, conflictsSince])
            return SyncStatusFigures(
                account: settings["sync.account"], collection: settings["sync.collection"],
                lastSync: settings["sync.lastSync"].flatMap { Int64($0) },
                lastAttempt: settings["sync.lastAttempt"].flatMap { Int64($0) }, error: settings["sync.error"],
                waiting: try waiting?["n"] ?? 0, waitingSince: try waiting?["since"], conflicts: conflicts ?? 0)
        }
    }
}
