/// The store's schema steps, applied once each, in order, and recorded by name in the table
/// GRDB's `DatabaseMigrator` kept them in, `grdb_migrations(identifier TEXT NOT NULL PRIMARY KEY)`:
/// a store written by a GRDB-era reminderd opens here, and one written here opens there.
///
/// Each step runs as GRDB ran it: foreign keys off around one IMMEDIATE transaction that runs
/// the step, records its name and checks the foreign keys (`PRAGMA foreign_key_check`); a step
/// that throws, or leaves a broken reference, is rolled back whole and not recorded.
struct DatabaseMigrator {
    private var steps: [(identifier: String, migrate: (Database) throws -> Void)] = []

    /// The registered step names, in order.
    var migrations: [String] { steps.map(\.identifier) }

    mutating func registerMigration(_ identifier: String, migrate: @escaping (Database) throws -> Void) {
        precondition(!migrations.contains(identifier), "schema step \(identifier) registered twice")
        steps.append((identifier, migrate))
    }

    /// Every step name the file records, known here or not.
    func appliedIdentifiers(_ db: Database) throws -> Set<String> {
        guard try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'") == true
        else { return [] }
        return Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
    }

    /// Whether the file records a step this build does not know (a newer reminderd's).
    func hasBeenSuperseded(_ db: Database) throws -> Bool {
        let known = Set(migrations)
        return try appliedIdentifiers(db).contains { !known.contains($0) }
    }

    /// Applies the steps not yet applied, up to and including `target` (every step when nil).
    func migrate(_ queue: DatabaseQueue, upTo target: String? = nil) throws {
        let last = target.flatMap { target in steps.firstIndex { $0.identifier == target } } ?? steps.count - 1
        precondition(target == nil || last < steps.count && steps[last].identifier == target, "unknown schema step \(target ?? "")")
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            let applied = try appliedIdentifiers(db)
            for step in steps[...last] where !applied.contains(step.identifier) {
                try run(step, db)
            }
        }
    }

    private func run(_ step: (identifier: String, migrate: (Database) throws -> Void), _ db: Database) throws {
        // Foreign keys cannot be switched inside a transaction; off, a step may rebuild a table.
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
        try db.inTransaction(.immediate) {
            try step.migrate(db)
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [step.identifier])
            if let broken = try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") {
                let table: String = try broken[0]
                let parent: String = try broken[2]
                throw DatabaseError(
                    code: 787,  // SQLITE_CONSTRAINT_FOREIGNKEY
                    message: "schema step \(step.identifier) left a row of \(table) without its \(parent)",
                    path: db.path)
            }
        }
    }
}
