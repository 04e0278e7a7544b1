
/// One result row, read by column index or name: `row[0]`, `row["title"]`. A row handed to a
/// `forEachRow` body reads the statement in place and is valid only in that body (every start
/// reads whole tables: no row is built per row); `Row.fetchAll` and `fetchOne` copy theirs.
///
/// A value read as a non-optional type must be there and of that type; one that is not (a row
/// edited by hand with `sqlite3`, a bad sector, a newer build's) throws `UnreadableValue` rather
/// than stopping the program: the store's readers leave such a row out (`ReminderStore.fetchAll`)
/// or refuse the command in words. The schema's column types do not prevent it — SQLite stores
/// `'soon'` in an INTEGER column as text.
struct Row {
    private enum Storage {
        case live(Statement)
        case copied(names: [String], values: [DatabaseValue], sql: String)
    }

    private let storage: Storage

    init(live statement: Statement) { storage = .live(statement) }

    /// The current row of `statement`, copied.
    init(copying statement: Statement) {
        storage = .copied(
            names: statement.columnNames, values: statement.columnNames.indices.map { statement.value(at: $0) },
            sql: statement.sql)
    }

    private var names: [String] {
        switch storage {
        case .live(let statement): statement.columnNames
        case .copied(let names, _, _): names
        }
    }

    private var sql: String {
        switch storage {
        case .live(let statement): statement.sql
        case .copied(_, _, let sql): sql
        }
    }

    func databaseValue(at index: Int) -> DatabaseValue {
        switch storage {
        case .live(let statement): statement.value(at: index)
        case .copied(_, let values, _): values[index]
        }
    }

    private func index(of name: String) -> Int? {
        switch storage {
        case .live(let statement): statement.columnIndex(name)
        case .copied(let names, _, _): names.firstIndex(of: name) ?? names.firstIndex { $0.lowercased() == name.lowercased() }
        }
    }

    subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value? {
        get throws {
            let value = databaseValue(at: index)
            if value == .null { return nil }
            guard let converted = Value.fromDatabaseValue(value) else {
                throw UnreadableValue(column: names[index], sql: sql, reason: "\(value.words), not \(Value.typeName)")
            }
            return converted
        }
    }

    subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        get throws {
            guard let value: Value = try self[index] else {
                throw UnreadableValue(column: names[index], sql: sql, reason: "empty (NULL), not \(Value.typeName)")
            }
            return value
        }
    }

    subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value? {
        get throws {
            guard let index = index(of: name) else { return nil }
            return try self[index]
        }
    }

    subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value {
        get throws {
            guard let index = index(of: name) else {
                throw UnreadableValue(column: name, sql: sql, reason: "missing")
            }
            return try self[index]
        }
    }
}

/// A stored value that is not of the type its column holds, or missing: "column due of `SELECT …`
/// is text "soon", not an integer".
struct UnreadableValue: Error, CustomStringConvertible {
    let column: String
    let sql: String
    let reason: String

    var description: String { "column \(column) of `\(sql)` is \(reason)" }
}

extension DatabaseValue {
    /// The value in words, for `UnreadableValue`: `the text "soon"`, text quoted and escaped.
    var words: String {
        switch self {
        case .null: "empty (NULL)"
        case .integer(let integer): "the integer \(integer)"
        case .real(let real): "the number \(real)"
        case .text(let text): "the text \(String(reflecting: text))"
        case .blob(let bytes): "binary data (\(bytes.count) byte\(bytes.count == 1 ? "" : "s"))"
        }
    }
}

extension DatabaseValueConvertible {
    /// The type in words, for `UnreadableValue`.
    static var typeName: String {
        switch Self.self {
        case is Int64.Type, is Int.Type: "an integer"
        case is String.Type: "text"
        case is Bool.Type: "a boolean"
        case is Double.Type: "a number"
        default: "a \(Self.self)"
        }
    }
}

// MARK: - Fetching

extension Statement {
    /// Runs the statement with `arguments`, handing each row to `body` in place.
    func forEachRow(arguments: StatementArguments = StatementArguments(), _ body: (Row) throws -> Void) throws {
        try bind(arguments)
        defer { reset() }
        let row = Row(live: self)
        while try step() { try body(row) }
    }
}

extension Row {
    static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws
        -> [Row]
    {
        var rows: [Row] = []
        let statement = try db.makeStatement(sql: sql)
        try statement.forEachRow(arguments: arguments) { _ in rows.append(Row(copying: statement)) }
        return rows
    }

    static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws
        -> Row?
    {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments)
    }

    static func fetchOne(_ statement: Statement, arguments: StatementArguments = StatementArguments()) throws -> Row? {
        try statement.bind(arguments)
        defer { statement.reset() }
        return try statement.step() ? Row(copying: statement) : nil
    }
}

extension DatabaseValueConvertible {
    /// The first column of the first row; nil when there is no row or the value is NULL.
    static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws
        -> Self?
    {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments)
    }

    static func fetchOne(_ statement: Statement, arguments: StatementArguments = StatementArguments()) throws -> Self? {
        try statement.bind(arguments)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return try read(statement.value(at: 0), of: statement)
    }

    /// The first column of every row; a row whose value is of another type is left out and set
    /// aside on `db`, as `ReminderStore.fetchAll` does.
    static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws
        -> [Self]
    {
        var values: [Self] = []
        let statement = try db.makeStatement(sql: sql)
        try statement.forEachRow(arguments: arguments) { row in
            do { values.append(try row[0]) } catch let unreadable as UnreadableValue {
                db.setAside.append(unreadable.description)
            }
        }
        return values
    }

    private static func read(_ value: DatabaseValue, of statement: Statement) throws -> Self? {
        if value == .null { return nil }
        guard let converted = fromDatabaseValue(value) else {
            throw UnreadableValue(
                column: statement.columnNames[0], sql: statement.sql, reason: "\(value.words), not \(typeName)")
        }
        return converted
    }
}
