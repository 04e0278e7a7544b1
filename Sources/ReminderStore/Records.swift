import ReminderCore

/// What the store remembers of one occurrence of an item.
public struct OccurrenceRecord: Sendable, Equatable {
    public var itemId: String
    /// Unix seconds.
    public var due: Int64
    /// When it was marked done, if it was.
    public var doneAt: Int64?
    /// When the next reminder fires after a snooze, if snoozed.
    public var snoozedUntil: Int64?
    /// Set when the occurrence passed without Done (recorded once, as `missed` or `expired`).
    public var passedAt: Int64?

    public init(itemId: String, due: Int64, doneAt: Int64? = nil, snoozedUntil: Int64? = nil, passedAt: Int64? = nil) {
        self.itemId = itemId
        self.due = due
        self.doneAt = doneAt
        self.snoozedUntil = snoozedUntil
        self.passedAt = passedAt
    }
}

/// A reminder that the notification server accepted: never shown again.
public struct FireRecord: Sendable, Equatable {
    public var itemId: String
    public var due: Int64
    /// The scheduled fire time (Unix seconds); a snoozed reminder's is its snooze end.
    public var fireAt: Int64
    public var shownAt: Int64
    /// The server's id for the pop-up.
    public var notificationId: Int64
    /// The lead it stood for (`3d`, `0d`, `2h`; `snooze`, `overdue`), so a reminder whose time a
    /// new reminder time or zone moved is known as shown (`ReminderFire`); nil in rows written
    /// before v8.
    public var lead: String?

    public init(itemId: String, due: Int64, fireAt: Int64, shownAt: Int64, notificationId: Int64, lead: String? = nil) {
        self.itemId = itemId
        self.due = due
        self.fireAt = fireAt
        self.shownAt = shownAt
        self.notificationId = notificationId
        self.lead = lead
    }
}

/// One line of `reminderctl history`.
public struct HistoryRecord: Sendable, Equatable {
    /// The row's id once stored: among lines of the same instant, the later has the larger one.
    public var id: Int64?
    public var at: Int64
    public var itemId: String
    public var title: String
    public var event: HistoryEvent
    public var reason: String

    public init(at: Int64, itemId: String, title: String, event: HistoryEvent, reason: String) {
        self.at = at
        self.itemId = itemId
        self.title = title
        self.event = event
        self.reason = reason
    }
}

// The rows behind the records: the SQLite layer's types are internal, so none reaches the
// public API.

extension ReminderStore {
    /// The rows `sql` selects, each made into a value by `make`. Read in place, one row at a time
    /// (`Row.fetchAll` would copy every row): every start reads whole tables.
    ///
    /// A row with a value `make` cannot read (`UnreadableValue`) is left out of the answer and
    /// kept in the store as it is, and set aside on `db` for the store to report (`read`,
    /// `write`): one row edited by hand must not stop a start or a command that reads the table.
    static func fetchAll<T>(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
        _ make: (Row) throws -> T
    ) throws -> [T] {
        var values: [T] = []
        try db.makeStatement(sql: sql).forEachRow(arguments: arguments) { row in
            do { values.append(try make(row)) } catch let unreadable as UnreadableValue {
                db.setAside.append(unreadable.description)
            }
        }
        return values
    }
}

extension OccurrenceRecord {
    static func fetchAll(_ db: Database) throws -> [OccurrenceRecord] {
        try ReminderStore.fetchAll(db, sql: "SELECT itemId, due, doneAt, snoozedUntil, passedAt FROM occurrence") {
            OccurrenceRecord(
                itemId: try $0[0], due: try $0[1], doneAt: try $0[2], snoozedUntil: try $0[3], passedAt: try $0[4])
        }
    }

    /// Stores the occurrence's state, replacing what was stored of it.
    func save(_ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO occurrence (itemId, due, doneAt, snoozedUntil, passedAt) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (itemId, due) DO UPDATE
                SET doneAt = excluded.doneAt, snoozedUntil = excluded.snoozedUntil, passedAt = excluded.passedAt
                """
        ).execute(arguments: [itemId, due, doneAt, snoozedUntil, passedAt])
    }
}

extension FireRecord {
    static func fetchAll(_ db: Database) throws -> [FireRecord] {
        try ReminderStore.fetchAll(db, sql: "SELECT itemId, due, fireAt, shownAt, notificationId, lead FROM fire") {
            FireRecord(
                itemId: try $0[0], due: try $0[1], fireAt: try $0[2], shownAt: try $0[3], notificationId: try $0[4],
                lead: try $0[5])
        }
    }

    /// Stores the fire; one recorded already (a pop-up shown again) stays as it was.
    func insert(_ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO fire (itemId, due, fireAt, shownAt, notificationId, lead) VALUES (?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [itemId, due, fireAt, shownAt, notificationId, lead])
    }
}

extension HistoryRecord {
    /// The lines `sql` selects (every column of `history`). A line whose event this version does
    /// not know (written by a newer reminderd, or imported by an older one that took any name) is
    /// left out of the answer and kept in the store: one such line must not make `history` and
    /// `export --history` fail.
    static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws
        -> [HistoryRecord]
    {
        try ReminderStore.fetchAll(db, sql: sql, arguments: arguments) { row -> HistoryRecord? in
            guard let event = HistoryEvent(rawValue: try row["event"]) else { return nil }
            var record = HistoryRecord(
                at: try row["at"], itemId: try row["itemId"], title: try row["title"], event: event,
                reason: try row["reason"])
            record.id = try row["id"]
            return record
        }.compactMap { $0 }
    }
}
