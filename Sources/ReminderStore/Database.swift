internal import CSQLite

/// One connection to an SQLite file, over the system's libsqlite3: what the store needs of it
/// and no more. Opened as GRDB opened it, so files and behaviour stay the same: read-write,
/// created when missing, extended result codes, foreign keys enforced (deleting an item
/// cascades to its state), double-quoted strings refused, and the file checked to be a
/// database before anything else. Used only inside a `DatabaseQueue` access.
final class Database {
    let handle: OpaquePointer
    let path: String
    /// Statements the store runs again and again, prepared once (`cachedStatement`).
    private var statements: [String: Statement] = [:]
    /// Rows the current access left out because a value in them cannot be read
    /// (`ReminderStore.fetchAll`), in words, for the store to report when the access ends.
    var setAside: [String] = []

    /// Opens `path`; `busyTimeout` (seconds) is how long a statement waits for another
    /// connection's lock before failing with SQLITE_BUSY.
    init(path: String, busyTimeout: Double) throws {
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let error = DatabaseError(code: code, connection: connection, path: path)
            sqlite3_close_v2(connection)
            throw error
        }
        handle = connection
        self.path = path
        sqlite3_extended_result_codes(connection, 1)
        if busyTimeout > 0 { sqlite3_busy_timeout(connection, Int32(busyTimeout * 1000)) }
        _ = csqlite_disable_double_quoted_strings(connection)
        try execute(sql: "PRAGMA foreign_keys = ON")
        // A file that is not a database fails here, at opening, with "file is not a database".
        _ = try Row.fetchOne(self, sql: "SELECT * FROM sqlite_master LIMIT 1")
    }

    deinit {
        statements.removeAll()
        // _v2: a statement still referenced elsewhere keeps the connection until it is finalized.
        sqlite3_close_v2(handle)
    }

    /// Prepares the one statement in `sql`.
    func makeStatement(sql: String) throws -> Statement {
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
        guard code == SQLITE_OK else { throw DatabaseError(code: code, connection: handle, path: path, sql: sql) }
        guard let prepared else {
            throw DatabaseError(code: SQLITE_MISUSE, message: "no statement in the text", path: path, sql: sql)
        }
        return Statement(handle: prepared, connection: handle, path: path)
    }

    /// The statement for `sql`, prepared at its first use and kept for the connection's life.
    func cachedStatement(sql: String) throws -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try makeStatement(sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs every statement in `sql` in order; `arguments` are handed out to their parameters
    /// in order, and must all be used.
    func execute(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        var remaining = arguments.values[...]
        try sql.withCString { start in
            var next: UnsafePointer<CChar>? = start
            while let current = next, current.pointee != 0 {
                var prepared: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(handle, current, -1, &prepared, &tail)
                guard code == SQLITE_OK else {
                    throw DatabaseError(code: code, connection: handle, path: path, sql: String(cString: current))
                }
                next = tail
                guard let prepared else { continue }  // only a comment or white space was left
                let statement = Statement(handle: prepared, connection: handle, path: path)
                let count = Int(sqlite3_bind_parameter_count(prepared))
                guard count <= remaining.count else {
                    throw DatabaseError(
                        code: SQLITE_MISUSE, message: "\(arguments.values.count) arguments are too few", path: path,
                        sql: sql)
                }
                var own = StatementArguments()
                own.values = Array(remaining.prefix(count))
                remaining = remaining.dropFirst(count)
                try statement.execute(arguments: own)
            }
        }
        guard remaining.isEmpty else {
            throw DatabaseError(
                code: SQLITE_MISUSE, message: "\(remaining.count) of \(arguments.values.count) arguments left unused",
                path: path, sql: sql)
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changesCount: Int { Int(sqlite3_changes(handle)) }

    /// Whether a transaction is open.
    var isInsideTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    enum CheckpointMode: Int32 {
        case passive = 0, full = 1, restart = 2, truncate = 3  // SQLITE_CHECKPOINT_*
    }

    /// Copies the WAL's committed pages into the database file; `.full` also syncs it.
    func checkpoint(_ mode: CheckpointMode) throws {
        let code = sqlite3_wal_checkpoint_v2(handle, nil, mode.rawValue, nil, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError(code: code, connection: handle, path: path, sql: "checkpoint (\(mode))")
        }
    }

    enum TransactionKind: String { case deferred = "DEFERRED", immediate = "IMMEDIATE" }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws or
    /// the commit fails (the first error is the one thrown), as GRDB's `inTransaction`.
    func inTransaction<T>(_ kind: TransactionKind, _ body: () throws -> T) throws -> T {
        try cachedStatement(sql: "BEGIN \(kind.rawValue) TRANSACTION").execute()
        do {
            let result = try body()
            // SQLite rolls back by itself after some errors (a full disk, an I/O error): a body
            // that caught one must not commit a half, nor be told "no transaction is active".
            guard isInsideTransaction else {
                throw DatabaseError(
                    code: SQLITE_ABORT, message: "the transaction was rolled back by SQLite after an error", path: path)
            }
            try cachedStatement(sql: "COMMIT TRANSACTION").execute()
            return result
        } catch {
            if isInsideTransaction { try? cachedStatement(sql: "ROLLBACK TRANSACTION").execute() }
            throw error
        }
    }
}
