import ReminderCore

/// What one `SyncPulled` changes, written in one transaction with the sync token that came with
/// it: were the token stored without the changes (or the changes without the token), a crash in
/// between would skip server changes or apply them twice.
public struct SyncBatch: Sendable, Equatable {
    /// Items new here (from the server, or brought back), and items changed by a merge.
    public var added: [Item] = []
    public var updated: [Item] = []
    /// Items removed here because the server removed them: they go with their sync state.
    public var removed: [String] = []
    /// Occurrence state as merged; one no longer done loses its undo steps and what they
    /// redeemed (undone elsewhere).
    public var occurrences: [OccurrenceRecord] = []
    /// What Undo needs of each Done made elsewhere, so that one can be undone here as well; and
    /// what such a Done redeemed, when its amount came with it.
    public var undoSteps: [UndoStep] = []
    public var redemptions: [Redemption] = []
    public var history: [HistoryRecord] = []
    /// Server state to store (upserted by item id): a new base, a uid adopted on a first join.
    public var objects: [SyncObject] = []
    /// Items removed on both sides: their sync state goes.
    public var forgotten: [String] = []
    /// Items whose merged state differs from the server's (their outbox row is replaced), and
    /// items the server now agrees with (their outbox row goes).
    public var waiting: [String] = []
    public var settled: [String] = []
    /// Other apps' tasks read in this batch, at their ETag; and hrefs whose foreign ETag goes
    /// (every resource and removal of the batch: one read as an item now, or gone).
    public var foreign: [ForeignResource] = []
    public var notForeign: [String] = []
    /// The sync token of the listing, given with its last batch; nil leaves the stored one.
    public var token: String?

    public init() {}

    public var isEmpty: Bool { self == SyncBatch() }
}

extension ReminderStore {
    /// A sync pass starts: stores the account and collection, and returns the stored token and
    /// the resources known. Another collection than the stored one starts over: token and
    /// server state go, removals not pushed are forgotten, and every item waits to be pushed.
    /// `otherTasks` other than the last pass's (`sync.otherTasks` turned on or off) forgets the
    /// token and the other apps' tasks' ETags, so that the pass reads every task again.
    public func beginSync(collection: String, account: String, otherTasks: Bool = false, at now: Int64)
        throws(ReminderStoreError) -> (token: String?, resources: [(href: String, etag: String?)])
    {
        try write { db in
            let wasOn = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'sync.otherTasks'") == "1"
            if wasOn != otherTasks {
                try ReminderStore.setSetting("sync.otherTasks", otherTasks ? "1" : nil, db)
                try ReminderStore.setSetting("sync.token", nil, db)
                try db.execute(sql: "DELETE FROM syncForeign")
            }
            let stored = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'sync.collection'")
            if stored != collection {
                try ReminderStore.setSetting("sync.collection", collection, db)
                try ReminderStore.setSetting("sync.token", nil, db)
                try db.execute(
                    sql: "DELETE FROM syncOutbox WHERE itemId NOT IN (SELECT id FROM item)")
                try db.execute(sql: "DELETE FROM syncObject WHERE itemId NOT IN (SELECT id FROM item)")
                try db.execute(sql: "DELETE FROM syncForeign")
                try db.execute(sql: "UPDATE syncObject SET href = NULL, etag = NULL, body = NULL")
                for id in try String.fetchAll(db, sql: "SELECT id FROM item ORDER BY createdAt, id") {
                    try ReminderStore.markChanged(id, at: now, db)
                }
            }
            try ReminderStore.setSetting("sync.account", account, db)
            let token = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'sync.token'")
            let known = try ReminderStore.fetchAll(
                db,
                sql: """
                    SELECT href, etag FROM syncObject WHERE href IS NOT NULL
                    UNION ALL SELECT href, etag FROM syncForeign WHERE href NOT IN
                        (SELECT href FROM syncObject WHERE href IS NOT NULL)
                    ORDER BY href
                    """
            ) { (href: try $0[0] as String, etag: try $0[1] as String?) }
            return (token, known)
        }
    }

    /// The server took the change `seq` of the item `uid`: a PUT stores the new href, etag and
    /// base `body`; a DELETE (`body` nil) drops the item's sync state when the item is gone. The
    /// outbox row goes only while `seq` is still its seq: a change made during the push waits.
    /// A create of an item removed (and forgotten) here while it was on its way leaves a row of
    /// its own, keyed by the uid, so that the resource is deleted again rather than come back as
    /// a new item at the next pull. Returns whether the uid was known.
    ///
    /// The sync token goes: it was handed out before this write, and a listing from it need not
    /// name what becomes of the resource written (docs/SYNC.md, "The token after a push"). The
    /// pass's listing after its writes stores a new one; a pass cut off before that lists
    /// everything next time.
    @discardableResult
    public func recordPushed(uid: String, seq: Int64, href: String, etag: String?, body: String?, at now: Int64)
        throws(ReminderStoreError) -> Bool
    {
        try write { db in
            try ReminderStore.setSetting("sync.token", nil, db)
            guard let itemId = try String.fetchOne(db, sql: "SELECT itemId FROM syncObject WHERE uid = ?", arguments: [uid])
            else {
                if body != nil {
                    try ReminderStore.upsert(SyncObject(itemId: uid, uid: uid, href: href, etag: etag, body: body), db)
                    try ReminderStore.markChanged(uid, at: now, db)
                }
                return false
            }
            let exists = try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM item WHERE id = ?", arguments: [itemId])
            if body == nil, exists != true {
                try ReminderStore.forget(itemId, db)
                return true
            }
            try db.execute(
                sql: "UPDATE syncObject SET href = ?, etag = ?, body = ? WHERE itemId = ?",
                arguments: [body == nil ? nil : href, body == nil ? nil : etag, body, itemId])
            try db.execute(sql: "DELETE FROM syncOutbox WHERE itemId = ? AND seq = ?", arguments: [itemId, seq])
            return true
        }
    }

    /// Applies a pulled batch (`SyncBatch`) in one transaction.
    public func applySync(_ batch: SyncBatch, at now: Int64) throws(ReminderStoreError) {
        try write { db in
            for id in batch.removed {
                try ReminderStore.deleteItem(id: id, db)
                try ReminderStore.forget(id, db)
            }
            for id in batch.forgotten { try ReminderStore.forget(id, db) }
            for item in batch.added { try ReminderStore.insertItem(item, db) }
            for item in batch.updated { try ReminderStore.updateItem(item, db) }
            for record in batch.occurrences {
                try record.save(db)
                if record.doneAt == nil {
                    let step = "FROM undoStep WHERE itemId = ? AND due = ?"
                    try db.execute(
                        sql: "DELETE FROM redemption WHERE itemId = ? AND at IN (SELECT doneAt \(step))",
                        arguments: [record.itemId, record.itemId, record.due])
                    try db.execute(sql: "DELETE \(step)", arguments: [record.itemId, record.due])
                }
            }
            for step in batch.undoSteps { try ReminderStore.insertUndoStep(step, db) }
            for redemption in batch.redemptions { try ReminderStore.insertRedemption(redemption, db) }
            for entry in batch.history { try ReminderStore.appendHistory(entry, db) }
            for object in batch.objects { try ReminderStore.upsert(object, db) }
            for href in batch.notForeign {
                try db.cachedStatement(sql: "DELETE FROM syncForeign WHERE href = ?").execute(arguments: [href])
            }
            for resource in batch.foreign {
                try db.cachedStatement(sql: "INSERT OR REPLACE INTO syncForeign (href, etag) VALUES (?, ?)").execute(
                    arguments: [resource.href, resource.etag])
            }
            for id in batch.waiting { try ReminderStore.markWaitingAfterPull(id, at: now, db) }
            for id in batch.settled {
                try db.execute(sql: "DELETE FROM syncOutbox WHERE itemId = ?", arguments: [id])
            }
            if let token = batch.token { try ReminderStore.setSetting("sync.token", token, db) }
        }
    }

    /// A sync pass ended at `now`: with `error` nil it succeeded.
    public func recordSyncReport(error: String?, at now: Int64) throws(ReminderStoreError) {
        try write { db in
            try ReminderStore.setSetting("sync.lastAttempt", String(now), db)
            if error == nil { try ReminderStore.setSetting("sync.lastSync", String(now), db) }
            try ReminderStore.setSetting("sync.error", error, db)
        }
    }
}
