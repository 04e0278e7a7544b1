import CivilTime
import Dispatch
import ReminderCore
import ReminderStore

extension ReminderEngine {
    func leads(of item: Item) -> [CalendarDuration] { item.lead ?? configuration.leadTimes }

    /// The occurrence the schedule, Done and Snooze act on: the first one still ahead that is
    /// not done.
    func currentOccurrence(of item: Item, now: Int64) -> Occurrence? {
        guard let id = item.id else { return nil }
        return rules.firstOccurrence(of: item, dueAfter: now) { occurrences[id]?[$0.due]?.doneAt == nil }
    }

    /// Replaces the item's wheel entries with its current occurrence's pending reminders and the
    /// moment that occurrence passes. Reminders never shown whose time fell in `(lateSince, now]`
    /// — while the daemon was away — fire once, now, as one late pop-up; older ones, and any in
    /// the past when an edit or a reload reschedules, are not shown.
    func reschedule(_ id: String, now: Int64, lateSince: Int64? = nil) {
        for entry in scheduled.removeValue(forKey: id) ?? [] {
            wheel.cancel(entry.handle)
            if let event = events.remove(entry.token) { forget(event) }
        }
        install(plannedEvents(of: id, now: now, lateSince: lateSince), for: id)
    }

    /// Puts an item's planned events on the wheel and files them under it.
    func install(_ planned: [(event: ScheduledEvent, at: Int64)], for id: String) {
        guard !planned.isEmpty else { return }
        scheduled[id] = planned.map { schedule($0.event, at: $0.at) }
    }

    /// What `reschedule` puts on the wheel for one item. It only reads the engine's state, so
    /// start-up works it out for every item on all cores at once.
    func plannedEvents(of id: String, now: Int64, lateSince: Int64?) -> [(event: ScheduledEvent, at: Int64)] {
        guard let item = items[id] else { return [] }
        guard let occurrence = currentOccurrence(of: item, now: now) else { return overdueReminder(of: item, now: now) }
        var fires: [FireTime] = []
        rules.fireTimes(of: occurrence, leads: leads(of: item), createdAt: item.createdAt, into: &fires)
        let shown = fired.of(id)
        var pending = fires.map { (at: $0.fireAt, lead: $0.lead.description) }
            .filter { !shown.contains(due: occurrence.due, fireAt: $0.at) }
        if let snooze = occurrences[id]?[occurrence.due]?.snoozedUntil {
            // Lead reminders before the snooze's end are skipped.
            pending = pending.filter { $0.at > snooze }
            if !shown.contains(due: occurrence.due, fireAt: snooze) { pending.append((snooze, "snooze")) }
        }
        var planned: [(event: ScheduledEvent, at: Int64)] = []
        let late = pending.filter {
            $0.at <= now
                && ($0.at > (lateSince ?? now)
                    || owed.contains(FireKey(itemId: id, due: occurrence.due, fireAt: $0.at)))
        }.sorted { $0.at < $1.at }
        if let last = late.last {
            planned.append(
                (.fire(itemId: id, occurrence: occurrence, fireAts: late.map(\.at), lead: last.lead, late: true), now))
        }
        for fire in pending where fire.at > now {
            planned.append(
                (.fire(itemId: id, occurrence: occurrence, fireAts: [fire.at], lead: fire.lead, late: false), fire.at))
        }
        planned.append((.pass(itemId: id, occurrence: occurrence), occurrence.due))
        return planned
    }

    /// A rebuy whose run-out date passed before any of its reminders could be shown (it was added
    /// overdue, or its lead reminders fell before it was added) reminds once, now; Done starts
    /// the next cycle, reminded as usual.
    func overdueReminder(of item: Item, now: Int64) -> [(event: ScheduledEvent, at: Int64)] {
        guard let id = item.id, case .rebuy(let rebuy) = item.schedule else { return [] }
        let occurrence = rules.occurrence(dueOn: rebuy.runsOut)
        let record = occurrences[id]?[occurrence.due]
        guard occurrence.due <= now, record?.doneAt == nil, record?.passedAt == nil,
            !fired.of(id).containsAny(due: occurrence.due)
        else { return [] }
        return [
            (
                .fire(
                    itemId: id, occurrence: occurrence, fireAts: [now], lead: ReminderEngine.overdueLead, late: false),
                now
            )
        ]
    }

    /// The lead of an overdue rebuy's reminder (its occurrence is due already, yet it is shown).
    static let overdueLead = "overdue"

    /// Puts `event` on the wheel; the caller files the returned entry under the item.
    func schedule(_ event: ScheduledEvent, at instant: Int64) -> (handle: TimerWheel.Handle, token: UInt64) {
        let token = events.insert(event, at: instant)
        let handle = wheel.insert(deadline: instant, payload: token)
        if earliestFireKnown, let at = event.reminderTime { earliestFire = min(earliestFire ?? at, at) }
        return (handle, token)
    }

    /// Keeps `earliestFire` true when `event` leaves the wheel.
    func forget(_ event: ScheduledEvent) {
        if let at = event.reminderTime, at == earliestFire { earliestFireKnown = false }
    }

    /// Runs everything due by now: called by the driver when the wheel's deadline arrives, and
    /// after the clock jumped or the machine resumed.
    public func advance() {
        dispatchPrecondition(condition: .onQueue(queue))
        let now = clock()
        var expired: [TimerWheel.Expired] = []
        wheel.advance(to: now, into: &expired)
        // Reminders whose occurrence passed before they could be shown (the machine slept
        // through both) are reported together, as after a restart (SPEC §3).
        var missed: [(Item, Occurrence)] = []
        var passes: [(String, Occurrence)] = []
        // Reminders due together go out together: several at one instant become one pop-up.
        var due: [ScheduledEvent] = []
        expired.sort { $0.deadline < $1.deadline }
        for entry in expired {
            guard let event = events.remove(entry.payload) else { continue }
            forget(event)
            scheduled[event.itemId]?.removeAll { $0.token == entry.payload }
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
        deliver(due, now: now)
        reportMissed(missed, now: now, reason: "passed while the computer was asleep or the clock was changed")
        for (itemId, occurrence) in passes { passed(itemId, occurrence, now: now) }
        retryIfDue(now: now)
        if pausedUntil.map({ $0 <= now }) == true { resume(now: now) }
        do { try recordLastSeen(now) } catch { logger.error("cannot record the time: \(error)") }
        publish()
    }

    /// An occurrence's due moment came without Done: note it, then schedule the next one.
    func passed(_ itemId: String, _ occurrence: Occurrence, now: Int64) {
        guard let item = items[itemId] else { return }
        closePopUps(of: itemId, due: occurrence.due)
        var record = occurrences[itemId]?[occurrence.due] ?? OccurrenceRecord(itemId: itemId, due: occurrence.due)
        if record.doneAt == nil, record.passedAt == nil {
            record.passedAt = now
            let entry = HistoryRecord(
                at: now, itemId: itemId, title: item.title, event: .expired,
                reason: "due \(Timestamp.format(occurrence.due, in: zone)) passed without Done")
            do {
                try store.recordPassed([(record, entry)])
                occurrences[itemId, default: [:]][occurrence.due] = record
            } catch {
                logger.error("cannot record a passed occurrence: \(error)", metadata: ["ITEM_ID": "\(itemId)"])
            }
        }
        reschedule(itemId, now: now)
    }

    /// On start: occurrences that passed while the daemon was away with reminders never shown go
    /// into one "while you were away" pop-up and into history as `missed`.
    func collectMissed(since lastSeen: Int64?, now: Int64) {
        var missed: [(Item, Occurrence)] = []
        for id in order {
            guard let item = items[id], let createdAt = item.createdAt else { continue }
            let from = max(lastSeen ?? createdAt, createdAt)
            rules.forEachOccurrence(of: item, dueAfter: from, before: now + 1) { occurrence in
                let record = occurrences[id]?[occurrence.due]
                guard record?.doneAt == nil, record?.passedAt == nil else { return true }
                var fires: [FireTime] = []
                rules.fireTimes(of: occurrence, leads: leads(of: item), createdAt: createdAt, into: &fires)
                if fires.contains(where: {
                    !fired.contains(FireKey(itemId: id, due: occurrence.due, fireAt: $0.fireAt))
                }) {
                    missed.append((item, occurrence))
                }
                return true
            }
        }
        reportMissed(missed, now: now, reason: "passed while reminderd was not running")
    }

    /// Records `missed` occurrences as passed and `missed` in history, and shows them in one
    /// "While You Were Away" pop-up.
    func reportMissed(_ missed: [(Item, Occurrence)], now: Int64, reason: String) {
        guard !missed.isEmpty else { return }
        for (item, occurrence) in missed { if let id = item.id { closePopUps(of: id, due: occurrence.due) } }
        var passes: [(occurrence: OccurrenceRecord, history: HistoryRecord)] = []
        for (item, occurrence) in missed {
            guard let id = item.id else { continue }
            var record = occurrences[id]?[occurrence.due] ?? OccurrenceRecord(itemId: id, due: occurrence.due)
            record.passedAt = now
            passes.append(
                (
                    record,
                    HistoryRecord(
                        at: now, itemId: id, title: item.title, event: .missed,
                        reason: "due \(Timestamp.format(occurrence.due, in: zone)) \(reason)")
                ))
        }
        do {
            try store.recordPassed(passes)
            for pass in passes {
                occurrences[pass.occurrence.itemId, default: [:]][pass.occurrence.due] = pass.occurrence
            }
        } catch {
            logger.error("cannot record missed reminders: \(error)")
        }
        let titles = missed.map { $0.0.title }
        let body =
            titles.count == 1
            ? "\(titles[0]) passed while you were away"
            : "\(titles.count) deadlines passed while you were away: \(titles.prefix(5).joined(separator: ", "))\(titles.count > 5 ? ", …" : "")"
        showNotice(
            NotificationRequest(
                summary: "While You Were Away", body: body, urgency: .normal, category: "x-reminderd.missed",
                timeoutMilliseconds: 0))
    }

    /// Shows a pop-up that is no reminder (the missed ones' summary) — or keeps it until a server
    /// is known: at start it is composed before the server has said what it can do.
    func showNotice(_ request: NotificationRequest) {
        guard notifier.serverInfo() != nil else {
            notices.append(request)
            return
        }
        notifier.show(request) { [weak self] result in
            guard let self, case .failure(let error) = result else { return }
            self.logger.warning("could not show the \(request.summary) pop-up: \(error)")
            if case .noServer = error { self.queue.async { self.notices.append(request) } }
        }
    }
}
