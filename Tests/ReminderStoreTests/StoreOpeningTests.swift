import Foundation
import ReminderCore
import Testing

@testable import ReminderStore

/// Opening a file that is not ours, or is newer, or is busy; and the v5 migration of Undo.
@Suite struct StoreOpeningTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "reminderd-open-\(UUID().uuidString)")
    var path: String { directory.appendingPathComponent("reminderd.sqlite").path }

    init() throws { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }

    func openingFails(_ path: String) -> String? {
        do {
            _ = try ReminderStore(path: path)
            return nil
        } catch { return error.description }
    }

    @Test func anotherProgramsDatabaseIsRefusedAndLeftUntouched() throws {
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "CREATE TABLE foo (bar TEXT); INSERT INTO foo VALUES ('keep me')")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        let failure = try #require(openingFails(path))
        #expect(failure.contains("not a reminderd database (tables foo"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == mode)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aStoreANewerReminderdMigratedIsRefusedAndLeftUntouched() throws {
        _ = try ReminderStore(path: path)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9-future')")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let failure = try #require(openingFails(path))
        #expect(failure.contains("a newer reminderd wrote it (schema steps v9-future"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aWriteWaitsForAnotherProcesssLockInsteadOfFailing() throws {
        let store = try ReminderStore(path: path)
        let other = try DatabaseQueue(path: path)
        let locked = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? other.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN EXCLUSIVE")
                locked.signal()
                // Held for a second of real time: the write must wait through it, not fail.
                Thread.sleep(forTimeInterval: 1)
                try db.execute(sql: "COMMIT")
            }
            done.signal()
        }
        locked.wait()
        try store.write { db in try ReminderStore.setSetting("k", "v", db) }
        done.wait()
        #expect(try store.setting("k") == "v")
    }

    @Test func anUndoSlotFromVersion3BecomesTheFirstUndoStep() throws {
        try DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('v1'), ('v2'), ('v3');
                    CREATE TABLE item (id TEXT PRIMARY KEY, json TEXT NOT NULL, createdAt INTEGER NOT NULL);
                    CREATE TABLE undo (itemId TEXT PRIMARY KEY, itemJSON TEXT NOT NULL, due INTEGER NOT NULL,
                        doneAt INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE fire (itemId TEXT NOT NULL, due INTEGER NOT NULL, fireAt INTEGER NOT NULL,
                        shownAt INTEGER NOT NULL, notificationId INTEGER NOT NULL, PRIMARY KEY (itemId, due, fireAt));
                    INSERT INTO item VALUES ('abcd', '{}', 1);
                    INSERT INTO undo VALUES ('abcd', '{"before": "done"}', 10, 5);
                    """)
        }
        let store = try ReminderStore(path: path)
        let steps = try store.read { db in
            try Row.fetchAll(db, sql: "SELECT itemId, itemJSON, due, doneAt FROM undoStep").map {
                [try $0["itemId"], try $0["itemJSON"], String(try $0["due"] as Int64), String(try $0["doneAt"] as Int64)]
                    as [String]
            }
        }
        #expect(steps == [["abcd", "{\"before\": \"done\"}", "10", "5"]])
    }
}
