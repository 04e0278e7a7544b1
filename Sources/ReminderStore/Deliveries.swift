import GRDB

/// Reminders handed to the notification server whose outcome is not yet recorded.
///
/// A row is written before the `Notify` call and removed in the same transaction that records
/// the reminder as shown, so a daemon that dies in between (a crash, `kill -9`, a server that
/// hung and then went away) finds the row at its next start and owes that reminder: it shows it
/// once more, or reports it missed when its occurrence has passed meanwhile.
public struct DeliveryRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "delivery"

    public var itemId: String
    public var due: Int64
    /// The scheduled fire time this pop-up stands for.
    public var fireAt: Int64
    /// When the pop-up was handed to the server.
    public var startedAt: Int64

    public init(itemId: String, due: Int64, fireAt: Int64, startedAt: Int64) {
        self.itemId = itemId
        self.due = due
        self.fireAt = fireAt
        self.startedAt = startedAt
    }
}

extension ReminderStore {
    /// v4: the `delivery` table (see `DeliveryRecord`).
    static func registerDeliveries(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v4-deliveries") { db in
            try db.create(table: "delivery") { t in
                t.column("itemId", .text).notNull().references("item", onDelete: .cascade)
                t.column("due", .integer).notNull()
                t.column("fireAt", .integer).notNull()
                t.column("startedAt", .integer).notNull()
                t.primaryKey(["itemId", "due", "fireAt"])
            }
        }
    }

    /// Every delivery whose outcome was never recorded.
    public func deliveries() throws(ReminderStoreError) -> [DeliveryRecord] {
        try read { db in try DeliveryRecord.fetchAll(db) }
    }

    /// Notes that a reminder is being handed to the server.
    public static func beginDelivery(_ record: DeliveryRecord, _ db: Database) throws {
        try record.insert(db, onConflict: .replace)
    }

    /// Forgets a delivery whose outcome is now recorded (or deliberately dropped).
    public static func endDelivery(itemId: String, due: Int64, fireAt: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM delivery WHERE itemId = ? AND due = ? AND fireAt = ?").execute(
            arguments: [itemId, due, fireAt])
    }

    /// Forgets every delivery, once a start has taken them into account.
    public static func clearDeliveries(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM delivery")
    }
}
