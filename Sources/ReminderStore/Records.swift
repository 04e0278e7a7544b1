import GRDB
import ReminderCore

/// What the store remembers of one occurrence of an item.
public struct OccurrenceRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "occurrence"

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
public struct FireRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "fire"

    public var itemId: String
    public var due: Int64
    /// The scheduled fire time (Unix seconds); a snoozed reminder's is its snooze end.
    public var fireAt: Int64
    public var shownAt: Int64
    /// The server's id for the pop-up.
    public var notificationId: Int64

    public init(itemId: String, due: Int64, fireAt: Int64, shownAt: Int64, notificationId: Int64) {
        self.itemId = itemId
        self.due = due
        self.fireAt = fireAt
        self.shownAt = shownAt
        self.notificationId = notificationId
    }
}

/// One line of `reminderctl history`.
public struct HistoryRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "history"

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

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
