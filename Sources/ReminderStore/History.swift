import ReminderCore

extension ReminderStore {
    /// One history line on its own (a reminder held: no other state changes).
    public func recordHistory(_ entry: HistoryRecord) throws(ReminderStoreError) {
        try write { db in try ReminderStore.appendHistory(entry, db) }
    }

    /// One history line. (A cached statement: every change writes one, and encoding the record
    /// through `Codable` cost more than the insert.)
    static func appendHistory(_ entry: HistoryRecord, _ db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO history (at, itemId, title, event, reason) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [entry.at, entry.itemId, entry.title, entry.event.rawValue, entry.reason])
    }

    /// History newest first, optionally since an instant and for one item.
    public func history(
        limit: Int, since: Int64? = nil, itemId: String? = nil, event: HistoryEvent? = nil
    ) throws(ReminderStoreError) -> [HistoryRecord] {
        try read { db in
            try HistoryRecord.fetchAll(
                db,
                sql: """
                    SELECT * FROM history WHERE at >= ? AND (? IS NULL OR itemId = ?) AND (? IS NULL OR event = ?)
                    ORDER BY at DESC, id DESC LIMIT ?
                    """,
                arguments: [since ?? Int64.min, itemId, itemId, event?.rawValue, event?.rawValue, limit])
        }
    }

    /// Deletes history older than `before` (Unix seconds), and the fire records of occurrences
    /// concluded (done or passed) before it — every start loads the fire records, and nothing
    /// asks about a concluded occurrence's reminders again. A fire whose occurrence never
    /// concluded (an overdue rebuy's) stays: without it, that reminder would show again.
    /// Returns how many history entries went.
    @discardableResult
    public func pruneHistory(before: Int64) throws(ReminderStoreError) -> Int {
        try write { db in
            try db.execute(sql: "DELETE FROM history WHERE at < ?", arguments: [before])
            let pruned = db.changesCount
            try db.execute(
                sql: """
                    DELETE FROM fire WHERE due < ? AND EXISTS (
                        SELECT 1 FROM occurrence o WHERE o.itemId = fire.itemId AND o.due = fire.due
                        AND (o.doneAt IS NOT NULL OR o.passedAt IS NOT NULL))
                    """, arguments: [before])
            return pruned
        }
    }
}
