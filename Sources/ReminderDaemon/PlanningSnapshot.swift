import ReminderCore
import ReminderStore

/// What planning an item's wheel events reads — the items with their records and accepted fires,
/// the rules and lead times of the configuration, the fires owed from a previous run, now — as
/// one `Sendable` value: start-up plans every item on all cores at once (`concurrentMap`) from
/// it, instead of several threads reading the engine's dictionaries, and a reschedule plans one
/// item from the same code. Building one copies no dictionary (they are shared until changed).
struct PlanningSnapshot: Sendable {
    typealias Event = ReminderEngine.ScheduledEvent

    let index: ItemIndex
    let rules: FireTimeRules
    /// The configured lead times, for items without their own.
    let leadTimes: [CalendarDuration]
    /// The configured repeat until acknowledged, for items without their own (`RepeatRule.of`).
    var repeatDefaults = Configuration.defaults
    /// At start, the reminders a previous run handed to the server without recording the
    /// outcome: shown once more, as late ones (`InterruptedRun.owed`).
    let owed: Set<FireKey>
    let now: Int64
    /// When the daemon last ran (see `events(of:)`); nil outside start-up.
    let lateSince: Int64?

    /// The wheel events of one item: its current occurrence's pending reminders and the moment
    /// that occurrence passes. Reminders never shown whose time fell in `(lateSince, now]` — while
    /// the daemon was away — fire once, now, as one late pop-up; older ones, and any in the past
    /// when an edit or a reload reschedules, are not shown.
    func events(of id: String) -> [(event: Event, at: Int64)] {
        guard let item = index.items[id] else { return [] }
        guard let occurrence = index.currentOccurrence(of: item, rules: rules, now: now) else {
            return overdueReminder(of: item)
        }
        var fires: [FireTime] = []
        rules.fireTimes(of: occurrence, leads: item.lead ?? leadTimes, createdAt: item.createdAt, into: &fires)
        let shown = index.fired.of(id)
        // A lead shown already is not shown again, wherever a new reminder time or zone put it.
        var pending = fires.map { ReminderFire(at: $0.fireAt, lead: $0.lead.description) }
            .filter { !shown.contains(due: occurrence.due, $0) }
        if let again = nextRepeat(of: item, id, due: occurrence.due), !shown.contains(due: occurrence.due, again) {
            // Before the snooze's filter: a snooze made since the showing drops it (the
            // snooze's end, once shown, starts a series of its own).
            pending.append(again)
        }
        if let stored = index.record(of: id, due: occurrence.due)?.snoozedUntil {
            let snooze = rules.snoozeEnd(stored: stored, due: occurrence.due)
            // Lead reminders before the snooze's end are skipped.
            pending = pending.filter { $0.at > snooze }
            let end = ReminderFire(at: snooze, lead: ReminderFire.snoozeLead)
            if !shown.contains(due: occurrence.due, end) { pending.append(end) }
        }
        var planned: [(event: Event, at: Int64)] = []
        let late = pending.filter {
            $0.at <= now
                && ($0.at > (lateSince ?? now)
                    || owed.contains(FireKey(itemId: id, due: occurrence.due, fireAt: $0.at)))
        }.sorted { $0.at < $1.at }
        if let last = late.last {
            // One a previous run handed to the server was due while reminderd ran: it stopped
            // before the answer, and that is what its pop-up says.
            let interrupted = owed.contains(FireKey(itemId: id, due: occurrence.due, fireAt: last.at))
            planned.append(
                (
                    .fire(
                        itemId: id, occurrence: occurrence, fires: late, lead: last.lead,
                        late: interrupted ? .interrupted : .notRunning), now
                ))
        }
        for fire in pending where fire.at > now {
            // A lead moved out of quiet hours to their end: its pop-up says so.
            let movedOut = fires.contains {
                $0.adjusted == .quietHoursEnd && $0.fireAt == fire.at && $0.lead.description == fire.lead
            }
            let moved = movedOut ? rules.quietHours.map { LateReason.quietHours($0) } : nil
            planned.append(
                (.fire(itemId: id, occurrence: occurrence, fires: [fire], lead: fire.lead, late: moved), fire.at))
        }
        planned.append((.pass(itemId: id, occurrence: occurrence), occurrence.due))
        return planned
    }

    /// The repeat of the item's newest reminder shown, of the occurrence due at `due`, if it
    /// repeats and nobody acknowledged it since (`RepeatRule.next`). From the stored showing, so
    /// a restart plans the same one: come while reminderd was away, it is the one late pop-up.
    private func nextRepeat(of item: Item, _ id: String, due: Int64) -> ReminderFire? {
        guard let rule = RepeatRule.of(item, repeatDefaults), let last = index.lastShown[id], last.due == due,
            let next = rule.next(
                afterShowingAt: last.at, lead: last.lead, due: due, acknowledged: index.acknowledged[id], rules: rules)
        else { return nil }
        return ReminderFire(at: next.at, lead: next.lead)
    }

    /// A rebuy whose run-out date passed before any of its reminders could be shown (it was added
    /// overdue, or its lead reminders fell before it was added) reminds once, now; Done starts
    /// the next cycle, reminded as usual.
    private func overdueReminder(of item: Item) -> [(event: Event, at: Int64)] {
        guard let id = item.id, case .rebuy(let rebuy) = item.schedule else { return [] }
        let occurrence = rules.occurrence(dueOn: rebuy.runsOut)
        let record = index.record(of: id, due: occurrence.due)
        guard occurrence.due <= now, record?.doneAt == nil, record?.passedAt == nil,
            !index.fired.of(id).containsAny(due: occurrence.due)
        else { return [] }
        return [
            (
                .fire(
                    itemId: id, occurrence: occurrence, fires: [ReminderFire(at: now, lead: ReminderFire.overdueLead)],
                    lead: ReminderFire.overdueLead, late: nil),
                now
            )
        ]
    }

}
