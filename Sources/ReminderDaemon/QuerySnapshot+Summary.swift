import CivilTime
import ReminderCore
import ReminderProtocol
import ReminderStore

/// Summary, the dashboard: worked out from a `QuerySnapshot`, with the redemption ledger and the
/// latest Dones read from the store.
extension QuerySnapshot {
    /// The dashboard (CONTRACT §5 `summary`): benefit value still available this period, what is
    /// due within a week, what was used lately, subscription totals, coupons, and each card's
    /// fee return (value redeemed this card year against its fee).
    func summary() throws(EngineError) -> SummaryReply {
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
            let (status, due) = status(of: item)
            let days = due.map { NotificationText.daysLeft($0, now: now, zone: zone) }
            let active = !status.isSettled
            let currency = item.currency ?? configuration.currency
            var entry = SummaryReply.Entry(
                item: id, title: item.title, kind: item.kind.rawValue, status: status.rawValue, currency: currency,
                due: due.map { Timestamp.format($0.due, in: zone) }, daysLeft: days)
            switch item.schedule {
            case .benefit(let benefit):
                entry.card = benefit.card
                if let due, let left = benefit.amountLeft(inPeriodDueOn: due.dueDate, done: !active), active {
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
        // The latest Dones still in effect: one that was undone no longer has its undo step (Undo
        // deletes it), so it is not "used" any more.
        let usedRecently: [HistoryRecord]
        do { usedRecently = try store.usedRecently(limit: 3) } catch { throw EngineError.store(error) }
        let main = configuration.currency
        return SummaryReply(
            currency: main, benefitsAvailable: (available[main] ?? .zero).description,
            benefitsAvailableOther: QuerySnapshot.others(available, besides: main),
            benefitCards: Int64(benefitCards.count), expiring: expiring.map(\.entry),
            usedRecently: usedRecently.map {
                SummaryReply.Use(
                    item: $0.itemId, title: $0.title, at: Timestamp.format($0.at, in: zone), reason: $0.reason)
            },
            monthlyTotal: (monthly[main] ?? .zero).description,
            monthlyOther: QuerySnapshot.others(monthly, besides: main), renewingThisWeek: renewing,
            couponsToday: couponsToday, couponsThisWeek: couponsThisWeek, cards: cards)
    }

    /// Totals in currencies other than `main`, as `{"USD": "127"}`.
    static func others(_ totals: [String: Money], besides main: String) -> [String: String] {
        totals.filter { $0.key != main && $0.value != .zero }.mapValues(\.description)
    }
}
