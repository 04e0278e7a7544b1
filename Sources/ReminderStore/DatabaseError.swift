internal import CSQLite

/// An SQLite failure in words: the result code with SQLite's name for it, SQLite's message, the
/// database file, and the statement when there was one.
struct DatabaseError: Error, CustomStringConvertible {
    /// The extended result code (`SQLITE_IOERR_FSYNC`, `SQLITE_CONSTRAINT_FOREIGNKEY`, …).
    let extendedResultCode: Int32
    let message: String
    let path: String
    let sql: String?

    /// The primary result code (`SQLITE_BUSY`, `SQLITE_FULL`, …).
    var resultCode: Int32 { extendedResultCode & 0xFF }

    init(code: Int32, message: String, path: String, sql: String? = nil) {
        extendedResultCode = code
        self.message = message
        self.path = path
        self.sql = sql
    }

    /// The error the connection `handle` reports now, after a call returned `code`.
    init(code: Int32, connection handle: OpaquePointer?, path: String, sql: String? = nil) {
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        self.init(
            code: code, message: message ?? sqlite3_errstr(code).map { String(cString: $0) } ?? "unknown error",
            path: path, sql: sql)
    }

    /// "SQLite error 19 (constraint failed): UNIQUE constraint failed: item.id, in /path/x.sqlite,
    /// while executing `INSERT …`"; an extended code is named after the primary one
    /// ("SQLite error 10 (disk I/O error, extended code 4874)").
    var description: String {
        let name = sqlite3_errstr(resultCode).map { String(cString: $0) } ?? "unknown result code"
        let extended = extendedResultCode == resultCode ? "" : ", extended code \(extendedResultCode)"
        var text = "SQLite error \(resultCode) (\(name)\(extended)): \(message), in \(path)"
        if let sql { text += ", while executing `\(sql)`" }
        return text
    }
}
