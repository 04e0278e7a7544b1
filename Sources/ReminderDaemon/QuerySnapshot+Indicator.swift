import CivilTime
import ReminderCore

/// The panel indicator's content, worked out from a `QuerySnapshot` whenever the engine publishes
/// (after every command, timer run and button), and only while a panel hosts indicators
/// (`ReminderEngine.publishIndicator`).
extension QuerySnapshot {
    /// The items due within a week and not settled, soonest first, and the wallet's total left
    /// (the benefits' value this period in the configured currency, as `summary` counts it).
    func indicator() -> IndicatorComposer {
        var entries: [(due: Int64, entry: IndicatorComposer.Entry)] = []
        var walletLeft = Money.zero
        for id in order {
            guard let item = items[id] else { continue }
            let (status, due) = status(of: item)
            guard !status.isSettled else { continue }
            let currency = item.currency ?? configuration.currency
            var value: Money?
            var expires = true
            switch item.schedule {
            case .benefit(let benefit):
                if let due, let left = benefit.amountLeft(inPeriodDueOn: due.dueDate, done: false) {
                    value = left
                    if currency == configuration.currency { walletLeft = walletLeft + left }
                }
            case .coupon(let coupon): value = coupon.value
            case .subscription(let subscription):
                value = subscription.amount
                expires = false
            case .fee(let fee):
                value = fee.amount
                expires = false
            case .rebuy: expires = false
            }
            guard let due else { continue }
            let days = NotificationText.daysLeft(due, now: now, zone: zone)
            guard days <= 7 else { continue }
            entries.append(
                (
                    due.due,
                    IndicatorComposer.Entry(
                        itemId: id, due: due.due, title: item.title, daysLeft: days, value: value, currency: currency,
                        expires: expires, isCoupon: item.kind == .coupon)
                ))
        }
        entries.sort { $0.due < $1.due }
        return IndicatorComposer(
            entries: entries.map(\.entry), walletLeft: walletLeft, currency: configuration.currency,
            paused: delivery.pausedUntil != nil)
    }
}
