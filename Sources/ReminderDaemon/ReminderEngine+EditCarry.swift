import ReminderCore
import ReminderStore

extension ReminderEngine {
    /// The stored occurrences an edit moves, old due instant → new (CONTRACT, "What a Done belongs
    /// to"): what was done, snoozed or shown of an occurrence belongs to it, not to its date, so an
    /// edit that moves the date carries it along. A coupon has one occurrence: its record follows
    /// the expiry wherever it goes, into the past too (a used coupon stays used until undone). A
    /// repeating item's occurrences still ahead are matched in order — the first ahead before the
    /// edit is the first ahead after it — so the current period's Done, or one done early, stays
    /// on the occurrence it was made for. Past occurrences are history and stay. A rebuy's Done is
    /// its purchase date, which an edit sets itself.
    func occurrenceMoves(from old: Item, to new: Item, now: Int64) -> [(from: Int64, to: Int64)] {
        guard let id = old.id else { return [] }
        let records = occurrences[id] ?? [:]
        guard !records.isEmpty || !fired.of(id).dues.isEmpty else { return [] }
        switch (old.schedule, new.schedule) {
        case (.rebuy, _): return []
        case (.coupon, .coupon):
            guard let from = onlyOccurrence(of: old), let to = onlyOccurrence(of: new), from != to else { return [] }
            return [(from, to)]
        default:
            let ahead = Set(records.keys.filter { $0 > now }).union(fired.of(id).dues.filter { $0 > now })
            guard let last = ahead.max() else { return [] }
            var before: [Int64] = []
            rules.forEachOccurrence(of: old, dueAfter: now, before: last + 1) { occurrence in
                before.append(occurrence.due)
                return true
            }
            var after: [Int64] = []
            rules.forEachOccurrence(of: new, dueAfter: now, before: .max / 2) { occurrence in
                after.append(occurrence.due)
                return after.count < before.count
            }
            return zip(before, after).compactMap { from, to in
                ahead.contains(from) && from != to ? (from, to) : nil
            }
        }
    }

    /// A coupon's one due instant, wherever it is.
    private func onlyOccurrence(of item: Item) -> Int64? {
        guard case .coupon(let coupon) = item.schedule else { return nil }
        switch coupon.expires {
        case .date(let date): return rules.occurrence(dueOn: date).due
        case .dateTime(let dateTime): return rules.occurrence(dueAt: dateTime).due
        }
    }
}
