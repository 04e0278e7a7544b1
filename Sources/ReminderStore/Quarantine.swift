import ReminderCore
import ReminderJSON

/// A stored item whose JSON cannot be read (written by a broken build, edited by hand, a bad
/// sector): kept aside with the reason so the rest of the store works and the user can see and
/// remove it.
public struct QuarantinedItem: Sendable, Equatable {
    public let id: String
    /// The title, when the JSON is readable enough to hold one.
    public let title: String?
    public let reason: String
    public let createdAt: Int64
}

extension ReminderStore {
    /// Marks `rows` unreadable, each with a history line that says why and how to remove it.
    func quarantine(_ rows: [(id: String, json: String, reason: String)], now: Int64) throws(ReminderStoreError) {
        try write { db in
            for row in rows {
                try db.execute(sql: "UPDATE item SET unreadable = ? WHERE id = ?", arguments: [row.reason, row.id])
                try ReminderStore.appendHistory(
                    HistoryRecord(
                        at: now, itemId: row.id, title: ReminderStore.title(in: row.json) ?? "(unreadable)",
                        event: .quarantined,
                        reason:
                            "stored item is unreadable (\(row.reason)); set aside, remove it with: reminderctl remove \(row.id)"
                    ),
                    db)
            }
        }
    }

    /// The items set aside as unreadable, oldest first.
    public func quarantinedItems() throws(ReminderStoreError) -> [QuarantinedItem] {
        try read { db in
            try ReminderStore.fetchAll(
                db,
                sql:
                    "SELECT id, json, unreadable, createdAt FROM item WHERE unreadable IS NOT NULL ORDER BY createdAt, id"
            ) { row in
                QuarantinedItem(
                    id: try row["id"], title: ReminderStore.title(in: try row["json"]), reason: try row["unreadable"],
                    createdAt: try row["createdAt"])
            }
        }
    }

    /// The `title` of a JSON object, if the text parses that far.
    static func title(in json: String) -> String? {
        guard case .object(let fields)? = try? JSONValue.parse(Array(json.utf8), source: "item"),
            case .string(let title)? = fields["title"]
        else { return nil }
        return title
    }
}
