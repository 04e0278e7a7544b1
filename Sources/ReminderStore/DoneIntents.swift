import ReminderCore

/// The item as it was before one Done, so Undo can walk back every Done, newest first.
public struct UndoStep: Sendable, Equatable {
    /// The row's id (nil before it is stored): newer steps have larger ones.
    public var id: Int64?
    public var itemId: String
    /// The item's §2 JSON before the Done.
    public var itemJSON: String
    /// The occurrence the Done marked, 0 when it marked none (a rebuy, a partial use).
    public var due: Int64
    public var doneAt: Int64

    public init(id: Int64? = nil, itemId: String, itemJSON: String, due: Int64, doneAt: Int64) {
        self.id = id
        self.itemId = itemId
        self.itemJSON = itemJSON
        self.due = due
        self.doneAt = doneAt
    }
}

/// What one Done of a benefit redeemed, for the card's fee return in `summary`.
public struct Redemption: Sendable, Equatable {
    public var itemId: String
    public var card: String
    public var at: Int64
    /// A decimal amount, as written (kept as text so a backup restores it exactly).
    public var amount: String

    public init(itemId: String, card: String, at: Int64, amount: String) {
        self.itemId = itemId
        self.card = card
        self.at = at
        self.amount = amount
    }
}

/// Done and Undo: each Done stores the changed item, the occurrence it marked, an undo step, what
/// it redeemed, and its history line in one transaction; Undo takes back exactly that.
extension ReminderStore {
    /// Records a Done: `item` as it is now (`before` as it was, kept as an undo step), the
    /// `occurrence` it marked done if any, and what it `redeemed` of a benefit if anything.
    public func recordDone(
        _ item: Item, before: Item, occurrence: OccurrenceRecord?, redeemed: Redemption?, reason: String,
        at now: Int64
    ) throws(ReminderStoreError) {
        let id = item.id ?? ""
        try write { db in
            try ReminderStore.updateItem(item, db)
            try ReminderStore.markAcknowledged(id, at: now, db)
            try occurrence?.save(db)
            try ReminderStore.insertUndoStep(
                UndoStep(itemId: id, itemJSON: before.jsonText, due: occurrence?.due ?? 0, doneAt: now), db)
            if let redeemed { try ReminderStore.insertRedemption(redeemed, db) }
            try ReminderStore.appendHistory(
                HistoryRecord(at: now, itemId: id, title: item.title, event: .done, reason: reason), db)
        }
    }

    /// The item's latest Done not yet undone.
    public func latestUndoStep(of itemId: String) throws(ReminderStoreError) -> UndoStep? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT id, itemJSON, due, doneAt FROM undoStep WHERE itemId = ? ORDER BY id DESC LIMIT 1",
                arguments: [itemId]
            ).map {
                UndoStep(
                    id: try $0["id"], itemId: itemId, itemJSON: try $0["itemJSON"], due: try $0["due"],
                    doneAt: try $0["doneAt"])
            }
        }
    }

    /// Takes back the Done of `step`: the item `restored` as it was, what an edit since carried
    /// carried back (`moves`, as `recordEdit`'s), the `occurrence` no longer done, the redemption
    /// of that Done gone, and an `undone` history line.
    public func recordUndo(
        _ step: UndoStep, restored: Item, moving moves: [(from: Int64, to: Int64)] = [], occurrence: OccurrenceRecord?,
        at now: Int64
    ) throws(ReminderStoreError) {
        try write { db in
            try ReminderStore.updateItem(restored, db)
            try ReminderStore.moveOccurrences(of: step.itemId, moves, db)
            try ReminderStore.markChanged(step.itemId, at: now, db)
            try occurrence?.save(db)
            try db.execute(
                sql: "DELETE FROM redemption WHERE id = (SELECT max(id) FROM redemption WHERE itemId = ? AND at = ?)",
                arguments: [step.itemId, step.doneAt])
            try db.execute(sql: "DELETE FROM undoStep WHERE id = ?", arguments: [step.id])
            try ReminderStore.appendHistory(
                HistoryRecord(
                    at: now, itemId: step.itemId, title: restored.title, event: .undone,
                    reason: "restored as before Done"), db)
        }
    }

    /// The latest Dones still in effect, newest first: a Done that was undone no longer has its
    /// undo step (Undo deletes it), so it is not "used" any more.
    public func usedRecently(limit: Int) throws(ReminderStoreError) -> [HistoryRecord] {
        try read { db in
            try HistoryRecord.fetchAll(
                db,
                sql: """
                    SELECT * FROM history h WHERE event = ?
                    AND EXISTS (SELECT 1 FROM undoStep u WHERE u.itemId = h.itemId AND u.doneAt = h.at)
                    ORDER BY at DESC, id DESC LIMIT ?
                    """, arguments: [HistoryEvent.done.rawValue, limit])
        }
    }

    /// Value redeemed per card since `since` (Unix seconds).
    public func redeemed(since: Int64) throws(ReminderStoreError) -> [String: Money] {
        let rows = try read { db in
            try ReminderStore.fetchAll(
                db, sql: "SELECT card, amount FROM redemption WHERE at >= ?", arguments: [since]
            ) { (card: try $0[0] as String, amount: try $0[1] as String) }
        }
        var totals: [String: Money] = [:]
        for (card, text) in rows {
            if case .success(let amount) = Money.parse(text) {
                totals[card, default: .zero] = totals[card, default: .zero] + amount
            }
        }
        return totals
    }

    static func insertUndoStep(_ step: UndoStep, _ db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO undoStep (itemId, itemJSON, due, doneAt) VALUES (?, ?, ?, ?)")
            .execute(arguments: [step.itemId, step.itemJSON, step.due, step.doneAt])
    }

    static func insertRedemption(_ redemption: Redemption, _ db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO redemption (itemId, card, at, amount) VALUES (?, ?, ?, ?)")
            .execute(arguments: [redemption.itemId, redemption.card, redemption.at, redemption.amount])
    }

    static func deleteRedemptions(of itemId: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM redemption WHERE itemId = ?", arguments: [itemId])
    }
}
