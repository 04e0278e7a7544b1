/// The state a backup carries beside its items: each occurrence's Done and snooze, what each
/// Done redeemed, the undo steps, and optionally the history. `addItems` writes it in the items'
/// transaction, so a restore is all or nothing, state included.
public struct BackupState: Sendable, Equatable {
    public var occurrences: [OccurrenceRecord] = []
    public var redemptions: [Redemption] = []
    public var undoSteps: [UndoStep] = []
    public var history: [HistoryRecord] = []
    /// A backup's state was given: its redemptions replace any left by a removed item of the
    /// same id, so a restore never counts a redemption twice.
    public var restoring = false

    public init() {}
}

extension ReminderStore {
    /// What an export carries of the store beside the items and their occurrences (which the
    /// engine holds): every redemption and undo step, oldest first, and the history on request.
    public func backupLedger(history: Bool) throws(ReminderStoreError) -> (
        redemptions: [Redemption], undoSteps: [UndoStep], history: [HistoryRecord]
    ) {
        try read { db in
            let redemptions = try Row.fetchAll(db, sql: "SELECT itemId, card, at, amount FROM redemption ORDER BY id")
                .map {
                    Redemption(itemId: try $0["itemId"], card: try $0["card"], at: try $0["at"], amount: try $0["amount"])
                }
            let undoSteps = try Row.fetchAll(
                db, sql: "SELECT id, itemId, itemJSON, due, doneAt FROM undoStep ORDER BY id"
            )
            .map {
                UndoStep(
                    id: try $0["id"], itemId: try $0["itemId"], itemJSON: try $0["itemJSON"], due: try $0["due"],
                    doneAt: try $0["doneAt"])
            }
            let entries = history ? try HistoryRecord.fetchAll(db, sql: "SELECT * FROM history ORDER BY at, id") : []
            return (redemptions, undoSteps, entries)
        }
    }

    /// Writes a backup's state inside the items' transaction.
    static func writeState(_ state: BackupState, _ db: Database) throws {
        for record in state.occurrences { try record.save(db) }
        for redemption in state.redemptions { try insertRedemption(redemption, db) }
        for step in state.undoSteps { try insertUndoStep(step, db) }
        for entry in state.history { try appendHistory(entry, db) }
    }
}
