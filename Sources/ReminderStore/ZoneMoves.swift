/// Occurrences are stored by their due instant, which is a wall time in the configured zone
/// (a coupon expires at 23:59 local). When the zone changes — the user travels, or edits
/// `timeZone` while reminderd is stopped — the same occurrence is due at another instant, and
/// everything stored of it (done, snoozed, passed, the reminders shown, the deliveries under
/// way, the undo steps) moves with it, in one transaction, so nothing done is undone and nothing
/// shown is shown again. The zone they are stored in is the setting `zone`.
extension ReminderStore {
    /// v9: the lead of each shown reminder (`FireRecord.lead`).
    static func registerZoneMoves(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v9-fire-lead") { db in
            try db.execute(sql: #"ALTER TABLE "fire" ADD COLUMN "lead" TEXT"#)
        }
    }

    /// The tables that hold occurrences by their due instant.
    static let tablesByDue = ["occurrence", "fire", "delivery", "undoStep"]

    /// Above every due instant (years before 2200 are below 2^33): where `moveOccurrences` parks
    /// rows between its two steps, so moving one row onto another's old instant never collides.
    static let parked: Int64 = 1 << 40

    /// Moves one item's stored occurrences (an edit that moved their dates, see
    /// `ReminderEngine.occurrenceMoves`), in the caller's transaction.
    static func moveOccurrences(of itemId: String, _ moves: [(from: Int64, to: Int64)], _ db: Database) throws {
        guard !moves.isEmpty else { return }
        for table in ReminderStore.tablesByDue {
            let park = try db.cachedStatement(sql: "UPDATE \(table) SET due = ? WHERE itemId = ? AND due = ?")
            for (from, to) in moves { try park.execute(arguments: [to + ReminderStore.parked, itemId, from]) }
            try db.execute(
                sql: "UPDATE OR REPLACE \(table) SET due = due - ? WHERE itemId = ? AND due >= ?",
                arguments: [ReminderStore.parked, itemId, ReminderStore.parked])
        }
    }

    /// The zone identifier the stored instants are wall times of; nil before any was recorded.
    public func storedZone() throws(ReminderStoreError) -> String? { try setting("zone") }

    /// Records the zone the stored instants are wall times of.
    public func saveZone(_ identifier: String) throws(ReminderStoreError) {
        try write { db in try ReminderStore.setSetting("zone", identifier, db) }
    }

    /// Moves every stored occurrence from its due instant to `move(due)` and records `zone`, in
    /// one transaction. Two rows that land on one instant (a wall time a DST change made
    /// ambiguous) keep the later written.
    public func moveOccurrences(toZone zone: String, _ move: (Int64) -> Int64) throws(ReminderStoreError) {
        try write { db in
            var dues = Set<Int64>()
            for table in ReminderStore.tablesByDue {
                dues.formUnion(try Int64.fetchAll(db, sql: "SELECT DISTINCT due FROM \(table)"))
            }
            let moves = dues.compactMap { due -> (from: Int64, to: Int64)? in
                let to = move(due)
                return to == due ? nil : (due, to)
            }
            for table in ReminderStore.tablesByDue where !moves.isEmpty {
                let park = try db.cachedStatement(sql: "UPDATE \(table) SET due = ? WHERE due = ?")
                for (from, to) in moves { try park.execute(arguments: [to + ReminderStore.parked, from]) }
                try db.execute(
                    sql: "UPDATE OR REPLACE \(table) SET due = due - ? WHERE due >= ?",
                    arguments: [ReminderStore.parked, ReminderStore.parked])
            }
            try ReminderStore.setSetting("zone", zone, db)
        }
    }
}
