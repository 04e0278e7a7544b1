import Foundation
import ReminderCore
import Testing

@testable import ReminderStore

/// The store's own SQLite layer keeps the files GRDB-era builds wrote: they open here with their
/// state, a new file has their schema word for word (so they open one made here), and schema
/// steps keep GRDB's record of them (`grdb_migrations`) and its all-or-nothing steps.
@Suite struct StoreCompatibilityTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "reminderd-compat-\(UUID().uuidString)")
    var path: String { directory.appendingPathComponent("reminderd.sqlite").path }

    init() throws { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }

    /// `sqlite_master` of a store made by the last GRDB-era build (2b20d99, GRDB 7.10), every
    /// schema step applied, as `sqlite3 reminderd.sqlite "SELECT sql FROM sqlite_master"` printed it.
    static let grdbEraSchema = [
        "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)",
        #"CREATE TABLE "item" ("id" TEXT PRIMARY KEY NOT NULL, "json" TEXT NOT NULL, "createdAt" INTEGER NOT NULL, "unreadable" TEXT)"#,
        #"CREATE TABLE "occurrence" ("itemId" TEXT NOT NULL REFERENCES "item"("id") ON DELETE CASCADE, "due" INTEGER NOT NULL, "doneAt" INTEGER, "snoozedUntil" INTEGER, "passedAt" INTEGER, PRIMARY KEY ("itemId", "due"))"#,
        #"CREATE TABLE "fire" ("itemId" TEXT NOT NULL REFERENCES "item"("id") ON DELETE CASCADE, "due" INTEGER NOT NULL, "fireAt" INTEGER NOT NULL, "shownAt" INTEGER NOT NULL, "notificationId" INTEGER NOT NULL, "lead" TEXT, PRIMARY KEY ("itemId", "due", "fireAt"))"#,
        #"CREATE TABLE "history" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "at" INTEGER NOT NULL, "itemId" TEXT NOT NULL, "title" TEXT NOT NULL, "event" TEXT NOT NULL, "reason" TEXT NOT NULL)"#,
        #"CREATE INDEX "history_on_at" ON "history"("at")"#,
        #"CREATE TABLE "setting" ("key" TEXT PRIMARY KEY NOT NULL, "value" TEXT NOT NULL)"#,
        #"CREATE TABLE "redemption" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "itemId" TEXT NOT NULL, "card" TEXT NOT NULL, "at" INTEGER NOT NULL, "amount" TEXT NOT NULL)"#,
        #"CREATE INDEX "redemption_on_itemId" ON "redemption"("itemId")"#,
        #"CREATE INDEX "item_order" ON "item"("createdAt", "id")"#,
        #"CREATE TABLE "delivery" ("itemId" TEXT NOT NULL REFERENCES "item"("id") ON DELETE CASCADE, "due" INTEGER NOT NULL, "fireAt" INTEGER NOT NULL, "startedAt" INTEGER NOT NULL, PRIMARY KEY ("itemId", "due", "fireAt"))"#,
        #"CREATE TABLE "undoStep" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "itemId" TEXT NOT NULL REFERENCES "item"("id") ON DELETE CASCADE, "itemJSON" TEXT NOT NULL, "due" INTEGER NOT NULL, "doneAt" INTEGER NOT NULL)"#,
        #"CREATE INDEX "undoStep_on_itemId" ON "undoStep"("itemId")"#,
        #"CREATE TABLE "syncObject" ("itemId" TEXT PRIMARY KEY NOT NULL, "uid" TEXT NOT NULL UNIQUE, "href" TEXT, "etag" TEXT, "body" TEXT, "acknowledgedAt" INTEGER)"#,
        #"CREATE INDEX "syncObject_on_href" ON "syncObject"("href")"#,
        """
        CREATE TABLE syncOutbox (
            seq INTEGER PRIMARY KEY AUTOINCREMENT, itemId TEXT NOT NULL UNIQUE, since INTEGER NOT NULL, "writeBack" INTEGER NOT NULL DEFAULT 0)
        """,
        #"CREATE TABLE "syncForeign" ("href" TEXT PRIMARY KEY NOT NULL, "etag" TEXT NOT NULL)"#,
    ]

    static let grdbEraSteps = [
        "v1", "v2", "v3", "v4-deliveries", "v5-state", "v6-sync", "v7-sync-ack", "v8-sync-foreign", "v9-fire-lead",
        "v10-sync-write-back",
    ]

    /// The file's schema, each statement's text, in a fixed order.
    func schema(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try String.fetchAll(
                db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY name")
        }
    }

    func appliedSteps(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
        }
    }

    @Test func aStoreAGRDBEraBuildMadeOpensWithItsStateAndTakesWrites() throws {
        let fixture = directory.appendingPathComponent("grdb.sqlite").path
        try DatabaseQueue(path: fixture).write { db in
            for statement in StoreCompatibilityTests.grdbEraSchema { try db.execute(sql: statement) }
            for step in StoreCompatibilityTests.grdbEraSteps {
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [step])
            }
            // Rows as that build wrote them (`reminderctl import`, a Done, a reminder shown).
            try db.execute(
                sql: """
                    INSERT INTO item (id, json, createdAt) VALUES ('erj5', '{"amount":"95","createdAt":"2026-11-26T02:30:56+00:00","due":"2027-03-03","id":"erj5","kind":"fee","title":"Fee 2"}', 1795660256);
                    INSERT INTO item (id, json, createdAt) VALUES ('j7xu', '{"createdAt":"2026-11-26T02:30:56+00:00","everyDays":365,"id":"j7xu","kind":"rebuy","lastPurchased":"2026-04-04","title":"Rebuy 3"}', 1795660257);
                    INSERT INTO occurrence (itemId, due, doneAt) VALUES ('erj5', 1803999600, 1795660300);
                    INSERT INTO fire VALUES ('erj5', 1803999600, 1803740400, 1803740401, 7, '3d');
                    INSERT INTO history (at, itemId, title, event, reason) VALUES (1795660256, 'erj5', 'Fee 2', 'added', 'fee');
                    INSERT INTO setting VALUES ('zone', 'America/New_York');
                    INSERT INTO syncObject (itemId, uid) VALUES ('erj5', '0b1d96bb-bbdd-4daa-9dce-c396797507fe@reminderd');
                    INSERT INTO syncOutbox (itemId, since) VALUES ('erj5', 1795660256);
                    """)
        }
        let store = try ReminderStore(path: fixture)
        #expect(try store.items(zone: .utc, now: 0).map(\.title) == ["Fee 2", "Rebuy 3"])
        #expect(try store.occurrences() == [OccurrenceRecord(itemId: "erj5", due: 1_803_999_600, doneAt: 1_795_660_300)])
        #expect(
            try store.fires() == [
                FireRecord(
                    itemId: "erj5", due: 1_803_999_600, fireAt: 1_803_740_400, shownAt: 1_803_740_401, notificationId: 7,
                    lead: "3d")
            ])
        #expect(try store.history(limit: 5).map(\.event) == [.added])
        #expect(try store.storedZone() == "America/New_York")
        #expect(try store.syncObject(itemId: "erj5")?.uid == "0b1d96bb-bbdd-4daa-9dce-c396797507fe@reminderd")
        #expect(try store.pendingSync(limit: 5).map(\.object.itemId) == ["erj5"])
        // No step ran again, and the schema is as it was.
        #expect(try appliedSteps(fixture) == StoreCompatibilityTests.grdbEraSteps)
        #expect(try schema(fixture) == StoreCompatibilityTests.grdbEraSchema.sorted { name($0) < name($1) })
        // Writes work, foreign keys included: the item's occurrence and fire go with it.
        try store.removeItem(id: "erj5", title: "Fee 2", reason: "test", at: 1_795_660_400)
        #expect(try store.occurrences().isEmpty && store.fires().isEmpty)
    }

    @Test func aNewStoreHasTheSchemaAndStepsAGRDBEraBuildWrote() throws {
        _ = try ReminderStore(path: path)
        #expect(try schema(path) == StoreCompatibilityTests.grdbEraSchema.sorted { name($0) < name($1) })
        #expect(try appliedSteps(path) == StoreCompatibilityTests.grdbEraSteps)
        #expect(ReminderStore.migrator.migrations == StoreCompatibilityTests.grdbEraSteps)
    }

    /// The name a schema statement creates (what `ORDER BY name` sorts by).
    func name(_ statement: String) -> String {
        let words = statement.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "(" })
        return String(words[2]).replacingOccurrences(of: "\"", with: "")
    }

    @Test func aFailedSchemaStepIsRolledBackWholeAndNotRecorded() throws {
        let queue = try DatabaseQueue(path: path)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("a") { db in try db.execute(sql: "CREATE TABLE a (x INTEGER)") }
        migrator.registerMigration("b") { db in
            try db.execute(sql: "CREATE TABLE b (x INTEGER); INSERT INTO a VALUES (1)")
            try db.execute(sql: "INSERT INTO nowhere VALUES (1)")
        }
        #expect {
            try migrator.migrate(queue)
        } throws: { error in
            "\(error)".contains("no such table: nowhere") && "\(error)".contains(path)
        }
        let (tables, rows, applied) = try queue.read { db in
            (
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"),
                try Int.fetchOne(db, sql: "SELECT count(*) FROM a"),
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            )
        }
        #expect(tables == ["a", "grdb_migrations"])
        #expect(rows == 0)
        #expect(applied == ["a"])
        // Foreign keys are enforced again after the failed step.
        #expect(try queue.read { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") } == true)
    }

    @Test func aSchemaStepThatBreaksAReferenceIsRolledBack() throws {
        let queue = try DatabaseQueue(path: path)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("parent") { db in
            try db.execute(
                sql: "CREATE TABLE parent (id TEXT PRIMARY KEY); CREATE TABLE child (id TEXT REFERENCES parent(id))")
        }
        migrator.registerMigration("orphan") { db in try db.execute(sql: "INSERT INTO child VALUES ('none')") }
        #expect {
            try migrator.migrate(queue)
        } throws: { error in
            "\(error)".contains("schema step orphan left a row of child without its parent")
        }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM child") } == 0)
        #expect(try migrator.appliedIdentifiersOf(queue) == ["parent"])
    }

    @Test func aFileThatIsNotADatabaseIsRefusedInWords() throws {
        try Data("not a database, only text".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try ReminderStore(path: path)
        } throws: { error in
            "\(error)".contains("cannot open the store \(path): SQLite error 26 (file is not a database)")
        }
    }
}

extension DatabaseMigrator {
    func appliedIdentifiersOf(_ queue: DatabaseQueue) throws -> Set<String> {
        try queue.read { db in try appliedIdentifiers(db) }
    }
}
