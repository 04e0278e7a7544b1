internal import GRDB

/// Faults put into a store file on purpose, for tests on the far side of the store (the engine's):
/// they reach the file through SQLite itself, so that side never needs GRDB.
public enum StoreFaults {
    /// A kind of row change a trigger can refuse.
    public enum Change: String, Sendable {
        case insert = "INSERT"
        case update = "UPDATE"
        case delete = "DELETE"
    }

    /// Makes every `change` to `table` in the store at `path` fail from now on, with SQLite's
    /// "database or disk is full", as a full disk would; `condition` (SQL on the trigger's `NEW`
    /// or `OLD` row) narrows it to some rows. The trigger is in the file: it outlives a restart.
    public static func failWrites(
        _ change: Change, on table: String, when condition: String? = nil, storeAt path: String
    ) throws {
        try DatabaseQueue(path: path).write { db in
            let name =
                "fail_\(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'") ?? 0)"
            try db.execute(
                sql: """
                    CREATE TRIGGER \(name) BEFORE \(change.rawValue) ON \(table)\(condition.map { " WHEN \($0)" } ?? "")
                    BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END
                    """)
        }
    }

    /// Overwrites an item's stored JSON with `json` as is (a broken build, a hand edit, a bad
    /// sector), bypassing every check.
    public static func overwriteItemJSON(id: String, with json: String, storeAt path: String) throws {
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE item SET json = ? WHERE id = ?", arguments: [json, id])
        }
    }
}
