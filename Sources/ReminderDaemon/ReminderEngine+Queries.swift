import CivilTime
import Dispatch
import ReminderCore
import ReminderJSON
import ReminderProtocol
import ReminderStore

extension ReminderEngine {
    /// available, expiring (7 days or less), used (this occurrence done), expired (a coupon that
    /// passed), overdue (a rebuy past its date).
    func status(of item: Item, now: Int64) -> (status: ItemStatus, due: Occurrence?) {
        guard let id = item.id else { return (.available, nil) }
        guard let first = rules.firstOccurrence(of: item, dueAfter: now, where: { _ in true }) else {
            if case .rebuy(let rebuy) = item.schedule { return (.overdue, rules.occurrence(dueOn: rebuy.runsOut)) }
            let done = occurrences[id]?.values.contains { $0.doneAt != nil } ?? false
            return (done ? .used : .expired, nil)
        }
        if occurrences[id]?[first.due]?.doneAt != nil { return (.used, first) }
        return (NotificationText.daysLeft(first, now: now, zone: zone) <= 7 ? .expiring : .available, first)
    }

    /// The item's §2 JSON plus `status`, `due`, `daysLeft`, `nextReminder`, and the currency it
    /// is shown in when it has none of its own (the config's).
    func view(_ id: String, now: Int64) -> ItemView {
        guard let item = items[id] else { return ItemView(fields: [:]) }
        return view(item, id: id, status: status(of: item, now: now), now: now)
    }

    /// `view` of an item whose status the caller has worked out already (`list` filters by it).
    func view(_ item: Item, id: String, status known: (status: ItemStatus, due: Occurrence?), now: Int64) -> ItemView {
        guard case .object(var fields) = item.json else { return ItemView(fields: [:]) }
        fields["currency"] = .string(item.currency ?? configuration.currency)
        let (status, due) = known
        fields["status"] = .string(status.rawValue)
        if let due {
            fields["due"] = .string(Timestamp.format(due.due, in: zone))
            fields["daysLeft"] = .integer(NotificationText.daysLeft(due, now: now, zone: zone))
        }
        if case .benefit(let benefit) = item.schedule, !benefit.amountIn.isEmpty, let due,
            let amount = benefit.amount(dueOn: due.dueDate)
        {
            fields["amountThisPeriod"] = .string(amount.description)
        }
        let next = scheduledFires(of: id).map(\.at).min()
        fields["nextReminder"] = next.map { .string(Timestamp.format($0, in: zone)) } ?? .null
        return ItemView(fields: fields)
    }

    func list(kind: String?, all: Bool, now: Int64) throws(EngineError) -> [ItemView] {
        if let kind, ItemKind(rawValue: kind) == nil {
            throw EngineError.invalidParameter(
                "kind", "\"\(kind)\" is not a kind; use \(ItemKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let readable = order.compactMap { id -> ItemView? in
            guard let item = items[id], kind == nil || item.kind.rawValue == kind else { return nil }
            let status = status(of: item, now: now)
            if !all, item.kind == .coupon, status.status.isSettled { return nil }
            return view(item, id: id, status: status, now: now)
        }
        // Unreadable items have no kind to filter by: listed whenever the kind is not, to be removed.
        guard kind == nil else { return readable }
        return readable
            + quarantined.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }.map(quarantinedView)
    }

    /// The item's pending pop-ups: (when, occurrence, lead, late).
    func scheduledFires(of id: String) -> [(at: Int64, occurrence: Occurrence, lead: String, late: Bool)] {
        schedule.fires(of: id)
    }

    func upcoming(days: Int, now: Int64) -> [UpcomingReply.Reminder] {
        let limit = now + Int64(days) * 86_400
        var rows: [(at: Int64, id: String, occurrence: Occurrence, lead: String, late: Bool)] = []
        schedule.forEach(dueBy: limit) { event, at in
            if case .fire(let id, let occurrence, _, let lead, let late) = event {
                rows.append((at, id, occurrence, lead, late?.isLate == true))
            }
        }
        rows.sort { ($0.at, $0.id) < ($1.at, $1.id) }
        return rows.map { row in
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
                currency: money == nil ? nil : items[row.id]?.currency ?? configuration.currency)
        }
    }

    /// Each upcoming fire time of the current occurrence with how it was derived. A dropped one
    /// says the rule that dropped it: quiet hours that end after the due time move a reminder to
    /// a minute before they begin, which is before the item was added when it was added in them.
    func explain(_ id: String, now: Int64) throws(EngineError) -> [ExplainReply.Step] {
        guard let item = items[id], let occurrence = currentOccurrence(of: item, now: now) else { return [] }
        var steps: [ExplainReply.Step] = []
        for lead in leads(of: item) {
            let base = rules.baseFireTime(of: occurrence, lead: lead)
            let moved = rules.quietHours.flatMap {
                rules.moveOutOfQuietHours(base.fireAt, window: $0, due: occurrence.due)
            }
            var fires: [FireTime] = []
            rules.fireTimes(of: occurrence, leads: [lead], createdAt: item.createdAt, into: &fires)
            let final = fires.first
            var reason = "kept"
            if final == nil {
                reason = droppedReason(
                    base: base.fireAt, moved: moved, due: occurrence.due, createdAt: item.createdAt ?? .min)
            } else if fired.of(id).contains(
                due: occurrence.due, ReminderFire(at: final!.fireAt, lead: final!.lead.description))
            {
                reason = "already shown"
            } else if final!.fireAt <= now, !delivery.outbox.holds(id, firedBy: final!.fireAt),
                !scheduledFires(of: id).contains(where: \.late)
            {
                // Neither shown, nor on its way, nor due late: an edit or a reload after its time
                // passed it over (CONTRACT §3, "Missed and late reminders").
                reason = "dropped: its time had passed when the item or the settings changed"
            }
            let rule =
                lead.isElapsedTime
                ? "due − \(lead) of elapsed time"
                : "\(configuration.reminderTime) on the due date − \(lead.days) day(s)"
            var quiet = "not affected"
            if moved?.adjustment == .quietHoursEnd { quiet = "moved to the end of quiet hours" }
            if moved?.adjustment == .quietHoursStart { quiet = "moved to a minute before quiet hours" }
            steps.append(
                ExplainReply.Step(
                    lead: lead.description, due: Timestamp.format(occurrence.due, in: zone), rule: rule,
                    computed: Timestamp.format(base.fireAt, in: zone), dstGap: base.adjusted == .dstGap,
                    quietHours: quiet, fireAt: final.map { Timestamp.format($0.fireAt, in: zone) }, result: reason))
        }
        return steps
    }

    /// Why a reminder of one lead is not kept (CONTRACT §3, rules 3–5), in words `add` and `edit`
    /// repeat: a reminder moved out of quiet hours to before the item was added is said to be
    /// that, not "at or after the due time" (what it was before it moved).
    func droppedReason(base: Int64, moved: (fireAt: Int64, adjustment: FireAdjustment)?, due: Int64, createdAt: Int64)
        -> String
    {
        let fireAt = moved?.fireAt ?? base
        if fireAt >= due { return "dropped: at or after the due time" }
        if let moved, moved.adjustment == .quietHoursStart, base >= createdAt, let window = rules.quietHours {
            return "dropped: in quiet hours \(window.start.hourMinute)–\(window.end.hourMinute), which end after the "
                + "due time; a minute before they begin (\(Timestamp.format(moved.fireAt, in: zone))) is before the "
                + "item was added"
        }
        return "dropped: before the item was added"
    }

    /// When the current occurrence's reminders are snoozed to, or nil.
    func snoozedUntil(_ id: String, now: Int64) -> Int64? {
        guard let item = items[id], let occurrence = currentOccurrence(of: item, now: now),
            let until = occurrences[id]?[occurrence.due]?.snoozedUntil, until > now
        else { return nil }
        return until
    }

    /// The items as iCalendar for the next `days` days, their alarms where this daemon — in its
    /// zone, with its settings — reminds (Done aside, as with `reminderctl plan`).
    func calendar(days: Int, now: Int64) throws(EngineError) -> String {
        guard (1...3660).contains(days) else { throw EngineError.invalidParameter("days", "expected 1 to 3660") }
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
                throw EngineError.invalidParameter("since", "\"\(since)\" is not a date (2026-11-01) or RFC 3339 time")
            }
            sinceInstant = instant
        }
        // A removed item's history is still there under its exact id.
        var itemId = item
        if let item, items[item] != nil || !index.sortedIds.starting(with: item).isEmpty { itemId = try resolve(item) }
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

    /// The dashboard (CONTRACT §5 `summary`): benefit value still available this period, what is
    /// due within a week, what was used lately, subscription totals, coupons, and each card's
    /// fee return (value redeemed this card year against its fee).
    func summary(now: Int64) throws(EngineError) -> SummaryReply {
        // Sums are kept per currency; the config's currency leads, others are listed beside it.
        var available: [String: Money] = [:]
        var benefitCards = Set<String>()
        var monthly: [String: Money] = [:]
        var expiring: [(days: Int64, due: Int64, entry: SummaryReply.Entry)] = []
        var renewing: [SummaryReply.Entry] = []
        var couponsToday: [SummaryReply.Entry] = []
        var couponsThisWeek: [SummaryReply.Entry] = []
        var fees: [(card: String, fee: Money?, due: Occurrence, previousDue: Int64, currency: String)] = []
        for id in order {
            guard let item = items[id] else { continue }
            let (status, due) = status(of: item, now: now)
            let days = due.map { NotificationText.daysLeft($0, now: now, zone: zone) }
            let active = !status.isSettled
            let currency = item.currency ?? configuration.currency
            var entry = SummaryReply.Entry(
                item: id, title: item.title, kind: item.kind.rawValue, status: status.rawValue, currency: currency,
                due: due.map { Timestamp.format($0.due, in: zone) }, daysLeft: days)
            switch item.schedule {
            case .benefit(let benefit):
                entry.card = benefit.card
                // The current period's amount: its month's when the credit's amount varies by month.
                if let amount = due.map({ benefit.amount(dueOn: $0.dueDate) }) ?? benefit.amount, active {
                    let left = max(.zero, amount - (benefit.amountUsed ?? .zero))
                    available[currency, default: .zero] = available[currency, default: .zero] + left
                    entry.value = left.description
                    if let card = benefit.card { benefitCards.insert(card) }
                }
            case .subscription(let subscription):
                if let amount = subscription.amount {
                    entry.value = amount.description
                    monthly[currency, default: .zero] =
                        monthly[currency, default: .zero] + Subscription.perMonth(amount, every: subscription.every)
                }
                if let days, days <= 7, active { renewing.append(entry) }
            case .coupon(let coupon):
                entry.value = coupon.value?.description
                if let days, active {
                    if days <= 0 {
                        couponsToday.append(entry)
                    } else if days <= 7 {
                        couponsThisWeek.append(entry)
                    }
                }
            case .fee(let fee):
                if let card = fee.card ?? Optional(item.title), let due {
                    let previous = rules.occurrence(dueOn: fee.due(in: due.dueDate.year - 1)).due
                    fees.append((card, fee.amount, due, previous, currency))
                }
            case .rebuy: break
            }
            if let days, let due, days <= 7, active { expiring.append((days, due.due, entry)) }
        }
        expiring.sort { ($0.due, $0.days) < ($1.due, $1.days) }
        var cards: [SummaryReply.FeeReturn] = []
        for fee in fees.sorted(by: { $0.due.due < $1.due.due }) {
            let redeemed: Money
            do { redeemed = try store.redeemed(since: fee.previousDue)[fee.card] ?? .zero } catch {
                throw EngineError.store(error)
            }
            cards.append(
                SummaryReply.FeeReturn(
                    card: fee.card, redeemed: redeemed.description, currency: fee.currency,
                    feeDue: Timestamp.format(fee.due.due, in: zone),
                    daysUntilFee: NotificationText.daysLeft(fee.due, now: now, zone: zone),
                    fee: fee.fee?.description, net: fee.fee.map { (redeemed - $0).description }))
        }
        let main = configuration.currency
        return SummaryReply(
            currency: main, benefitsAvailable: (available[main] ?? .zero).description,
            benefitsAvailableOther: ReminderEngine.others(available, besides: main),
            benefitCards: Int64(benefitCards.count), expiring: expiring.map(\.entry),
            usedRecently: try usedRecently(limit: 3).map {
                SummaryReply.Use(
                    item: $0.itemId, title: $0.title, at: Timestamp.format($0.at, in: zone), reason: $0.reason)
            },
            monthlyTotal: (monthly[main] ?? .zero).description,
            monthlyOther: ReminderEngine.others(monthly, besides: main), renewingThisWeek: renewing,
            couponsToday: couponsToday, couponsThisWeek: couponsThisWeek, cards: cards)
    }

    /// Totals in currencies other than `main`, as `{"USD": "127"}`.
    static func others(_ totals: [String: Money], besides main: String) -> [String: String] {
        totals.filter { $0.key != main && $0.value != .zero }.mapValues(\.description)
    }

    func status(now: Int64) -> StatusReply {
        StatusReply(
            version: ReminderVersion.current, uptimeSeconds: now - startedAt, items: Int64(items.count),
            nextReminder: nextFireTime().map { Timestamp.format($0, in: zone) },
            notificationServer: notifier.serverInfo().map {
                StatusReply.Server(
                    name: $0.name, vendor: $0.vendor, version: $0.version, capabilities: $0.capabilities)
            },
            paused: delivery.pausedUntil.map {
                $0 == DeliveryController.untilResumed ? "until resumed" : Timestamp.format($0, in: zone)
            },
            waiting: Int64(delivery.outbox.waiting.count), timeZone: zone.identifier,
            today: zone.localDateTime(at: now).date.description, store: store.path,
            held: Int64(delivery.outbox.held.count),
            heldReason: heldReason())
    }

    /// Why reminders are held, while some are: the reason the latest `held` entry recorded.
    func heldReason() -> String? {
        guard !delivery.outbox.held.isEmpty else { return nil }
        return (try? store.history(limit: 1, event: .held))?.first?.reason
    }
}
