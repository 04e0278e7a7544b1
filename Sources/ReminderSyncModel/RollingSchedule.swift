import CivilTime
import ReminderCore

/// Which occurrence a resource shows, derived from the item's rules and its ledger — never
/// merged arithmetically, so two devices that agree on the ledger write the same `DUE`.
extension SyncRecord {
    /// Benefits, subscriptions and fees repeat (a rolling master with an RRULE); coupons and
    /// rebuys are one-offs.
    public var repeats: Bool {
        switch item.schedule {
        case .benefit, .subscription, .fee: return true
        case .coupon, .rebuy: return false
        }
    }

    /// A repeating item's first occurrence due after `now` that is not done; a one-off's only one.
    public func currentOccurrence(in context: SyncContext) -> Occurrence? {
        let rules = context.rules
        switch item.schedule {
        case .coupon(let coupon):
            switch coupon.expires {
            case .date(let date): return rules.occurrence(dueOn: date)
            case .dateTime(let dateTime): return rules.occurrence(dueAt: dateTime)
            }
        case .rebuy(let rebuy):
            return rules.occurrence(dueOn: rebuy.runsOut)
        case .benefit, .subscription, .fee:
            return rules.firstOccurrence(of: item, dueAfter: context.now) { !ledger.contains($0.key(in: rules.zone)) }
        }
    }

    /// The item's occurrences due on dates in `[from, to)`.
    func occurrences(from: LocalDate, to: LocalDate, in context: SyncContext) -> [Occurrence] {
        var found: [Occurrence] = []
        guard from < to else { return found }
        let rules = context.rules
        rules.forEachOccurrence(
            of: item, dueAfter: rules.occurrence(dueOn: from.adding(days: -1)).due,
            before: rules.occurrence(dueOn: to).due
        ) { occurrence in
            if occurrence.dueDate >= from, occurrence.dueDate < to { found.append(occurrence) }
            return true
        }
        return found
    }

    /// The item's occurrence on `date`, if it has one.
    func occurrence(on date: LocalDate, in context: SyncContext) -> Occurrence? {
        if !repeats { return currentOccurrence(in: context).flatMap { $0.dueDate == date ? $0 : nil } }
        return occurrences(from: date, to: date.adding(days: 1), in: context).first
    }

    /// Done on `occurrence` at `doneAt`: a ledger entry (idempotent by occurrence); a rebuy is
    /// re-dated from the day it was bought again.
    public mutating func markDone(
        _ occurrence: Occurrence, at doneAt: Int64, amount: Money? = nil, in context: SyncContext
    ) {
        let key = occurrence.key(in: context.zone)
        guard !ledger.contains(key) else { return }
        ledger.record(DoneEntry(occurrence: key, doneAt: doneAt, amount: amount))
        if case .rebuy(var rebuy) = item.schedule {
            let bought = context.zone.localDateTime(at: doneAt).date
            if bought > rebuy.lastPurchased {
                rebuy.lastPurchased = bought
                item.schedule = .rebuy(rebuy)
            }
        }
    }

    /// Undo of a Done: the entry goes. (A rebuy keeps its new purchase date: the old one is not
    /// in the resource any more.)
    public mutating func undoDone(_ occurrence: LocalDateTime) {
        ledger.remove(occurrence)
    }
}
