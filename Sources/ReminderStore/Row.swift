internal import CSQLite

/// One result row, read by column index or name: `row[0]`, `row["title"]`. A row handed to a
/// `forEachRow` body reads the statement in place and is valid only in that body (every start
/// reads whole tables: no row is built per row); `Row.fetchAll` and `fetchOne` copy theirs.
///
/// A value read as a non-optional type must be there and of that type, or the read stops the
/// program (as GRDB's did): the schema's NOT NULL columns make that a programming error.
struct Row {
    private enum Storage {
        case live(Statement)
        case copied(names: [String], values: [DatabaseValue])
    }

    private let storage: Storage

    init(live statement: Statement) { storage = .live(statement) }

    /// The current row of `statement`, copied.
    init(copying statement: Statement) {
        storage = .copied(
            names: statement.columnNames, values: statement.columnNames.indices.map { statement.value(at: $0) })
    }

    private var names: [String] {
        switch storage {
        case .live(let statement): statement.columnNames
        case .copied(let names, _): names
        }
    }

    private var sql: String {
        if case .live(let statement) = storage { return statement.sql }
        return "a copied row"
    }

    func databaseValue(at index: Int) -> DatabaseValue {
        switch storage {
        case .live(let statement): statement.value(at: index)
        case .copied(_, let values): values[index]
        }
    }

    private func index(of name: String) -> Int? {
        switch storage {
        case .live(let statement): statement.columnIndex(name)
        case .copied(let names, _): names.firstIndex(of: name) ?? names.firstIndex { $0.lowercased() == name.lowercased() }
        }
    }

    subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value? {
        let value = databaseValue(at: index)
        if value == .null { return nil }
        guard let converted = Value.fromDatabaseValue(value) else {
            fatalError("column \(index) (\(names[index])) of \(sql) is \(value), not a \(Value.self)")
        }
        return converted
    }

    subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        guard let value: Value = self[index] else { fatalError("column \(index) (\(names[index])) of \(sql) is NULL") }
        return value
    }

    subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value? {
        guard let index = index(of: name) else { return nil }
        return self[index]
    }

    subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value {
        guard let index = index(of: name) else { fatalError("no column \(name) in \(sql)") }
        return self[index]
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

    /// The first column of every row.
    static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws
        -> [Self]
    {
        var values: [Self] = []
        let statement = try db.makeStatement(sql: sql)
        try statement.forEachRow(arguments: arguments) { row in
            guard let value = try read(row.databaseValue(at: 0), of: statement) else {
                throw DatabaseError(
                    code: SQLITE_MISMATCH, message: "a NULL where a \(Self.self) was expected", path: statement.path,
                    sql: statement.sql)
            }
            values.append(value)
        }
        return values
    }

    private static func read(_ value: DatabaseValue, of statement: Statement) throws -> Self? {
        if value == .null { return nil }
        guard let converted = fromDatabaseValue(value) else {
            throw DatabaseError(
                code: SQLITE_MISMATCH, message: "\(value) is not a \(Self.self)", path: statement.path,
                sql: statement.sql)
        }
        return converted
    }
}
