import ReminderCore

extension ReminderStore {
    /// Every redemption since `since` (Unix seconds), oldest first: the ledger `report` counts
    /// by month (`redeemed(since:)` only sums them by card).
    public func redemptions(since: Int64) throws(ReminderStoreError) -> [Redemption] {
        try read { db in
            try ReminderStore.fetchAll(
                db, sql: "SELECT itemId, card, at, amount FROM redemption WHERE at >= ? ORDER BY at, id",
                arguments: [since]
            ) {
                Redemption(itemId: try $0[0], card: try $0[1], at: try $0[2], amount: try $0[3])
            }
        }
    }
}
