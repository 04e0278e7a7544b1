import CivilTime
import ReminderCore
import ReminderProtocol
import ReminderStore

/// Report, the value a card returned: worked out from a `QuerySnapshot` and the redemption ledger.
extension QuerySnapshot {
    /// `Report` (CONTRACT §5 `report`): `ValueReport` fed with the items, the redemption ledger,
    /// the occurrences marked done and each card's fee year as `summary` reckons it (so the two
    /// agree on a card's return).
    func report(months: Int, card: String?) throws(EngineError) -> ReportReply {
        guard (1...120).contains(months) else {
            throw EngineError.invalidParameter(
                "months", Wording(N_("%1$s is not a number of months from 1 to 120"), .text("\(months)")))
        }
        let all = order.compactMap { items[$0] }
        var fees: [ValueReport.FeeYear] = []
        for item in all {
            guard case .fee(let fee) = item.schedule, let due = status(of: item).due else { continue }
            let yearStart = rules.occurrence(dueOn: fee.due(in: due.dueDate.year - 1)).due
            fees.append(
                ValueReport.FeeYear(card: fee.card ?? item.title, fee: fee.amount, yearStart: yearStart, due: due.due))
        }
        // Back to the earliest card year's start, or the first month's (a month is never 32 days).
        let since = min(fees.map(\.yearStart).min() ?? now, now - Int64(months) * 32 * 86_400)
        let ledger: [Redemption]
        do { ledger = try store.redemptions(since: since) } catch { throw EngineError.store(error) }
        let redemptions = ledger.compactMap { redemption -> ValueReport.Redeemed? in
            guard case .success(let amount) = Money.parse(redemption.amount) else { return nil }
            return ValueReport.Redeemed(
                itemId: redemption.itemId, card: redemption.card, at: redemption.at, amount: amount)
        }
        var filter: [String]?
        if let card {
            let names = ValueReport.cardNames(items: all, redemptions: redemptions).union(fees.map(\.card))
            let matched = ValueReport.cards(matching: card, among: names)
            if matched.isEmpty {
                let known =
                    names.isEmpty
                    ? Wording(N_("there are no cards yet"))
                    : Wording(N_("cards: %1$s"), .text(names.sorted().joined(separator: ", ")))
                throw EngineError.invalidParameter(
                    "card", Wording(N_("no card named \"%1$s\" (%2$s)"), .text(card), .wording(known)))
            }
            filter = matched
        }
        let done = occurrences.mapValues { records in records.compactMapValues(\.doneAt) }
        return ReportReply(
            report: ValueReport.build(
                items: all, redemptions: redemptions, fees: fees, done: done, rules: rules,
                currency: configuration.currency, monthCount: months, cards: filter, now: now))
    }
}
