import ReminderCore

/// Reminders handed to the notification server whose outcome is not yet recorded.
///
/// A row is written before the `Notify` call and removed in the same transaction that records
/// the reminder as shown, so a daemon that dies in between (a crash, `kill -9`, a server that
/// hung and then went away) finds the row at its next start and owes that reminder: it shows it
/// once more, or reports it missed when its occurrence has passed meanwhile.
public struct DeliveryRecord: Sendable, Equatable {
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
            try db.execute(
                sql: """
                    CREATE TABLE "delivery" ("itemId" TEXT NOT NULL REFERENCES "item"("id") ON DELETE CASCADE, \
                    "due" INTEGER NOT NULL, "fireAt" INTEGER NOT NULL, "startedAt" INTEGER NOT NULL, \
                    PRIMARY KEY ("itemId", "due", "fireAt"))
                    """)
        }
    }

    /// Every delivery whose outcome was never recorded.
    public func deliveries() throws(ReminderStoreError) -> [DeliveryRecord] {
        try read { db in
            try ReminderStore.fetchAll(db, sql: "SELECT itemId, due, fireAt, startedAt FROM delivery") {
                DeliveryRecord(itemId: try $0[0], due: try $0[1], fireAt: try $0[2], startedAt: try $0[3])
            }
        }
    }

    /// Notes, before the `Notify` call, that these reminders are being handed to the server.
    public func beginDeliveries(_ records: [DeliveryRecord]) throws(ReminderStoreError) {
        try write { db in
            for record in records {
                try db.cachedStatement(
                    sql: "INSERT OR REPLACE INTO delivery (itemId, due, fireAt, startedAt) VALUES (?, ?, ?, ?)"
                ).execute(arguments: [record.itemId, record.due, record.fireAt, record.startedAt])
            }
        }
    }

    /// Forgets deliveries a start has taken into account (shown after all, done, or gone).
    public func endDeliveries(_ records: [DeliveryRecord]) throws(ReminderStoreError) {
        try write { db in
            for record in records {
                try ReminderStore.endDelivery(itemId: record.itemId, due: record.due, fireAt: record.fireAt, db)
            }
        }
    }

    /// Records reminders the server accepted as pop-up `notificationId`, in one transaction: each
    /// fire (never shown again), the end of its delivery, and its history line.
    public func recordShown(_ reminders: [ShownReminder], notificationId: Int64, at now: Int64)
        throws(ReminderStoreError)
    {
        try write { db in
            for reminder in reminders {
                for fire in reminder.fires {
                    try ReminderStore.endDelivery(itemId: reminder.itemId, due: reminder.due, fireAt: fire.at, db)
                    try FireRecord(
                        itemId: reminder.itemId, due: reminder.due, fireAt: fire.at, shownAt: now,
                        notificationId: notificationId, lead: fire.lead
                    ).insert(db)
                }
                try ReminderStore.appendHistory(
                    HistoryRecord(
                        at: now, itemId: reminder.itemId, title: reminder.title, event: reminder.event,
                        reason: reminder.reason), db)
            }
        }
    }

    /// Forgets a delivery whose outcome is now recorded (or deliberately dropped).
    static func endDelivery(itemId: String, due: Int64, fireAt: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM delivery WHERE itemId = ? AND due = ? AND fireAt = ?").execute(
            arguments: [itemId, due, fireAt])
    }
}

/// One scheduled reminder of an occurrence: when it fires and the lead it stands for.
///
/// A shown reminder is known by its occurrence and lead, not only by its instant: a new
/// reminder time, a new zone or an edit that keeps the occurrence moves the instant of a lead
/// already shown, and it must not be shown again (CONTRACT, "How reminderd keeps its promises").
/// A snooze's end and an overdue rebuy's reminder have no lead of that kind: they are known by
/// their instant (`tellsLead` false).
public struct ReminderFire: Hashable, Sendable {
    /// Unix seconds.
    public var at: Int64
    /// `3d`, `0d`, `2h`, or `snooze` / `overdue`.
    public var lead: String

    public init(at: Int64, lead: String) {
        self.at = at
        self.lead = lead
    }

    /// The lead of a snooze's end.
    public static let snoozeLead = "snooze"
    /// The lead of an overdue rebuy's one reminder.
    public static let overdueLead = "overdue"

    /// Whether the lead alone tells which reminder of its occurrence this is.
    /// Not a repeat's (`repeat 2`): each lead's reminder has a series of its own.
    public var tellsLead: Bool {
        lead != ReminderFire.snoozeLead && lead != ReminderFire.overdueLead && RepeatRule.number(ofLead: lead) == nil
    }
}

/// One reminder of a pop-up the server accepted: the fires it stands for, and its history
/// line (`fired`, or `reshown` on a new server).
public struct ShownReminder: Sendable, Equatable {
    public var itemId: String
    public var due: Int64
    public var fires: [ReminderFire]
    public var title: String
    public var event: HistoryEvent
    public var reason: String

    public init(itemId: String, due: Int64, fires: [ReminderFire], title: String, event: HistoryEvent, reason: String) {
        self.itemId = itemId
        self.due = due
        self.fires = fires
        self.title = title
        self.event = event
        self.reason = reason
    }
}
