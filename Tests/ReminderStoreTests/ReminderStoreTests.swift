import CivilTime
import Foundation
import ReminderCore
import Testing

@testable import ReminderStore

@Suite struct ReminderStoreTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "reminderd-store-\(UUID().uuidString)")

    func item(_ id: String, title: String = "Coffee") -> Item {
        Item(
            id: id, title: title, createdAt: 1_795_000_000,
            schedule: .rebuy(Rebuy(everyDays: 30, lastPurchased: LocalDate(uncheckedYear: 2026, month: 11, day: 1))))
    }

    @Test func itemsSurviveReopeningAndTheFileIsPrivate() throws {
        let path = directory.appendingPathComponent("nested/reminderd.sqlite").path
        do {
            let store = try ReminderStore(path: path)
            try store.write { db in
                try ReminderStore.insertItem(item("abcd"), db)
                try ReminderStore.insertItem(item("efgh", title: "Tea"), db)
            }
        }
        let reopened = try ReminderStore(path: path)
        #expect(try reopened.items(zone: .utc, now: 0).map(\.id) == ["abcd", "efgh"])
        #expect(try reopened.integrityCheck() == "ok")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("nested").path)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
    }

    @Test func aFailedTransactionLeavesNothingBehind() throws {
        let store = try ReminderStore(path: directory.appendingPathComponent("s.sqlite").path)
        #expect(throws: ReminderStoreError.self) {
            try store.write { db in
                try ReminderStore.insertItem(item("abcd"), db)
                try ReminderStore.insertItem(item("abcd"), db)  // duplicate key: the whole change fails
            }
        }
        #expect(try store.items(zone: .utc, now: 0).isEmpty)
    }

    @Test func removingAnItemRemovesItsOccurrencesAndFires() throws {
        let store = try ReminderStore(path: directory.appendingPathComponent("s.sqlite").path)
        try store.write { db in
            try ReminderStore.insertItem(item("abcd"), db)
            try OccurrenceRecord(itemId: "abcd", due: 10, doneAt: 5).save(db)
            try FireRecord(itemId: "abcd", due: 10, fireAt: 3, shownAt: 3, notificationId: 1).insert(db)
        }
        #expect(try store.occurrences().count == 1)
        try store.write { db in try ReminderStore.deleteItem(id: "abcd", db) }
        #expect(try store.occurrences().isEmpty)
        #expect(try store.fires().isEmpty)
    }

    @Test func historyComesNewestFirst() throws {
        let store = try ReminderStore(path: directory.appendingPathComponent("s.sqlite").path)
        try store.write { db in
            for at in [3, 1, 2] as [Int64] {
                try ReminderStore.appendHistory(
                    HistoryRecord(at: at, itemId: "a", title: "A", event: .fired, reason: "lead 1d"), db)
            }
        }
        #expect(try store.history(limit: 2).map(\.at) == [3, 2])
    }

    @Test func historyFiltersBySinceAndItemAndOldEntriesArePruned() throws {
        let store = try ReminderStore(path: directory.appendingPathComponent("s.sqlite").path)
        try store.write { db in
            for (at, item) in [(1, "a"), (2, "b"), (3, "a"), (4, "b")] as [(Int64, String)] {
                try ReminderStore.appendHistory(
                    HistoryRecord(at: at, itemId: item, title: item, event: .fired, reason: ""), db)
            }
        }
        #expect(try store.history(limit: 10, itemId: "a").map(\.at) == [3, 1])
        #expect(try store.history(limit: 10, since: 3).map(\.at) == [4, 3])
        #expect(try store.pruneHistory(before: 3) == 2)
        #expect(try store.history(limit: 10).map(\.at) == [4, 3])
    }

    @Test func aHistoryLineOfAnUnknownEventIsLeftOutOfReadsAndKept() throws {
        let store = try ReminderStore(path: directory.appendingPathComponent("s.sqlite").path)
        try store.write { db in
            try db.execute(
                sql: "INSERT INTO history (at, itemId, title, event, reason) VALUES (1, 'a', 'A', 'exploded', '')")
            try db.execute(
                sql: "INSERT INTO history (at, itemId, title, event, reason) VALUES (2, 'a', 'A', 'done', '')")
        }
        #expect(try store.history(limit: 10).map(\.event) == [.done])
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM history") } == 2)
    }

    @Test func fireRecordsOfOccurrencesConcludedLongAgoArePrunedAndOpenOnesKept() throws {
        let store = try ReminderStore(path: directory.appendingPathComponent("s.sqlite").path)
        try store.write { db in
            try ReminderStore.insertItem(item("abcd"), db)
            for due in [100, 200, 300, 5_000] as [Int64] {
                try FireRecord(itemId: "abcd", due: due, fireAt: due - 50, shownAt: due - 50, notificationId: 1)
                    .insert(db)
            }
            try OccurrenceRecord(itemId: "abcd", due: 100, doneAt: 90).save(db)
            try OccurrenceRecord(itemId: "abcd", due: 200, passedAt: 200).save(db)
            try OccurrenceRecord(itemId: "abcd", due: 5_000, doneAt: 4_990).save(db)
            // due 300: shown, never done nor passed (an overdue rebuy): its fire must stay, or it
            // would remind again.
        }
        try store.pruneHistory(before: 1_000)
        #expect(try store.fires().map(\.due).sorted() == [300, 5_000])
    }

    @Test func anUnopenableStoreIsRefusedWithItsPath() {
        #expect(throws: ReminderStoreError.self) { try ReminderStore(path: "/proc/nope/reminderd.sqlite") }
    }
}
