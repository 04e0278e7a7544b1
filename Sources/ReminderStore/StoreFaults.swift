/// Faults put into a store file on purpose, for the tests of the store and of what stands on it
/// (the engine's): a kind of state whose writes fail as on a full disk, an item's stored JSON
/// broken. They reach the file through SQLite itself, so a fault outlives a restart, and a test
/// names the state it breaks, never the store's tables or SQL. Not part of the store's API:
/// only `@_spi(Testing) import ReminderStore` sees it.
@_spi(Testing) public enum StoreFaults {
    /// A kind of state the store writes, whose writes can be made to fail.
    public enum Write: Sendable, Equatable {
        /// A new history line, of any item.
        case history
        /// A new undo step (what a Done changed, kept for Undo), from a Done or a restored backup.
        case undoStep
        /// A change queued for the sync server.
        case syncOutbox
        /// A reminder of item `itemId` recorded as shown.
        case fire(itemId: String)
        /// The saved pause taken away (Resume).
        case pauseEnd
    }

    /// Makes every `write` to the store at `path` fail from now on with SQLite's "database or
    /// disk is full", as a full disk would. It is a trigger in the file: it outlives a restart.
    public static func failWrites(_ write: Write, storeAt path: String) throws {
        let (change, table, condition): (String, String, String?) =
            switch write {
            case .history: ("INSERT", "history", nil)
            case .undoStep: ("INSERT", "undoStep", nil)
            case .syncOutbox: ("INSERT", "syncOutbox", nil)
            case .fire(let itemId): ("INSERT", "fire", "NEW.itemId = \(quoted(itemId))")
            case .pauseEnd: ("DELETE", "setting", "OLD.key = 'pausedUntil'")
            }
        try DatabaseQueue(path: path).write { db in
            let name =
                "fail_\(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'") ?? 0)"
            try db.execute(
                sql: """
                    CREATE TRIGGER \(name) BEFORE \(change) ON \(table)\(condition.map { " WHEN \($0)" } ?? "")
                    BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END
                    """)
        }
    }

    /// Overwrites the stored JSON of item `id` with `json` as is (a broken build, a hand edit, a
    /// bad sector), bypassing every check.
    public static func corruptItemJSON(id: String, with json: String, storeAt path: String) throws {
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE item SET json = ? WHERE id = ?", arguments: [json, id])
        }
    }

    /// `text` as an SQL string literal.
    private static func quoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
    }
}
