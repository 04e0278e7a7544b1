import CivilTime
import ReminderCore
import ReminderJSON
import ReminderProtocol
import ReminderStore

extension ReminderEngine {
    /// Done (CONTRACT §2): the current occurrence is used / acknowledged; a rebuy starts a new cycle
    /// today; a partial amount on a benefit is recorded and reminders go on for the rest.
    ///
    /// Done acts on the current occurrence only. When that one is done already it refuses and
    /// changes nothing — a repeated `done` (or a second click) must not quietly acknowledge next
    /// year's fee — unless `early` asks to acknowledge the next occurrence not yet done.
    /// Every Done is kept as an undo step, so Undo can walk back all of them.
    ///
    /// On a subscription's free trial not yet over, Done answers the trial: it keeps the
    /// subscription (the trial cleared, renewals go on from the first charge), and `cancelled`
    /// ends it instead (no reminder any more; `report` counts one charge as money kept). Neither
    /// marks a renewal paid. `cancelled` on anything else is refused.
    ///
    /// `amount` is a positive decimal, checked where the call was read (`CallParameter.amount`);
    /// it is in the item's currency. Returns nothing: a client's reply, the item as it is now, is
    /// built at the varlink edge (`VarlinkEdge.swift`); a button has no use for one.
    func markDone(_ id: String, amount: Money?, early: Bool = false, cancelled: Bool = false, now: Int64)
        throws(EngineError)
    {
        guard var item = items[id] else { throw EngineError.notApplicable(id, Wording(N_("no such item"))) }
        let previous = item
        let today = zone.localDateTime(at: now).date
        var doneOccurrence: Occurrence?
        /// A rebuy's cycle that this Done ends: recorded done, as every device reads a rebuy's
        /// Done (a ledger entry beside the new purchase date), so another one says "done elsewhere".
        var rebought: Occurrence?
        var reason = "done"
        /// What this Done redeemed of a benefit, for the card's fee return.
        var redeemed: Money?
        if amount != nil {
            // Refused before anything else, a rebuy's too: an amount that only a benefit records
            // must not be answered with success and dropped.
            guard case .benefit = item.schedule else {
                throw EngineError.invalidParameter("amount", Wording(N_("only a benefit records a partial use")))
            }
        }
        func trialOver(_ trial: LocalDate) -> Bool { rules.occurrence(dueOn: trial).due <= now }
        if cancelled {
            guard case .subscription(let subscription) = item.schedule, let trial = subscription.trialEnds,
                subscription.cancelled == nil, !trialOver(trial)
            else { throw EngineError.notApplicable(id, Wording(N_("no free trial running to cancel; nothing changed"))) }
        }
        switch item.schedule {
        case .subscription(var subscription)
        where subscription.cancelled == nil && subscription.trialEnds.map { !trialOver($0) } ?? false:
            if cancelled {
                subscription.cancelled = today
                reason = "free trial cancelled on \(today)"
            } else {
                subscription.trialEnds = nil
                reason = "kept after the free trial; renews \(subscription.next)"
            }
            item.schedule = .subscription(subscription)
        case .rebuy(var rebuy):
            if rebuy.lastPurchased == today {
                throw EngineError.notApplicable(
                    id, Wording(N_("already rebought today (%1$s); nothing changed"), .text(today.description)))
            }
            rebought = rules.occurrence(dueOn: rebuy.runsOut)
            rebuy.lastPurchased = today
            item.schedule = .rebuy(rebuy)
            reason = "rebought on \(today)"
        case .benefit(var benefit):
            let occurrence = try doneTarget(of: item, early: early, now: now)
            if let used = amount {
                if occurrence != currentPeriod(of: item, now: now) {
                    throw EngineError.invalidParameter(
                        "amount", Wording(N_("a partial use counts for the current period only")))
                }
                // What was used of this period: a use of an earlier one is over with it.
                let before = benefit.amountUsed(inPeriodDueOn: occurrence.dueDate) ?? .zero
                let total = before + used
                let full = benefit.amount(dueOn: occurrence.dueDate)  // its month's, when amounts vary
                redeemed = full.map { min(used, max(.zero, $0 - before)) } ?? used
                if let full, total < full {
                    benefit.amountUsed = total
                    benefit.amountUsedPeriod = occurrence.dueDate
                    item.schedule = .benefit(benefit)
                    let currency = item.currency ?? configuration.currency
                    reason = "\(total.formatted(currency: currency)) of \(full.formatted(currency: currency)) used"
                } else {
                    (benefit.amountUsed, benefit.amountUsedPeriod) = (nil, nil)
                    item.schedule = .benefit(benefit)
                    doneOccurrence = occurrence
                }
            } else {
                redeemed = benefit.amount(dueOn: occurrence.dueDate).map {
                    max(.zero, $0 - (benefit.amountUsed(inPeriodDueOn: occurrence.dueDate) ?? .zero))
                }
                (benefit.amountUsed, benefit.amountUsedPeriod) = (nil, nil)
                item.schedule = .benefit(benefit)
                doneOccurrence = occurrence
            }
        default:
            doneOccurrence = try doneTarget(of: item, early: early, now: now)
        }
        // The history says what the Done was, in the word `reminderctl done` answers with.
        let word = [.subscription, .fee].contains(item.kind) ? "paid" : "used"
        if let doneOccurrence {
            let due = Timestamp.format(doneOccurrence.due, in: zone)
            if doneOccurrence != currentPeriod(of: item, now: now) {
                reason = "\(word) early, for the occurrence due \(due)"
            } else {
                reason = item.kind == .coupon ? word : "\(word), for the occurrence due \(due)"
            }
        }
        var record: OccurrenceRecord?
        if let occurrence = doneOccurrence ?? rebought {
            var r = occurrences[id]?[occurrence.due] ?? OccurrenceRecord(itemId: id, due: occurrence.due)
            r.doneAt = now
            record = r
        }
        var redemption: Redemption?
        if let redeemed, redeemed > .zero, case .benefit(let benefit) = item.schedule {
            redemption = Redemption(itemId: id, card: benefit.card ?? "", at: now, amount: redeemed.description)
        }
        do {
            try store.recordDone(
                item, before: previous, occurrence: record, redeemed: redemption, reason: reason, at: now)
        } catch { throw EngineError.store(error) }
        index.update(item)
        if let record { index.record(record) }
        index.acknowledge(id, at: now)  // as stored: an Undo does not bring back the repeats
        delivery.closePopUps(of: id)
        reschedule(id, now: now)
    }

    /// The occurrence due next, done or not: the one Done means.
    func currentPeriod(of item: Item, now: Int64) -> Occurrence? {
        rules.firstOccurrence(of: item, dueAfter: now) { _ in true }
    }

    /// The occurrence a Done acts on: the current one; when that is done already, the next one
    /// not done with `early`, else a refusal that says what is done and what `early` would do.
    func doneTarget(of item: Item, early: Bool, now: Int64) throws(EngineError) -> Occurrence {
        let id = item.id ?? ""
        guard let current = currentPeriod(of: item, now: now) else {
            throw EngineError.notApplicable(id, Wording(N_("nothing is due")))
        }
        guard occurrences[id]?[current.due]?.doneAt != nil else { return current }
        guard early else {
            let due = Timestamp.format(current.due, in: zone)
            let reason = currentOccurrence(of: item, now: now).map {
                Wording(
                    N_("already done for the occurrence due %1$s; to acknowledge the next one (due %2$s) early, use --early"),
                    .text(due), .text(Timestamp.format($0.due, in: zone)))
            }
            throw EngineError.notApplicable(id, reason ?? Wording(N_("already done for the occurrence due %1$s"), .text(due)))
        }
        guard let next = currentOccurrence(of: item, now: now) else {
            throw EngineError.notApplicable(id, Wording(N_("every occurrence ahead is done already")))
        }
        return next
    }

    /// Restores the item as it was before its latest Done not yet undone; repeated, it walks back
    /// through every Done. An edit made since moved what was done of the occurrences ahead to the
    /// edited schedule (`occurrenceMoves`); it is undone with the Done (CONTRACT §3), so what it
    /// carried is carried back to the restored schedule first — else the Done of an earlier
    /// occurrence would stay on a date the restored item does not have, and that occurrence would
    /// read as not done.
    func undo(_ id: String, now: Int64) throws(EngineError) {
        let step: UndoStep?
        do { step = try store.latestUndoStep(of: id) } catch { throw EngineError.store(error) }
        guard let step else { throw EngineError.nothingToUndo(id) }
        var restored: Item
        do {
            restored = try Item(
                json: JSONValue.parse(Array(step.itemJSON.utf8), source: "undo"), context: .init(zone: zone, present: .unchecked))
        } catch {
            throw EngineError.internal("\(error)")
        }
        restored.id = id
        // A step stored before the used amount's period was recorded: counted toward the current one.
        restored = stampingUsedPeriod(restored, now: now)
        let moves = items[id].map { occurrenceMoves(from: $0, to: restored, now: now) } ?? []
        var record = occurrences[id]?[step.due]
        record?.due = moves.first { $0.from == step.due }?.to ?? step.due
        record?.doneAt = nil
        do { try store.recordUndo(step, restored: restored, moving: moves, occurrence: record, at: now) } catch {
            throw EngineError.store(error)
        }
        index.update(restored)
        index.move(id, moves)
        delivery.moveOccurrences(of: id, moves)
        if let record { index.record(record) }
        reschedule(id, now: now)
    }
}
