import Foundation
import ReminderCore
import Testing

@_spi(Testing) @testable import ReminderStore

/// Sync's state in the store: every change of an item leaves an outbox row in its own
/// transaction, the migration, and the intents reminderd-sync's calls come down to.
@Suite struct SyncStateTests {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "reminderd-sync-\(UUID().uuidString)/s.sqlite"
    ).path
    let now: Int64 = 1_795_000_000

    func benefit(_ id: String, used: String? = nil, title: String = "Uber Cash") throws -> Item {
        let benefit = Benefit(
            card: "Platinum", amount: try Money.parse("15").get(), period: .monthly,
            amountUsed: try used.map { try Money.parse($0).get() })
        return Item(id: id, title: title, createdAt: now, schedule: .benefit(benefit))
    }

    /// The waiting changes as (item, seq, since, removed).
    func waiting(_ store: ReminderStore) throws -> [String] {
        try store.pendingSync(limit: 100).map { $0.object.itemId + ($0.removed ? " removed" : "") }
    }

    func seq(_ store: ReminderStore, _ id: String) throws -> Int64 {
        try #require(try store.pendingSync(limit: 1000).first { $0.object.itemId == id }?.seq)
    }

    /// A store with one item the server has (pushed, nothing waiting).
    func pushedStore() throws -> (ReminderStore, SyncObject) {
        let store = try ReminderStore(path: path)
        try store.addItems([try benefit("abcd")], at: now)
        let object = try #require(try store.syncObject(itemId: "abcd"))
        try store.recordPushed(
            uid: object.uid, seq: try seq(store, "abcd"), href: "/c/x.ics", etag: "\"1\"", body: "BODY", at: now)
        #expect(try waiting(store) == [])
        return (store, try #require(try store.syncObject(itemId: "abcd")))
    }

    @Test func anAddedItemGetsAUUIDAndWaits() throws {
        let store = try ReminderStore(path: path)
        try store.addItems([try benefit("abcd"), try benefit("efgh")], at: now)
        let uid = try #require(try store.syncObject(itemId: "abcd")?.uid)
        #expect(uid.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}@reminderd/) != nil)
        #expect(try store.syncObject(itemId: "efgh")?.uid != uid)
        #expect(try waiting(store) == ["abcd", "efgh"])
        #expect(try store.pendingSync(limit: 1).map(\.since) == [now])
    }

    @Test func everyKindOfChangeLeavesAnOutboxRow() throws {
        let (store, _) = try pushedStore()
        var seqs: [Int64] = []
        func changed(_ what: String, _ change: () throws -> Void) throws {
            try change()
            #expect(try store.pendingSync(limit: 100).map(\.object.itemId) == ["abcd"], "\(what)")
            let current = try seq(store, "abcd")
            #expect(!seqs.contains(current), "\(what): a new seq")
            seqs.append(current)
        }
        try changed("edit") { try store.recordEdit(try benefit("abcd", title: "Lyft"), changedFields: "title", at: now) }
        try changed("done") {
            try store.recordDone(
                try benefit("abcd"), before: try benefit("abcd"),
                occurrence: OccurrenceRecord(itemId: "abcd", due: now + 100, doneAt: now), redeemed: nil,
                reason: "done", at: now)
        }
        try changed("undo") {
            let step = try #require(try store.latestUndoStep(of: "abcd"))
            try store.recordUndo(
                step, restored: try benefit("abcd"), occurrence: OccurrenceRecord(itemId: "abcd", due: now + 100),
                at: now)
        }
        try changed("snooze") {
            try store.recordSnooze(
                OccurrenceRecord(itemId: "abcd", due: now + 100, snoozedUntil: now + 50),
                history: HistoryRecord(at: now, itemId: "abcd", title: "t", event: .snoozed, reason: "1m"))
        }
        try changed("dismiss") {
            try store.recordDismiss(
                HistoryRecord(at: now + 5, itemId: "abcd", title: "t", event: .dismissed, reason: "closed on screen"))
        }
        #expect(try store.syncObject(itemId: "abcd")?.acknowledgedAt == now + 5, "pushed as its acknowledgement")
        try changed("replace") { try store.addItems([try benefit("abcd")], at: now, replacing: ["abcd"]) }
        #expect(try store.syncObject(itemId: "abcd")?.href == "/c/x.ics", "a restore keeps the server's resource")
        try changed("remove") { try store.removeItem(id: "abcd", title: "t", reason: "", at: now) }
        #expect(try store.pendingSync(limit: 5).map(\.removed) == [true])
    }

    @Test func aPassedOccurrenceIsNoChangeToSync() throws {
        let (store, _) = try pushedStore()
        try store.recordPassed([
            (
                OccurrenceRecord(itemId: "abcd", due: now, passedAt: now),
                HistoryRecord(at: now, itemId: "abcd", title: "t", event: .expired, reason: "")
            )
        ])
        #expect(try waiting(store) == [])
    }

    @Test func aChangeThatFailsLeavesNoOutboxRow() throws {
        let (store, _) = try pushedStore()
        try StoreFaults.failWrites(.history, storeAt: path)
        #expect(throws: ReminderStoreError.self) {
            try store.recordEdit(try benefit("abcd", title: "Lyft"), changedFields: "title", at: now)
        }
        #expect(throws: ReminderStoreError.self) {
            try store.recordDone(
                try benefit("abcd"), before: try benefit("abcd"),
                occurrence: OccurrenceRecord(itemId: "abcd", due: now + 100, doneAt: now), redeemed: nil,
                reason: "done", at: now)
        }
        #expect(throws: ReminderStoreError.self) { try store.removeItem(id: "abcd", title: "t", reason: "", at: now) }
        #expect(try waiting(store) == [])
    }

    @Test func aChangeWhoseOutboxRowCannotBeWrittenIsNotStored() throws {
        let (store, _) = try pushedStore()
        try StoreFaults.failWrites(.syncOutbox, storeAt: path)
        #expect(throws: ReminderStoreError.self) {
            try store.recordEdit(try benefit("abcd", title: "Lyft"), changedFields: "title", at: now)
        }
        #expect(throws: ReminderStoreError.self) { try store.addItems([try benefit("efgh")], at: now) }
        #expect(throws: ReminderStoreError.self) {
            try store.recordDismiss(
                HistoryRecord(at: now, itemId: "abcd", title: "t", event: .dismissed, reason: "closed on screen"))
        }
        #expect(try store.items(zone: .utc, now: now).map(\.title) == ["Uber Cash"])
        #expect(try store.history(limit: 10).map(\.event) == [.added])
    }

    @Test func anItemTheServerNeverHadIsForgottenWhenRemoved() throws {
        let store = try ReminderStore(path: path)
        try store.addItems([try benefit("abcd")], at: now)
        try store.removeItem(id: "abcd", title: "t", reason: "", at: now)
        #expect(try waiting(store) == [])
        #expect(try store.syncObject(itemId: "abcd") == nil)
    }

    @Test func aLaterChangeKeepsTheOldestSinceAndAStalePushDoesNotClearIt() throws {
        let (store, object) = try pushedStore()
        try store.recordEdit(try benefit("abcd", title: "A"), changedFields: "title", at: now + 10)
        let pushing = try seq(store, "abcd")
        try store.recordEdit(try benefit("abcd", title: "B"), changedFields: "title", at: now + 20)
        #expect(try store.pendingSync(limit: 5).map(\.since) == [now + 10])
        try store.recordPushed(uid: object.uid, seq: pushing, href: "/c/x.ics", etag: "\"2\"", body: "A-BODY", at: now)
        #expect(try waiting(store) == ["abcd"], "the change made during the push still waits")
        #expect(try store.syncObject(itemId: "abcd")?.etag == "\"2\"")
        try store.recordPushed(uid: object.uid, seq: try seq(store, "abcd"), href: "/c/x.ics", etag: "\"3\"", body: "B", at: now)
        #expect(try waiting(store) == [])
    }

    @Test func aPushedDeleteDropsTheItemsSyncState() throws {
        let (store, object) = try pushedStore()
        try store.removeItem(id: "abcd", title: "t", reason: "", at: now)
        let row = try #require(try store.pendingSync(limit: 5).first)
        #expect(row.object.href == "/c/x.ics" && row.object.etag == "\"1\"")
        #expect(try store.recordPushed(uid: object.uid, seq: row.seq, href: "/c/x.ics", etag: nil, body: nil, at: now))
        #expect(try store.syncObject(uid: object.uid) == nil)
        #expect(try waiting(store) == [])
        #expect(try !store.recordPushed(uid: object.uid, seq: row.seq, href: "/c/x.ics", etag: nil, body: nil, at: now))
    }

    @Test func aCreateOfAnItemRemovedWhileOnItsWayIsDeletedAgain() throws {
        let store = try ReminderStore(path: path)
        try store.addItems([try benefit("abcd")], at: now)
        let row = try #require(try store.pendingSync(limit: 5).first)
        try store.removeItem(id: "abcd", title: "t", reason: "", at: now)
        #expect(try waiting(store) == [], "never pushed: forgotten")
        #expect(try !store.recordPushed(uid: row.object.uid, seq: row.seq, href: "/c/x.ics", etag: "\"1\"", body: "B", at: now))
        let delete = try #require(try store.pendingSync(limit: 5).first)
        #expect(delete.removed && delete.object.href == "/c/x.ics" && delete.object.etag == "\"1\"")
        try store.recordPushed(uid: row.object.uid, seq: delete.seq, href: "/c/x.ics", etag: nil, body: nil, at: now)
        #expect(try waiting(store) == [])
        #expect(try store.syncObject(uid: row.object.uid) == nil)
    }

    @Test func anotherCollectionStartsOver() throws {
        let (store, _) = try pushedStore()
        let first = try store.beginSync(collection: "https://h/c/", account: "a@h", at: now)
        #expect(first.token == nil)
        #expect(first.resources.map(\.href) == [], "a collection never begun before resets what was known")
        #expect(try waiting(store) == ["abcd"])
        let object = try #require(try store.syncObject(itemId: "abcd"))
        try store.recordPushed(uid: object.uid, seq: try seq(store, "abcd"), href: "/c/x.ics", etag: "\"1\"", body: "B", at: now)
        var batch = SyncBatch()
        batch.token = "t1"
        try store.applySync(batch, at: now)
        let again = try store.beginSync(collection: "https://h/c/", account: "a@h", at: now)
        #expect(again.token == "t1")
        #expect(again.resources.map(\.href) == ["/c/x.ics"] && again.resources.map(\.etag) == ["\"1\""])
        #expect(try waiting(store) == [])
        let other = try store.beginSync(collection: "https://h/d/", account: "a@h", at: now)
        #expect(other.token == nil && other.resources.isEmpty)
        #expect(try waiting(store) == ["abcd"])
        #expect(try store.syncObject(itemId: "abcd")?.body == nil)
        #expect(try store.syncObject(itemId: "abcd")?.uid == object.uid, "the uid is the item's for good")
    }

    /// A token handed out before a write may never name what becomes of the resource written:
    /// a confirmed write (a PUT or a DELETE) forgets it, the next batch with one stores it again.
    @Test func aConfirmedWriteForgetsTheTokenAndTheNextBatchBringsOne() throws {
        let (store, object) = try pushedStore()
        _ = try store.beginSync(collection: "c", account: "a", at: now)
        var batch = SyncBatch()
        batch.token = "t1"
        try store.applySync(batch, at: now)
        #expect(try store.beginSync(collection: "c", account: "a", at: now).token == "t1")
        try store.recordEdit(try benefit("abcd", title: "Lyft"), changedFields: "title", at: now)
        try store.recordPushed(uid: object.uid, seq: try seq(store, "abcd"), href: "/c/x.ics", etag: "\"2\"", body: "L", at: now)
        let after = try store.beginSync(collection: "c", account: "a", at: now)
        #expect(after.token == nil && after.resources.map(\.etag) == ["\"2\""])
        batch.token = "t2"
        try store.applySync(batch, at: now)
        #expect(try store.beginSync(collection: "c", account: "a", at: now).token == "t2")
        try store.removeItem(id: "abcd", title: "Lyft", reason: "", at: now)
        try store.recordPushed(uid: object.uid, seq: try seq(store, "abcd"), href: "/c/x.ics", etag: nil, body: nil, at: now)
        #expect(try store.beginSync(collection: "c", account: "a", at: now).token == nil)
    }

    @Test func aPulledBatchIsOneTransactionWithItsToken() throws {
        let (store, object) = try pushedStore()
        var batch = SyncBatch()
        batch.updated = [try benefit("abcd", title: "Lyft")]
        batch.added = [try benefit("new1")]
        batch.objects = [
            SyncObject(itemId: "abcd", uid: object.uid, href: "/c/x.ics", etag: "\"9\"", body: "NEW"),
            SyncObject(itemId: "new1", uid: "remote@x", href: "/c/y.ics", etag: "\"1\"", body: "Y"),
        ]
        batch.history = [HistoryRecord(at: now, itemId: "abcd", title: "Lyft", event: .editedElsewhere, reason: "title")]
        batch.waiting = ["abcd"]
        batch.token = "t2"
        try StoreFaults.failWrites(.history, storeAt: path)
        #expect(throws: ReminderStoreError.self) { try store.applySync(batch, at: now) }
        #expect(try store.items(zone: .utc, now: now).map(\.title) == ["Uber Cash"])
        #expect(try store.syncObject(itemId: "abcd")?.etag == "\"1\"")
        #expect(try store.beginSync(collection: "c", account: "a", at: now).token == nil)
        #expect(try waiting(store) == ["abcd"], "beginSync put it there, not the failed batch")
    }

    /// A pulled copy waiting to be written back in reminderd's form is no change made here: a
    /// removal elsewhere must not keep the item for it (EngineSyncModelTests seed 29). A change
    /// made here is one, whether a pull came after it or before it.
    @Test func aWriteBackOfAPulledCopyIsNoChangeMadeHere() throws {
        let (store, object) = try pushedStore()
        _ = try store.beginSync(collection: "c", account: "a", at: now)
        try store.recordPushed(uid: object.uid, seq: try seq(store, "abcd"), href: "/c/x.ics", etag: "\"1\"", body: "B", at: now)
        #expect(try !store.syncChangedHere(itemId: "abcd"))
        var batch = SyncBatch()
        batch.waiting = ["abcd"]
        try store.applySync(batch, at: now)
        #expect(try waiting(store) == ["abcd"])
        #expect(try !store.syncChangedHere(itemId: "abcd"), "only the write-back waits")
        try store.recordEdit(try benefit("abcd", title: "Lyft"), changedFields: "title", at: now)
        #expect(try store.syncChangedHere(itemId: "abcd"))
        try store.applySync(batch, at: now)
        #expect(try store.syncChangedHere(itemId: "abcd"), "a pull after the edit leaves it a change made here")
    }

    @Test func aPulledBatchAppliesEverything() throws {
        let (store, object) = try pushedStore()
        _ = try store.beginSync(collection: "c", account: "a", at: now)
        try store.recordPushed(uid: object.uid, seq: try seq(store, "abcd"), href: "/c/x.ics", etag: "\"1\"", body: "B", at: now)
        try store.recordDone(
            try benefit("abcd"), before: try benefit("abcd"),
            occurrence: OccurrenceRecord(itemId: "abcd", due: now + 100, doneAt: now), redeemed: nil, reason: "done",
            at: now)
        var batch = SyncBatch()
        batch.occurrences = [OccurrenceRecord(itemId: "abcd", due: now + 100)]
        batch.settled = ["abcd"]
        batch.token = "t3"
        try store.applySync(batch, at: now)
        #expect(try store.latestUndoStep(of: "abcd") == nil, "undone elsewhere: nothing left to undo here")
        #expect(try waiting(store) == [])
        #expect(try store.beginSync(collection: "c", account: "a", at: now).token == "t3")
        var removal = SyncBatch()
        removal.removed = ["abcd"]
        try store.applySync(removal, at: now)
        #expect(try store.items(zone: .utc, now: now).isEmpty)
        #expect(try store.syncObject(uid: object.uid) == nil)
    }

    @Test func statusFigures() throws {
        let store = try ReminderStore(path: path)
        try store.addItems([try benefit("abcd"), try benefit("efgh")], at: now + 5)
        try store.recordHistory(HistoryRecord(at: now - 31 * 86_400, itemId: "x", title: "", event: .conflict, reason: ""))
        try store.recordHistory(HistoryRecord(at: now, itemId: "x", title: "", event: .conflict, reason: ""))
        _ = try store.beginSync(collection: "https://h/c/", account: "a@h", at: now)
        try store.recordSyncReport(error: "server said 500", at: now + 7)
        var figures = try store.syncStatus(conflictsSince: now - 30 * 86_400)
        #expect(figures.account == "a@h" && figures.collection == "https://h/c/")
        #expect(figures.error == "server said 500" && figures.lastAttempt == now + 7 && figures.lastSync == nil)
        #expect(figures.waiting == 2 && figures.waitingSince == now)
        #expect(figures.conflicts == 1)
        try store.recordSyncReport(error: nil, at: now + 9)
        figures = try store.syncStatus(conflictsSince: now)
        #expect(figures.error == nil && figures.lastSync == now + 9 && figures.lastAttempt == now + 9)
    }

    @Test func theMigrationGivesExistingItemsUIDsAndWaits() throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: path)
        try ReminderStore.migrator.migrate(queue, upTo: "v5-state")
        try queue.write { db in
            try ReminderStore.insertItem(try benefit("abcd"), db)
            try ReminderStore.insertItem(try benefit("efgh"), db)
        }
        let store = try ReminderStore(path: path)
        #expect(try waiting(store) == ["abcd", "efgh"])
        #expect(try store.syncObject(itemId: "abcd")?.uid.hasSuffix("@reminderd") == true)
        #expect(try store.syncObject(itemId: "abcd")?.href == nil)
    }
}
