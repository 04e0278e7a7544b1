internal import CSQLite

/// One prepared SQLite statement: bound, stepped, its columns read. Used on its connection's
/// thread only (the `DatabaseQueue` lock), and finalized when the last reference goes.
final class Statement {
    let handle: OpaquePointer
    /// The connection, for error messages (SQLite keeps it open until every statement is finalized).
    private let connection: OpaquePointer
    let path: String
    /// The statement's own text (one statement of a longer script).
    let sql: String
    /// The result columns' names, read once.
    private(set) lazy var columnNames: [String] = (0..<sqlite3_column_count(handle)).map {
        sqlite3_column_name(handle, $0).map { String(cString: $0) } ?? ""
    }

    init(handle: OpaquePointer, connection: OpaquePointer, path: String) {
        self.handle = handle
        self.connection = connection
        self.path = path
        sql = sqlite3_sql(handle).map { String(cString: $0) } ?? ""
    }

    deinit { sqlite3_finalize(handle) }

    /// Runs the statement to its end with `arguments` bound, ignoring any rows.
    func execute(arguments: StatementArguments = StatementArguments()) throws {
        try bind(arguments)
        defer { reset() }
        while try step() {}
    }

    /// Back to before the first step (bindings kept); ends the statement's read of the database.
    func reset() { sqlite3_reset(handle) }

    /// Resets the statement and binds `arguments`, exactly as many as it has parameters.
    func bind(_ arguments: StatementArguments) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        let count = Int(sqlite3_bind_parameter_count(handle))
        guard arguments.values.count == count else {
            throw DatabaseError(
                code: SQLITE_MISUSE,
                message: "\(arguments.values.count) arguments given for \(count) parameters", path: path, sql: sql)
        }
        for (offset, value) in arguments.values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let integer): code = sqlite3_bind_int64(handle, index, integer)
            case .real(let real): code = sqlite3_bind_double(handle, index, real)
            case .text(var text):
                code = text.withUTF8 { bytes in
                    // An empty buffer may have no address, and a null pointer would bind NULL.
                    bytes.isEmpty
                        ? sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
                        : bytes.withMemoryRebound(to: CChar.self) {
                            sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), csqlite_transient())
                        }
                }
            case .blob(let bytes):
                code = bytes.withUnsafeBytes {
                    sqlite3_bind_blob(handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), csqlite_transient())
                }
            }
            guard code == SQLITE_OK else { throw DatabaseError(code: code, connection: connection, path: path, sql: sql) }
        }
    }

    /// Steps once: true when a row is ready to read, false when the statement is done.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            let error = DatabaseError(code: code, connection: connection, path: path, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Column `index` of the current row.
    func value(at index: Int) -> DatabaseValue {
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            // The text first, then its length (SQLite's documented order).
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            guard let bytes = sqlite3_column_blob(handle, column) else { return .blob([]) }
            let count = Int(sqlite3_column_bytes(handle, column))
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    /// The index of the result column `name` (exact, else ignoring ASCII case), if any.
    func columnIndex(_ name: String) -> Int? {
        columnNames.firstIndex(of: name) ?? columnNames.firstIndex { $0.lowercased() == name.lowercased() }
    }
}
