import CivilTime

extension FireTimeRules {
    /// Calls `body` with each occurrence of `item` due in `(after, before)`, in time order, until
    /// it returns false — assuming nothing was marked done (CONTRACT §2: periods, renewals, yearly
    /// fees; a coupon or a rebuy has just its current occurrence).
    public func forEachOccurrence(
        of item: Item, dueAfter after: Int64, before: Int64, _ body: (Occurrence) -> Bool
    ) {
        // Start a day early so that no occurrence due just after `after` is skipped by a zone
        // offset; the `due > after` check below trims the extra.
        let firstDate = zone.localDateTime(at: after).date.adding(days: -1)
        var stopped = false
        func emit(_ occurrence: Occurrence) -> Bool {
            guard !stopped, occurrence.due < before else { return false }
            if occurrence.due > after, !body(occurrence) { stopped = true }
            return !stopped
        }
        switch item.schedule {
        case .benefit(let benefit):
            var end = benefit.periodEnd(containing: firstDate)
            while emit(occurrence(dueOn: end)) {
                end = benefit.periodEnd(containing: end.adding(days: 1))
            }
        case .subscription(let subscription):
            guard subscription.cancelled == nil else { break }
            let trial = subscription.trialEnds.map { occurrence(dueOn: $0) }
            if let trial, !emit(trial) { break }
            var k = 0
            let every = subscription.every
            if every.unit == .months || every.unit == .years {
                k = max(0, subscription.next.months(until: firstDate) / every.months - 1)
            } else {
                k = max(0, Int((firstDate.dayNumber - subscription.next.dayNumber) / every.days) - 1)
            }
            // Renewals on or before the trial's end are not charged: the first charge follows it.
            while true {
                let renewal = occurrence(dueOn: subscription.renewal(k))
                if renewal.due > trial?.due ?? .min, !emit(renewal) { break }
                k += 1
            }
        case .fee(let fee):
            var year = max(fee.due.year, firstDate.year - 1)
            while year <= LocalDate.supportedYears.upperBound, emit(occurrence(dueOn: fee.due(in: year))) { year += 1 }
        case .coupon(let coupon):
            switch coupon.expires {
            case .date(let date): _ = emit(occurrence(dueOn: date))
            case .dateTime(let dateTime): _ = emit(occurrence(dueAt: dateTime))
            }
        case .rebuy(let rebuy):
            _ = emit(occurrence(dueOn: rebuy.runsOut))
        }
    }
}

extension FireTimeRules {
    /// The first occurrence of `item` due after `after` that `accept` takes, within `horizon`
    /// seconds (renewals are at most 10 years apart).
    public func firstOccurrence(
        of item: Item, dueAfter after: Int64, horizon: Int64 = 11 * 31_556_952, where accept: (Occurrence) -> Bool
    ) -> Occurrence? {
        var found: Occurrence?
        forEachOccurrence(of: item, dueAfter: after, before: after + horizon) { occurrence in
            if accept(occurrence) { found = occurrence }
            return found == nil
        }
        return found
    }
}
