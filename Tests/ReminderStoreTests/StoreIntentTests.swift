import Foundation
import ReminderCore
@_spi(Testing) import ReminderStore
import Testing

/// The store's intent-level writes: each change the daemon makes is one call, one transaction.
@Suite struct StoreIntentTests {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "reminderd-intents-\(UUID().uuidString)/s.sqlite"
    ).path
    let now: Int64 = 1_795_000_000

    /// A benefit as added, nothing used: what Undo restores.
    var fresh: String { (try? benefit("abcd").jsonText) ?? "" }

    func money(_ text: String) throws -> Money { try Money.parse(text).get() }

    func benefit(_ id: String, used: String? = nil) throws -> Item {
        let benefit = Benefit(
            card: "Platinum", amount: try money("15"), period: .monthly, amountUsed: try used.map(money))
        return Item(id: id, title: "Uber Cash", createdAt: now, schedule: .benefit(benefit))
    }

    func events(_ store: ReminderStore, item: String? = nil) throws -> [HistoryEvent] {
        try store.history(limit: 100, itemId: item).reversed().map(\.event)
    }

    @Test func aDoneIsKeptWithItsUndoStepAndRedemptionAndUndoTakesAllBack() throws {
        let store = try ReminderStore(path: path)
        try store.addItems([try benefit("abcd")], at: now)
        let done = try benefit("abcd", used: "5")
        try store.recordDone(
            done, before: try benefit("abcd"),
            occurrence: OccurrenceRecord(itemId: "abcd", due: now + 100, doneAt: now),
            redeemed: Redemption(itemId: "abcd", card: "Platinum", at: now, amount: "15"), reason: "done", at: now)
        #expect(try store.occurrences() == [OccurrenceRecord(itemId: "abcd", due: now + 100, doneAt: now)])
        #expect(try store.redeemed(since: now) == ["Platinum": try money("15")])
        #expect(try store.usedRecently(limit: 5).map(\.itemId) == ["abcd"])
        let step = try #require(try store.latestUndoStep(of: "abcd"))
        #expect(step.itemJSON == fresh)
        #expect((step.due, step.doneAt) == (now + 100, now))

        try store.recordUndo(
            step, restored: try benefit("abcd"), occurrence: OccurrenceRecord(itemId: "abcd", due: now + 100),
            at: now + 1)
        #expect(try store.latestUndoStep(of: "abcd") == nil)
        #expect(try store.redeemed(since: now).isEmpty)
        #expect(try store.usedRecently(limit: 5).isEmpty)
        #expect(try store.occurrences().first?.doneAt == nil)
        #expect(try store.items(zone: .utc, now: now).first?.jsonText == fresh)
        #expect(try events(store) == [.added, .done, .undone])
    }

    @Test func everyDoneIsAnUndoStepNewestFirst() throws {
        let store = try ReminderStore(path: path)
        try store.addItems([try benefit("abcd")], at: now)
        for (index, used) in ["5", "10"].enumerated() {
            try store.recordDone(
                try benefit("abcd", used: used), before: try benefit("abcd"), occurrence: nil, redeemed: nil,
                reason: "\(used) used", at: now + Int64(index))
        }
        #expect(try store.latestUndoStep(of: "abcd")?.doneAt == now + 1)
        #expect(try store.latestUndoStep(of: "abcd")?.due == 0)  // no occurrence marked
        #expect(try store.latestUndoStep(of: "other") == nil)
    }

    @Test func aDoneWhoseHistoryLineCannotBeWrittenLeavesNothingBehind() throws {
        let store = try ReminderStore(path: path)
        try store.addItems([try benefit("abcd")], at: now)
        try StoreFaults.failWrites(.history, storeAt: path)
        #expect(throws: ReminderStoreError.self) {
            try store.recordDone(
                try benefit("abcd", used: "5"), before: try benefit("abcd"),
                occurrence: OccurrenceRecord(itemId: "abcd", due: now + 100, doneAt: now),
                redeemed: Redemption(itemId: "abcd", card: "Platinum", at: now, amount: "5"), reason: "done", at: now)
        }
        #expect(try store.latestUndoStep(of: "abcd") == nil)
        #expect(try store.redeemed(since: 0).isEmpty)
        #expect(try store.occurrences().isEmpty)
        #expect(try store.items(zone: .utc, now: now).first?.jsonText == fresh)
    }

    @Test func aShownReminderIsAFireItsDeliveryEndsAndHistorySaysHow() throws {
        let store = try ReminderStore(path: path)
        try store.addItems([try benefit("abcd"), try benefit("efgh")], at: now)
        try store.beginDeliveries([
            DeliveryRecord(itemId: "abcd", due: 500, fireAt: 100, startedAt: now),
            DeliveryRecord(itemId: "abcd", due: 500, fireAt: 200, startedAt: now),
            DeliveryRecord(itemId: "efgh", due: 500, fireAt: 100, startedAt: now),
        ])
        #expect(try store.deliveries().count == 3)
        try store.recordShown(
            [
                ShownReminder(
                    itemId: "abcd", due: 500, fires: [ReminderFire(at: 100, lead: "2d"), ReminderFire(at: 200, lead: "1d")],
                    title: "Uber Cash", event: .fired, reason: "lead 1d")
            ], notificationId: 7, at: now)
        #expect(try store.deliveries().map(\.itemId) == ["efgh"])
        #expect(try store.fires().map(\.fireAt).sorted() == [100, 200])
        #expect(try store.fires().sorted { $0.fireAt < $1.fireAt }.map(\.lead) == ["2d", "1d"])
        #expect(try store.fires().allSatisfy { $0.notificationId == 7 && $0.shownAt == now })
        // Shown again on a new server: the fires stay as they were, history says "reshown".
        try store.recordShown(
            [
                ShownReminder(
                    itemId: "abcd", due: 500, fires: [ReminderFire(at: 100, lead: "2d")], title: "Uber Cash",
                    event: .reshown, reason: "")
            ],
            notificationId: 9, at: now + 1)
        #expect(try store.fires().count == 2)
        #expect(try events(store, item: "abcd") == [.added, .fired, .reshown])
        try store.endDeliveries(try store.deliveries())
        #expect(try store.deliveries().isEmpty)
    }

    @Test func passesAndSnoozesAreStoredWithTheirHistoryLines() throws {
        let store = try ReminderStore(path: path)
        try store.addItems([try benefit("abcd")], at: now)
        try store.recordSnooze(
            OccurrenceRecord(itemId: "abcd", due: 500, snoozedUntil: 400),
            history: HistoryRecord(at: now, itemId: "abcd", title: "Uber Cash", event: .snoozed, reason: "1h"))
        try store.recordPassed([
            (
                OccurrenceRecord(itemId: "abcd", due: 500, snoozedUntil: 400, passedAt: 500),
                HistoryRecord(at: now + 1, itemId: "abcd", title: "Uber Cash", event: .expired, reason: "")
            ),
            (
                OccurrenceRecord(itemId: "abcd", due: 600, passedAt: 600),
                HistoryRecord(at: now + 1, itemId: "abcd", title: "Uber Cash", event: .missed, reason: "")
            ),
        ])
        #expect(try store.occurrences().sorted { $0.due < $1.due }.map(\.passedAt) == [500, 600])
        #expect(try events(store) == [.added, .snoozed, .expired, .missed])
        #expect(try store.history(limit: 5, event: .missed).count == 1)
    }

    @Test func thePauseAndLastSeenAreKeptAcrossReopening() throws {
        do {
            let store = try ReminderStore(path: path)
            #expect(try store.savedPause() == nil)
            #expect(try store.lastSeen() == nil)
            try store.savePause("untilResumed")
            try store.saveLastSeen(now)
        }
        let store = try ReminderStore(path: path)
        #expect(try store.savedPause() == "untilResumed")
        #expect(try store.lastSeen() == now)
        try store.savePause(nil)
        #expect(try store.savedPause() == nil)
    }

    @Test func editsAndRemovalsAreStoredWithTheirHistoryLines() throws {
        let store = try ReminderStore(path: path)
        try store.addItems([try benefit("abcd")], at: now)
        var edited = try benefit("abcd")
        edited.title = "Uber"
        try store.recordEdit(edited, changedFields: "title", at: now)
        #expect(try store.items(zone: .utc, now: now).map(\.title) == ["Uber"])
        try store.recordSnooze(
            OccurrenceRecord(itemId: "abcd", due: 500, snoozedUntil: 400),
            history: HistoryRecord(at: now, itemId: "abcd", title: "Uber", event: .snoozed, reason: ""))
        try store.removeItem(id: "abcd", title: "Uber", reason: "", at: now)
        #expect(try store.items(zone: .utc, now: now).isEmpty)
        #expect(try store.occurrences().isEmpty)
        #expect(try store.history(limit: 1).first?.event == .removed)
        #expect(try store.history(limit: 5, event: .edited).first?.reason == "title")
    }

    @Test func aRestoreWritesTheBackupsStateAndReplacesTheRedemptionsOfTheSameIds() throws {
        let store = try ReminderStore(path: path)
        try store.addItems([try benefit("abcd")], at: now)
        try store.recordDone(
            try benefit("abcd"), before: try benefit("abcd"), occurrence: nil,
            redeemed: Redemption(itemId: "abcd", card: "Platinum", at: now, amount: "15"), reason: "done", at: now)
        var state = BackupState()
        state.restoring = true
        state.occurrences = [OccurrenceRecord(itemId: "abcd", due: 500, doneAt: 450)]
        state.redemptions = [Redemption(itemId: "abcd", card: "Platinum", at: 450, amount: "7.50")]
        state.undoSteps = [UndoStep(itemId: "abcd", itemJSON: try benefit("abcd").jsonText, due: 500, doneAt: 450)]
        state.history = [HistoryRecord(at: 450, itemId: "abcd", title: "Uber Cash", event: .done, reason: "done")]
        try store.addItems([try benefit("abcd")], at: now + 1, replacing: ["abcd"], state: state)

        let ledger = try store.backupLedger(history: true)
        #expect(ledger.redemptions == state.redemptions)
        #expect(
            ledger.undoSteps.map { UndoStep(itemId: $0.itemId, itemJSON: $0.itemJSON, due: $0.due, doneAt: $0.doneAt) }
                == state.undoSteps)
        // History is never deleted with an item: the backup's line joins the replaced item's.
        #expect(ledger.history.map(\.event) == [.done, .added, .done, .added])
        #expect(try store.occurrences() == state.occurrences)
        #expect(try store.backupLedger(history: false).history.isEmpty)
    }

    @Test func aRestoreThatFailsChangesNothing() throws {
        let store = try ReminderStore(path: path)
        try store.addItems([try benefit("abcd")], at: now)
        try StoreFaults.failWrites(.undoStep, storeAt: path)
        var state = BackupState()
        state.undoSteps = [UndoStep(itemId: "efgh", itemJSON: "{}", due: 500, doneAt: 450)]
        #expect(throws: ReminderStoreError.self) {
            try store.addItems([try benefit("efgh")], at: now, replacing: ["abcd"], state: state)
        }
        #expect(try store.items(zone: .utc, now: now).map(\.id) == ["abcd"])
    }
}
