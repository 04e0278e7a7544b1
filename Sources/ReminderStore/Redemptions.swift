import ReminderCore

extension ReminderStore {
    /// Every redemption since `since` (Unix seconds), oldest first: the ledger `report` counts
    /// by month (`redeemed(since:)` only sums them by card).
    public func redemptions(since: Int64) throws(ReminderStoreError) -> [Redemption] {
        try read { db in
            try ReminderStore.fetchAll(
                db, sql: "SELECT itemId, card, at, amount FROM redemption WHERE at >= ? ORDER BY at, id",
                arguments: [since]
            ) { Redemption(itemId: $0[0], card: $0[1], at: $0[2], amount: $0[3]) }
        }
    }
}
