import CivilTime
import Foundation
import ReminderCore
import Synchronization
import Testing

@testable import ReminderStore

/// A stored value of the wrong type (a row edited by hand: SQLite keeps `'soon'` in an INTEGER
/// column) in each table the daemon reads at start and on commands: a table read leaves the row
/// out, keeps it, and reports it once; a read of that one row is refused in words. The row reader
/// once stopped the program (`fatalError`), so reminderd died at every start.
@Suite struct UnreadableRowTests {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "reminderd-unreadable-\(UUID().uuidString).sqlite"
    ).path

    func item(_ id: String) -> Item {
        Item(
            id: id, title: "Coffee \(id)", createdAt: 1_795_000_000,
            schedule: .rebuy(Rebuy(everyDays: 30, lastPurchased: LocalDate(uncheckedYear: 2026, month: 11, day: 1))))
    }

    @Test func aRowOfTheWrongTypeIsLeftOutKeptAndReportedOnce() throws {
        let reported = Mutex<[String]>([])
        let store = try ReminderStore(path: path) { row in reported.withLock { $0.append(row) } }
        try store.write { db in
            for id in ["a", "b"] {
                try ReminderStore.insertItem(item(id), db)
                try OccurrenceRecord(itemId: id, due: 10, doneAt: 5).save(db)
                try FireRecord(itemId: id, due: 10, fireAt: 3, shownAt: 3, notificationId: 1).insert(db)
                try ReminderStore.appendHistory(
                    HistoryRecord(at: 7, itemId: id, title: "Coffee", event: .done, reason: ""), db)
                try ReminderStore.insertRedemption(Redemption(itemId: id, card: "Gold", at: 7, amount: "10"), db)
            }
            try ReminderStore.setSetting("lastSeen", "100", db)
            try db.execute(sql: "UPDATE occurrence SET due = 'soon' WHERE itemId = 'a'")
            try db.execute(sql: "UPDATE fire SET shownAt = 'then' WHERE itemId = 'a'")
            try db.execute(sql: "UPDATE history SET at = 'x' WHERE itemId = 'a'")
            try db.execute(sql: "UPDATE redemption SET at = 'x' WHERE itemId = 'a'")
            try db.execute(sql: "UPDATE setting SET value = x'ff' WHERE key = 'lastSeen'")
        }
        for _ in 0..<2 {
            #expect(try store.occurrences().map(\.itemId) == ["b"])
            #expect(try store.fires().map(\.itemId) == ["b"])
            #expect(try store.history(limit: 10).map(\.itemId) == ["b"])
            #expect(try store.redemptions(since: 0).map(\.itemId) == ["b"])
            // Reads no `at`: row a's card and amount are readable, and count.
            #expect(try store.redeemed(since: 0) == ["Gold": try Money.parse("20").get()])
            #expect(try store.lastSeen() == nil)
        }
        let rows = reported.withLock { $0 }
        #expect(rows.count == 5)  // once each, though read twice
        #expect(rows.contains { $0.hasPrefix("column due of `SELECT") && $0.hasSuffix(#"is the text "soon", not an integer"#) })
        #expect(rows.contains { $0.hasPrefix("column value of") && $0.hasSuffix("is binary data (1 byte), not text") })
        // Kept as they are, for the user to repair.
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM occurrence") } == 2)
    }

    @Test func aSingleRowThatCannotBeReadIsRefusedInWords() throws {
        let store = try ReminderStore(path: path)
        try store.write { db in
            try ReminderStore.insertItem(item("a"), db)
            try ReminderStore.insertUndoStep(UndoStep(itemId: "a", itemJSON: "{}", due: 10, doneAt: 5), db)
            try db.execute(sql: "UPDATE undoStep SET due = 'soon'")
        }
        #expect {
            try store.latestUndoStep(of: "a")
        } throws: { error in
            "\(error)".contains(#"a stored row cannot be read (column due of `SELECT"#)
                && "\(error)".contains(#"is the text "soon", not an integer); it is left as it is"#)
        }
    }
}
