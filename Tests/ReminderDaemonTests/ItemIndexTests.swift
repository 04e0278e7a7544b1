import ReminderCore
import ReminderStore
import Testing

@testable import ReminderDaemon

/// The item index alone: order, sorted ids and records stay in step as items come and go.
@Suite struct ItemIndexTests {
    let now = Parts.now

    @Test func loadedFromTheStoreInItsOrderWithRecordsAndFires() {
        let b = Parts.coupon("bb", dueIn: 3600)
        let a = Parts.coupon("ab", dueIn: 7200)
        let index = ItemIndex(
            items: [b.item, a.item], quarantined: [],
            records: [OccurrenceRecord(itemId: "ab", due: a.occurrence.due, doneAt: now)],
            fires: [FireRecord(itemId: "bb", due: b.occurrence.due, fireAt: now, shownAt: now, notificationId: 1)])
        #expect(index.order == ["bb", "ab"])
        #expect(index.sortedIds.all == ["ab", "bb"])
        #expect(index.record(of: "ab", due: a.occurrence.due)?.doneAt == now)
        #expect(index.fired.contains(FireKey(itemId: "bb", due: b.occurrence.due, fireAt: now)))
        #expect(index.checkInvariant() == [])
    }

    @Test func addingAndRemovingKeepsOrderSortedIdsAndRecordsInStep() {
        var index = ItemIndex()
        index.add([Parts.coupon("zz", dueIn: 60).item])
        index.add([Parts.coupon("ab", dueIn: 60).item, Parts.coupon("mm", dueIn: 60).item])
        #expect(index.order == ["zz", "ab", "mm"])
        #expect(index.sortedIds.starting(with: "a") == ["ab"])
        let due = Parts.coupon("ab", dueIn: 60).occurrence.due
        index.record(OccurrenceRecord(itemId: "ab", due: due, snoozedUntil: now + 10))
        index.recordShown(
            ShownReminder(
                itemId: "ab", due: due, fires: [ReminderFire(at: now, lead: "1h")], title: "", event: .fired, reason: ""))
        #expect(index.checkInvariant() == [])
        index.remove("ab")
        #expect(index.order == ["zz", "mm"])
        #expect(index.sortedIds.all == ["mm", "zz"])
        #expect(index.occurrences["ab"] == nil)
        #expect(!index.fired.contains(FireKey(itemId: "ab", due: due, fireAt: now)))
        #expect(index.checkInvariant() == [])
    }

    @Test func anUpdateReplacesOnlyAnItemItHas() {
        var index = ItemIndex()
        var item = Parts.coupon("ab", title: "Old", dueIn: 60).item
        index.add([item])
        item.title = "New"
        index.update(item)
        index.update(Parts.coupon("zz", dueIn: 60).item)  // not there: not added behind the order's back
        #expect(index.items["ab"]?.title == "New")
        #expect(index.items["zz"] == nil)
        #expect(index.checkInvariant() == [])
    }

    @Test func theCurrentOccurrenceIsTheFirstNotDone() {
        var index = ItemIndex()
        let (item, occurrence) = Parts.coupon("ab", dueIn: 3600)
        index.add([item])
        #expect(index.currentOccurrence(of: item, rules: Parts.rules, now: now) == occurrence)
        index.record(OccurrenceRecord(itemId: "ab", due: occurrence.due, doneAt: now))
        #expect(index.currentOccurrence(of: item, rules: Parts.rules, now: now) == nil)  // a coupon has one
    }

    @Test func theCheckFindsRecordsOfAnItemNotThere() {
        var index = ItemIndex()
        index.record(OccurrenceRecord(itemId: "gone", due: now))
        #expect(index.checkInvariant() == ["records of gone, which is not there"])
    }
}
