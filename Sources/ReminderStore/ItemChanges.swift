import ReminderCore

extension ReminderStore {
    /// Adds `added`, each with an `added` history line and waiting to be synced, in one transaction. For a restore it
    /// first deletes the items of the same ids (`replacing`, their state going with them) and
    /// writes the backup's `state` in the same transaction, so a restore is all or nothing.
    public func addItems(
        _ added: [Item], at now: Int64, replacing: [String] = [], state: BackupState = BackupState()
    ) throws(ReminderStoreError) {
        try write { db in
            for id in replacing { try ReminderStore.deleteItem(id: id, db) }
            if state.restoring {
                for item in added { try ReminderStore.deleteRedemptions(of: item.id ?? "", db) }
            }
            for item in added {
                try ReminderStore.insertItem(item, db)
                try ReminderStore.markChanged(item.id ?? "", at: now, db)
                try ReminderStore.appendHistory(
                    HistoryRecord(
                        at: now, itemId: item.id ?? "", title: item.title, event: .added, reason: item.kind.rawValue),
                    db)
            }
            try ReminderStore.writeState(state, db)
        }
    }

    /// Stores an edited item, with an `edited` history line naming the `changedFields`.
    public func recordEdit(
        _ edited: Item, changedFields: String, moving moves: [(from: Int64, to: Int64)] = [], at now: Int64
    ) throws(ReminderStoreError) {
        try write { db in
            try ReminderStore.updateItem(edited, db)
            try ReminderStore.moveOccurrences(of: edited.id ?? "", moves, db)
            try ReminderStore.markChanged(edited.id ?? "", at: now, db)
            try ReminderStore.appendHistory(
                HistoryRecord(
                    at: now, itemId: edited.id ?? "", title: edited.title, event: .edited, reason: changedFields),
                db)
        }
    }

    /// Writes items back as they are now read, in one transaction, without history or a sync
    /// change: stored data brought up to date (a used amount's period stamped after an upgrade),
    /// not a change anyone made.
    public func rewriteItems(_ items: [Item]) throws(ReminderStoreError) {
        try write { db in
            for item in items { try ReminderStore.updateItem(item, db) }
        }
    }

    /// Deletes an item with all its state (occurrences, fires, deliveries and undo steps go with
    /// it), and a `removed` history line; its DELETE waits to be synced when the server has it.
    public func removeItem(id: String, title: String, reason: String, at now: Int64) throws(ReminderStoreError) {
        try write { db in
            try ReminderStore.deleteItem(id: id, db)
            try ReminderStore.markRemoved(id, at: now, db)
            try ReminderStore.appendHistory(
                HistoryRecord(at: now, itemId: id, title: title, event: .removed, reason: reason), db)
        }
    }

    static func insertItem(_ item: Item, _ db: Database) throws {
        guard let id = item.id, let createdAt = item.createdAt else { return }
        try db.cachedStatement(sql: "INSERT INTO item (id, json, createdAt) VALUES (?, ?, ?)").execute(
            arguments: [id, item.jsonText, createdAt])
    }

    static func updateItem(_ item: Item, _ db: Database) throws {
        guard let id = item.id else { return }
        try db.cachedStatement(sql: "UPDATE item SET json = ? WHERE id = ?").execute(arguments: [item.jsonText, id])
    }

    static func deleteItem(id: String, _ db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM item WHERE id = ?").execute(arguments: [id])
    }
}
