import ReminderCore
import ReminderPlatform
import ReminderStore
import Testing

@testable import ReminderDaemon

/// Planning from a snapshot value: the same events on many threads as on one, late reminders
/// collapsed into one, shown ones left out, and changes after the snapshot unseen.
@Suite struct PlanningSnapshotTests {
    let now = Parts.now
    let hour = CalendarDuration(1, .hours)
    let twoHours = CalendarDuration(2, .hours)

    func snapshot(_ index: ItemIndex, lateSince: Int64? = nil, owed: Set<FireKey> = []) -> PlanningSnapshot {
        PlanningSnapshot(
            index: index, rules: Parts.rules, leadTimes: Parts.configuration.leadTimes, owed: owed, now: now,
            lateSince: lateSince)
    }

    @Test func anItemsRemindersThenTheMomentItPasses() {
        let (item, occurrence) = Parts.coupon("ab", dueIn: 3 * 3600, leads: [hour, twoHours])
        let planned = snapshot(ItemIndex(items: [item], quarantined: [], records: [], fires: [])).events(of: "ab")
        #expect(planned.map(\.at).sorted() == [occurrence.due - 7200, occurrence.due - 3600, occurrence.due])
        #expect(planned.last?.event.reminderTime == nil)  // the pass
        #expect(planned.dropLast().map(\.event.reminderTime) == planned.dropLast().map(\.at))
    }

    @Test func remindersMissedWhileAwayComeOnceNowAndShownOnesNever() {
        let (item, occurrence) = Parts.coupon("ab", dueIn: 1800, leads: [hour, twoHours])
        let shownFirst = FireRecord(
            itemId: "ab", due: occurrence.due, fireAt: occurrence.due - 7200, shownAt: now, notificationId: 1)
        let away = snapshot(ItemIndex(items: [item], quarantined: [], records: [], fires: []), lateSince: now - 86_400)
        guard case .fire(_, _, let fires, _, let late)? = away.events(of: "ab").first?.event else {
            Issue.record("no late reminder")
            return
        }
        #expect(fires.map(\.at) == [occurrence.due - 7200, occurrence.due - 3600])
        #expect(late == .notRunning)
        let shown = snapshot(
            ItemIndex(items: [item], quarantined: [], records: [], fires: [shownFirst]), lateSince: now - 86_400)
        #expect(shown.events(of: "ab").first?.event.reminderTime == occurrence.due - 3600)
        // Not after a restart (no lateSince): past reminders are not shown on an edit.
        #expect(snapshot(ItemIndex(items: [item], quarantined: [], records: [], fires: [])).events(of: "ab").count == 1)
    }

    @Test func allCoresPlanWhatOnePlans() {
        let items = (0..<64).map { Parts.coupon("i\($0)", dueIn: 3600 * Int64(3 + $0), leads: [hour]).item }
        let plan = snapshot(ItemIndex(items: items, quarantined: [], records: [], fires: []))
        let ids = items.map { $0.id! }
        let together = ids.concurrentMap { plan.events(of: $0).map(\.at) }
        #expect(together == ids.map { plan.events(of: $0).map(\.at) })
        #expect(together.allSatisfy { $0.count == 2 })
    }

    @Test func aSnapshotDoesNotSeeLaterChanges() {
        let (item, occurrence) = Parts.coupon("ab", dueIn: 3 * 3600, leads: [hour])
        var index = ItemIndex(items: [item], quarantined: [], records: [], fires: [])
        let before = snapshot(index)
        index.record(OccurrenceRecord(itemId: "ab", due: occurrence.due, doneAt: now))
        #expect(before.events(of: "ab").count == 2)
        #expect(snapshot(index).events(of: "ab").isEmpty)
    }
}
