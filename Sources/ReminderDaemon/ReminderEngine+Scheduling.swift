import CivilTime
import Dispatch
import ReminderCore
import ReminderStore

extension ReminderEngine {
    /// The occurrence the schedule, Done and Snooze act on (`ItemIndex.currentOccurrence`).
    func currentOccurrence(of item: Item, now: Int64) -> Occurrence? {
        index.currentOccurrence(of: item, rules: rules, now: now)
    }

    /// Replaces the item's wheel entries with its current occurrence's pending reminders and the
    /// moment that occurrence passes. Reminders never shown whose time fell in `(lateSince, now]`
    /// — while the daemon was away — fire once, now, as one late pop-up; older ones, and any in
    /// the past when an edit or a reload reschedules, are not shown.
    func reschedule(_ id: String, now: Int64, lateSince: Int64? = nil) {
        schedule.cancel(id)
        schedule.install(plannedEvents(of: id, now: now, lateSince: lateSince), for: id)
    }

    /// What `reschedule` puts on the wheel for one item (`PlanningSnapshot.events`).
    func plannedEvents(of id: String, now: Int64, lateSince: Int64?) -> [(event: ScheduledEvent, at: Int64)] {
        planning(now: now, lateSince: lateSince).events(of: id)
    }

    /// What planning reads, as one value; at start, with the fires a previous run owes (`InterruptedRun`).
    func planning(now: Int64, lateSince: Int64?, owed: Set<FireKey> = []) -> PlanningSnapshot {
        PlanningSnapshot(
            index: index, rules: rules, leadTimes: configuration.leadTimes, repeatDefaults: configuration, owed: owed,
            now: now, lateSince: lateSince)
    }

    /// The lead of an overdue rebuy's reminder (its occurrence is due already, yet it is shown).
    static let overdueLead = ReminderFire.overdueLead

    /// Runs everything due by now: called by the driver when the wheel's deadline arrives, and
    /// after the clock jumped or the machine resumed.
    public func advance() {
        dispatchPrecondition(condition: .onQueue(queue))
        let now = clock()
        // Reminders whose occurrence passed before they could be shown (the machine slept
        // through both) are reported together, as after a restart (CONTRACT §3).
        var missed: [(Item, Occurrence)] = []
        var passes: [(String, Occurrence)] = []
        // Reminders due together go out together: several at one instant become one pop-up.
        var due: [ScheduledEvent] = []
        schedule.expire(to: now) { event in
            switch event {
            case .fire(let itemId, let occurrence, _, let lead, _):
                if occurrence.due <= now, lead != ReminderEngine.overdueLead, let item = items[itemId] {
                    if !missed.contains(where: { $0.0.id == itemId && $0.1 == occurrence }) {
                        missed.append((item, occurrence))
                    }
                } else {
                    due.append(event)
                }
            case .pass(let itemId, let occurrence): passes.append((itemId, occurrence))
            }
        }
        // With a reminderd-sync waiting, the items are pulled first: their fires are held until then.
        var dueItems: [String] = []
        for event in due where !dueItems.contains(event.itemId) { dueItems.append(event.itemId) }
        if sync.refresh(dueItems, now: now) { delivery.holdForRefresh(due) } else { delivery.deliver(due, now: now) }
        reportMissed(missed, now: now, reason: "passed while the computer was asleep or the clock was changed")
        for (itemId, occurrence) in passes { passed(itemId, occurrence, now: now) }
        delivery.retryIfDue(now: now)
        delivery.endPauseIfDue(now: now)
        sync.deadlines(now: now)
        let seen = lastSeen(now)
        writeUnlessLocked("cannot record the time") { [store] () throws(ReminderStoreError) in
            try store.saveLastSeen(seen)
        }
        publish()
    }

    /// An occurrence's due moment came without Done: note it, then schedule the next one.
    func passed(_ itemId: String, _ occurrence: Occurrence, now: Int64) {
        guard let item = items[itemId] else { return }
        delivery.closePopUps(of: itemId, due: occurrence.due)
        var record = occurrences[itemId]?[occurrence.due] ?? OccurrenceRecord(itemId: itemId, due: occurrence.due)
        if record.doneAt == nil, record.passedAt == nil {
            record.passedAt = now
            let entry = HistoryRecord(
                at: now, itemId: itemId, title: item.title, event: .expired,
                reason: "due \(Timestamp.format(occurrence.due, in: zone)) passed without Done")
            // In memory now, stored after another program's lock (`LockedCalls`): waiting here
            // would hold every reminder and button behind it.
            index.record(record)
            writeUnlessLocked("cannot record that \(itemId)'s occurrence due \(occurrence.due) passed") {
                [store] () throws(ReminderStoreError) in try store.recordPassed([(record, entry)])
            }
        }
        reschedule(itemId, now: now)
    }

    /// At start: occurrences that passed while reminderd was stopped, their reminders all shown
    /// before it (`InterruptedRun.passed`), recorded passed and `expired` as `passed` records
    /// them when reminderd runs — once: a later start finds them recorded. No pop-up: the person
    /// saw their reminders.
    func recordExpired(_ expired: [(Item, Occurrence)], now: Int64) {
        guard !expired.isEmpty else { return }
        let passes = interruptedRun(now: now).passes(
            of: expired, event: .expired, reason: "passed without Done while reminderd was not running")
        for pass in passes { index.record(pass.occurrence) }
        writeUnlessLocked("cannot record occurrences that passed while reminderd was not running") {
            [store] () throws(ReminderStoreError) in try store.recordPassed(passes)
        }
    }

    /// Records `missed` occurrences as passed and `missed` in history, and shows them in one
    /// "While You Were Away" pop-up (`InterruptedRun`).
    func reportMissed(_ missed: [(Item, Occurrence)], now: Int64, reason: String) {
        guard !missed.isEmpty else { return }
        for (item, occurrence) in missed { if let id = item.id { delivery.closePopUps(of: id, due: occurrence.due) } }
        let passes = interruptedRun(now: now).passes(of: missed, reason: reason)
        for pass in passes { index.record(pass.occurrence) }
        writeUnlessLocked("cannot record missed reminders") { [store] () throws(ReminderStoreError) in
            try store.recordPassed(passes)
        }
        delivery.showNotice(InterruptedRun.notice(naming: missed))
    }
}
