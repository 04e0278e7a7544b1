import CivilTime
import ReminderCore
import ReminderJSON
import ReminderProtocol
import ReminderStore

/// The read-only commands — Get, List, Upcoming, Explain, History, Calendar, Summary, Report —
/// and the panel indicator's content, over what they read at one moment: the items with their
/// records (`ItemIndex`), the timer wheel (`FireSchedule`), the rules, zone and settings. The
/// engine takes one for a command (`ReminderEngine.queries`) and lets it go before it changes
/// anything; the parts are copy-on-write values, so taking one copies nothing. Queries change
/// nothing: they ask delivery's state of `DeliveryController` and read the store's ledgers
/// through its query methods, so none can reach into what a command changes.
struct QuerySnapshot {
    let index: ItemIndex
    let schedule: FireSchedule
    let rules: FireTimeRules
    let zone: TimeZoneRules
    let configuration: Configuration
    /// For the reminders in flight, on screen or held, and the pause.
    let delivery: DeliveryController
    /// For history, redemptions and sync UIDs.
    let store: ReminderStore
    let now: Int64

    var items: ItemTable { index.items }
    var order: [String] { index.order }
    var occurrences: [String: [Int64: OccurrenceRecord]] { index.occurrences }

    /// available, expiring (7 days or less), used (this occurrence done), expired (a coupon that
    /// passed), overdue (a rebuy past its date); with the occurrence due (a past one for an
    /// overdue rebuy and a coupon past its expiry).
    func status(of item: Item) -> (status: ItemStatus, due: Occurrence?) {
        guard let id = item.id else { return (.available, nil) }
        guard let first = rules.firstOccurrence(of: item, dueAfter: now, where: { _ in true }) else {
            if case .rebuy(let rebuy) = item.schedule { return (.overdue, rules.occurrence(dueOn: rebuy.runsOut)) }
            let done = occurrences[id]?.values.contains { $0.doneAt != nil } ?? false
            // A coupon past its expiry keeps it as its due date, used or expired: `list --all`
            // and `show` say when.
            guard case .coupon(let coupon) = item.schedule else { return (done ? .used : .expired, nil) }
            switch coupon.expires {
            case .date(let date): return (done ? .used : .expired, rules.occurrence(dueOn: date))
            case .dateTime(let dateTime): return (done ? .used : .expired, rules.occurrence(dueAt: dateTime))
            }
        }
        if occurrences[id]?[first.due]?.doneAt != nil { return (.used, first) }
        return (NotificationText.daysLeft(first, now: now, zone: zone) <= 7 ? .expiring : .available, first)
    }

    /// The item's §2 fields plus `status`, `due`, `daysLeft`, `nextReminder`, what is used and left
    /// of a benefit's period, and the currency it is shown in when it has none of its own (the
    /// config's); an unreadable item as `quarantinedView` shows it.
    func view(_ id: String) -> ItemView {
        if let unreadable = index.quarantined[id] { return QuerySnapshot.quarantinedView(unreadable) }
        guard let item = items[id] else { return ItemView(id: id, kind: nil, title: "", status: .unreadable) }
        return view(item, id: id, status: status(of: item))
    }

    /// `view` of an item whose status the caller has worked out already (`list` filters by it).
    func view(_ item: Item, id: String, status known: (status: ItemStatus, due: Occurrence?)) -> ItemView {
        let (status, due) = known
        var view = ItemView(
            id: id, kind: item.kind, title: item.title, status: status, currency: item.currency ?? configuration.currency)
        if case .object(let fields) = item.json { view.more = ItemView.untypedFields(of: fields) }
        if item.isFromTaskList { view.taskList = true }
        if let due {
            view.due = OffsetDateTime(due.due, in: zone)
            view.daysLeft = NotificationText.daysLeft(due, now: now, zone: zone)
        }
        switch item.schedule {
        case .benefit(let benefit):
            (view.card, view.amount, view.period, view.periodStart) = (
                benefit.card, benefit.amount, benefit.period, benefit.periodStart
            )
            // The period it counts toward is the one `due` names: not repeated.
            view.more["amountUsedPeriod"] = nil
            if let due {
                if !benefit.amountIn.isEmpty { view.amountThisPeriod = benefit.amount(dueOn: due.dueDate) }
                // What is used of the current period: a use of a period that is over shows as
                // nothing (the wallet and the card read this).
                view.amountUsed = benefit.amountUsed(inPeriodDueOn: due.dueDate)
                // What is left of it, by the rule every reader of "left this period" asks.
                view.amountLeft = benefit.amountLeft(inPeriodDueOn: due.dueDate, done: status == .used)
            }
        case .subscription(let subscription): (view.card, view.amount) = (subscription.card, subscription.amount)
        case .fee(let fee): (view.card, view.amount) = (fee.card, fee.amount)
        case .coupon(let coupon): view.value = coupon.value
        case .rebuy: break
        }
        view.nextReminder = schedule.fires(of: id).map(\.at).min().map { OffsetDateTime($0, in: zone) }
        return view
    }

    /// How `list` and `show` present an item whose stored data cannot be read: status
    /// "unreadable", the reason, and the way out.
    static func quarantinedView(_ item: QuarantinedItem) -> ItemView {
        ItemView(
            id: item.id, kind: nil, title: item.title ?? "(unreadable)", status: .unreadable, reason: item.reason,
            hint: "reminderctl remove \(item.id)")
    }

    func list(kind: String?, all: Bool) throws(EngineError) -> [ItemView] {
        try QuerySnapshot.checkKind(kind)
        var views: [ItemView] = []
        forEachListed(kind: kind, all: all) { views.append($0) }
        return views
    }

    /// Refuses a `list` kind that is none.
    static func checkKind(_ kind: String?) throws(EngineError) {
        if let kind, ItemKind(rawValue: kind) == nil {
            throw EngineError.invalidParameter(
                "kind",
                Wording(
                    N_("\"%1$s\" is not a kind; use %2$s"), .text(kind),
                    .text(ItemKind.allCases.map(\.rawValue).joined(separator: ", "))))
        }
    }

    /// What `list` shows, one view at a time, in its order: the readable items in creation
    /// order, then the unreadable ones. A streamed reply (`ListWriter`) writes each and lets it go.
    func forEachListed(kind: String?, all: Bool, _ body: (ItemView) -> Void) {
        for position in order.indices {
            if let view = listedView(at: position, kind: kind, all: all) { body(view) }
        }
        for unreadable in listedQuarantined(kind: kind) { body(QuerySnapshot.quarantinedView(unreadable)) }
    }

    /// The view of the item at `position` in creation order when `list` shows it.
    func listedView(at position: Int, kind: String?, all: Bool) -> ItemView? {
        let id = order[position]
        guard let item = items[id], kind == nil || item.kind.rawValue == kind else { return nil }
        let status = status(of: item)
        if !all, item.kind == .coupon, status.status.isSettled { return nil }
        return view(item, id: id, status: status)
    }

    /// The unreadable items `list` shows after the others, oldest first. They have no kind to
    /// filter by: listed whenever the kind is not, to be removed.
    func listedQuarantined(kind: String?) -> [QuarantinedItem] {
        guard kind == nil else { return [] }
        return index.quarantined.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func upcoming(days: Int) -> [UpcomingReply.Reminder] {
        let limit = now + Int64(days) * 86_400
        var rows: [(at: Int64, id: String, occurrence: Occurrence, lead: String, late: Bool)] = []
        schedule.forEach(dueBy: limit) { event, at in
            if case .fire(let id, let occurrence, _, let lead, let late) = event {
                rows.append((at, id, occurrence, lead, late?.isLate == true))
            }
        }
        rows.sort { ($0.at, $0.id) < ($1.at, $1.id) }
        // Those being gone through one at a time come first, now, in their order: each as soon
        // as the one before is acted on.
        var inTurn: [(at: Int64, id: String, occurrence: Occurrence, lead: String, late: Bool)] = []
        for case .fire(let id, let occurrence, _, let lead, _) in delivery.outbox.turnQueue {
            inTurn.append((now, id, occurrence, lead, false))
        }
        return (inTurn + rows).map { row in
            // Which card and how much, so two "Uber Cash" rows of two cards can be told apart.
            var itemFields: [String: JSONValue] = [:]
            if case .object(let fields)? = items[row.id]?.json { itemFields = fields }
            func text(_ key: String) -> String? {
                if case .string(let text)? = itemFields[key] { return text }
                return nil
            }
            // Money in the item's currency, or the config's: the client has no other to go by.
            let money = text("amount") ?? text("value")
            return UpcomingReply.Reminder(
                item: row.id, title: items[row.id]?.title ?? "", fireAt: Timestamp.format(row.at, in: zone),
                due: Timestamp.format(row.occurrence.due, in: zone), lead: row.lead, late: row.late,
                card: text("card"), amount: text("amount"), value: text("value"),
                currency: money == nil ? nil : items[row.id]?.currency ?? configuration.currency,
                taskList: itemFields["taskList"] == .bool(true))
        }
    }

    /// Explain: each upcoming fire time of the current occurrence with how it was derived, and
    /// when the occurrence is snoozed to.
    func explain(_ id: String) -> ExplainReply {
        ExplainReply(steps: steps(id), snoozedUntil: snoozedUntil(id).map { Timestamp.format($0, in: zone) })
    }

    /// Each upcoming fire time of the current occurrence with how it was derived. A dropped one
    /// says the rule that dropped it: quiet hours that end after the due time move a reminder to
    /// a minute before they begin, which is before the item was added when it was added in them.
    func steps(_ id: String) -> [ExplainReply.Step] {
        guard let item = items[id], let occurrence = index.currentOccurrence(of: item, rules: rules, now: now) else {
            return []
        }
        var steps: [ExplainReply.Step] = []
        let snooze = occurrences[id]?[occurrence.due]?.snoozedUntil.map {
            rules.snoozeEnd(stored: $0, due: occurrence.due)
        }
        let leads = item.lead ?? configuration.leadTimes
        // A subscription's free trial: its last day is the due date explained (CONTRACT §2).
        var trialEnds = false
        if case .subscription(let subscription) = item.schedule, occurrence.dueDate == subscription.trialEnds {
            trialEnds = true
        }
        var kept: [FireTime] = []
        rules.fireTimes(of: occurrence, leads: leads, createdAt: item.createdAt, into: &kept)
        for lead in leads {
            let base = rules.baseFireTime(of: occurrence, lead: lead)
            let workday = rules.moveToWorkday(base.fireAt, lead: lead)
            let moved = rules.quietHours.flatMap {
                rules.moveOutOfQuietHours(workday?.fireAt ?? base.fireAt, window: $0, due: occurrence.due)
            }
            var fires: [FireTime] = []
            rules.fireTimes(of: occurrence, leads: [lead], createdAt: item.createdAt, into: &fires)
            let final = fires.first
            var reason = Wording(N_("kept"))
            if final == nil {
                reason = droppedReason(
                    base: workday?.fireAt ?? base.fireAt, moved: moved, due: occurrence.due,
                    createdAt: item.createdAt ?? .min)
            } else if workday != nil, !kept.contains(where: { $0.fireAt == final!.fireAt }),
                let into = kept.filter({ $0.fireAt > final!.fireAt }).map(\.fireAt).min()
            {
                // `FireTimeRules.mergeMovedBack`: moved back past a reminder that came before it.
                reason = Wording(
                    N_("merged into the reminder at %1$s, which came before it"), .text(Timestamp.format(into, in: zone)))
            } else if index.fired.of(id).contains(
                due: occurrence.due, ReminderFire(at: final!.fireAt, lead: final!.lead.description))
            {
                reason = Wording(N_("already shown"))
            } else if let snooze, final!.fireAt <= snooze {
                // Lead reminders before a snooze's end are skipped (`PlanningSnapshot.events`).
                reason = Wording(N_("skipped: snoozed until %1$s"), .text(Timestamp.format(snooze, in: zone)))
            } else if final!.fireAt <= now, !delivery.hasReminder(of: id, firedBy: final!.fireAt),
                !schedule.fires(of: id).contains(where: \.late)
            {
                // Neither shown, nor on its way, nor due late: an edit or a reload after its time
                // passed it over (CONTRACT §3, "Missed and late reminders").
                reason = dropped(Wording(N_("its time had passed when the item or the settings changed")))
            }
            var rule = rule(lead, trialEnds: trialEnds)
            if let workday {
                // The dates keep English weekdays and a holiday its English name (`Workdays.dayOff`).
                rule = Wording(
                    N_("%1$s; moved from %2$s to %3$s: %4$s"), .wording(rule),
                    .text("\(workday.from.weekdayAbbreviation) \(workday.from)"),
                    .text("\(workday.to.weekdayAbbreviation) \(workday.to)"), .text(workday.reason))
            }
            var quiet = "not affected"
            if moved?.adjustment == .quietHoursEnd { quiet = "moved to the end of quiet hours" }
            if moved?.adjustment == .quietHoursStart { quiet = "moved to a minute before quiet hours" }
            steps.append(
                ExplainReply.Step(
                    lead: lead.description, due: Timestamp.format(occurrence.due, in: zone), rule: rule,
                    computed: Timestamp.format(base.fireAt, in: zone), dstGap: base.adjusted == .dstGap,
                    quietHours: quiet, fireAt: final.map { Timestamp.format($0.fireAt, in: zone) }, result: reason))
        }
        if let step = repeatStep(id, item, occurrence, snooze: snooze) { steps.append(step) }
        return steps
    }

    /// How a lead's fire time is computed, before workdays and quiet hours move it.
    private func rule(_ lead: CalendarDuration, trialEnds: Bool) -> Wording {
        if lead.isElapsedTime { return Wording(N_("%1$s before the due time (elapsed time)"), .text("\(lead)")) }
        let time = Wording.Argument.text("\(configuration.reminderTime)")
        switch (lead.days, trialEnds) {
        case (0, false): return Wording(N_("%1$s on the due date"), time)
        case (0, true): return Wording(N_("%1$s on the free trial's last day"), time)
        case (let days, false):
            return Wording(
                N_n("%1$s, %2$d day before the due date", "%1$s, %2$d days before the due date"), count: Int(days),
                time, .text("\(days)"))
        case (let days, true):
            return Wording(
                N_n("%1$s, %2$d day before the free trial's last day", "%1$s, %2$d days before the free trial's last day"),
                count: Int(days), time, .text("\(days)"))
        }
    }

    /// A reminder left out, and why: "dropped: …", the why alone for `add`'s note (`NoReminderNote`).
    private func dropped(_ why: Wording) -> Wording { Wording(N_("dropped: %1$s"), .wording(why)) }

    /// The repeat until acknowledged of the reminder last shown (`RepeatRule`, as
    /// `PlanningSnapshot` plans it): the next one, or why none comes.
    func repeatStep(_ id: String, _ item: Item, _ occurrence: Occurrence, snooze: Int64?) -> ExplainReply.Step? {
        guard let rule = RepeatRule.of(item, configuration), let last = index.lastShown[id], last.due == occurrence.due
        else { return nil }
        let number = (RepeatRule.number(ofLead: last.lead) ?? 0) + 1
        let computed = last.at + rule.every.nominalSeconds
        let moved = rules.quietHours.flatMap { rules.moveOutOfQuietHours(computed, window: $0, due: occurrence.due) }
        let next = rule.next(
            afterShowingAt: last.at, lead: last.lead, due: occurrence.due, acknowledged: index.acknowledged[id],
            rules: rules)
        var result = Wording(N_("kept"))
        if number > rule.times {
            result = Wording(N_n("stopped: %1$d repeat shown", "stopped: %1$d repeats shown"), count: rule.times, .text("\(rule.times)"))
        } else if let acknowledged = index.acknowledged[id], acknowledged >= last.at {
            result = Wording(N_("stopped: acknowledged at %1$s"), .text(Timestamp.format(acknowledged, in: zone)))
        } else if next == nil {
            result = dropped(Wording(N_("at or after the due time")))
        } else if let snooze, next!.at <= snooze {
            result = Wording(N_("stopped: snoozed until %1$s"), .text(Timestamp.format(snooze, in: zone)))
        }
        return ExplainReply.Step(
            lead: RepeatRule.lead(number), due: Timestamp.format(occurrence.due, in: zone),
            rule: Wording(
                N_("%1$s after the reminder shown at %2$s (%3$s)"), .text("\(rule.every)"),
                .text(Timestamp.format(last.at, in: zone)),
                .wording(
                    Wording(
                        N_n("every %1$s, %2$d time", "every %1$s, %2$d times"), count: rule.times, .text("\(rule.every)"),
                        .text("\(rule.times)")))),
            computed: Timestamp.format(computed, in: zone), dstGap: false,
            quietHours: moved?.adjustment == .quietHoursEnd ? "moved to the end of quiet hours" : "not affected",
            fireAt: result == Wording(N_("kept")) ? next.map { Timestamp.format($0.at, in: zone) } : nil, result: result)
    }

    /// Why a reminder of one lead is not kept (CONTRACT §3, rules 3–5), in words `add` and `edit`
    /// repeat: a reminder moved out of quiet hours to before the item was added is said to be
    /// that, not "at or after the due time" (what it was before it moved).
    func droppedReason(base: Int64, moved: (fireAt: Int64, adjustment: FireAdjustment)?, due: Int64, createdAt: Int64)
        -> Wording
    {
        let fireAt = moved?.fireAt ?? base
        if fireAt >= due { return dropped(Wording(N_("at or after the due time"))) }
        if let moved, moved.adjustment == .quietHoursStart, base >= createdAt, let window = rules.quietHours {
            return dropped(
                Wording(
                    N_("in quiet hours %1$s–%2$s, which end after the due time; a minute before they begin (%3$s) is before the item was added"),
                    .text(window.start.hourMinute), .text(window.end.hourMinute),
                    .text(Timestamp.format(moved.fireAt, in: zone))))
        }
        return dropped(Wording(N_("before the item was added")))
    }

    /// When the current occurrence's reminders are snoozed to, or nil.
    func snoozedUntil(_ id: String) -> Int64? {
        guard let item = items[id], let occurrence = index.currentOccurrence(of: item, rules: rules, now: now),
            let stored = occurrences[id]?[occurrence.due]?.snoozedUntil
        else { return nil }
        let until = rules.snoozeEnd(stored: stored, due: occurrence.due)
        return until > now ? until : nil
    }

    /// The items as iCalendar for the next `days` days, their alarms where this daemon — in its
    /// zone, with its settings — reminds (Done aside, as with `reminderctl plan`).
    func calendar(days: Int) throws(EngineError) -> String {
        guard (1...3660).contains(days) else { throw EngineError.invalidParameter("days", Wording(N_("expected 1 to 3660"))) }
        // Each item's sync UID goes with its events: the event mirror names them by it.
        let syncUIDs: [String: String]
        do { syncUIDs = try store.syncUIDs(of: order) } catch { throw EngineError.store(error) }
        return CalendarExport.ics(
            items: order.compactMap { items[$0] }, planner: Planner(configuration: configuration, zone: zone),
            from: now, to: now + Int64(days) * 86_400, syncUIDs: syncUIDs)
    }

    func history(limit: Int, since: String?, item: String?) throws(EngineError) -> [HistoryReply.Entry] {
        var sinceInstant: Int64?
        if let since {
            guard case .success(let instant) = Timestamp.parseFlexible(since, in: zone) else {
                throw EngineError.invalidParameter(
                    "since", Wording(N_("\"%1$s\" is not a date (2026-11-01) or RFC 3339 time"), .text(since)))
            }
            sinceInstant = instant
        }
        // A removed item's history is still there under its exact id: what names no item is taken as one.
        var itemId = item
        if let item {
            do { itemId = try index.resolve(item, quarantinedToo: true) } catch {
                guard case .noSuchItem = error else { throw error }
            }
        }
        let entries: [HistoryRecord]
        do { entries = try store.history(limit: limit, since: sinceInstant, itemId: itemId) } catch {
            throw EngineError.store(error)
        }
        return entries.map { entry in
            HistoryReply.Entry(
                at: Timestamp.format(entry.at, in: zone), item: entry.itemId, title: entry.title,
                event: entry.event.rawValue, reason: entry.reason)
        }
    }
}
