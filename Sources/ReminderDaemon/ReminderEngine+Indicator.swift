import CivilTime
import ReminderCore

/// The panel indicator's content, worked out on the engine's queue whenever the engine publishes
/// (after every command, timer run and button), and only while a panel hosts indicators.
extension ReminderEngine {
    /// Hands the indicator's content to the exporter when a StatusNotifierWatcher is on the bus;
    /// returns the next local midnight then (its "today" and "this week" move on), nil otherwise —
    /// no host, no work and no wake-up. With `"indicator": false` at start the exporter watches
    /// for no watcher, so a reload's change of the key counts from the next start.
    func publishIndicator(now: Int64) -> Int64? {
        guard let exporter = notifier as? IndicatorExporter, exporter.indicatorHostPresent else { return nil }
        exporter.showIndicator(indicatorComposer(now: now).view)
        return ReminderEngine.nextMidnight(after: now, zone: zone)
    }

    /// The items due within a week and not settled, soonest first, and the wallet's total left
    /// (the benefits' value this period in the configured currency, as `summary` counts it).
    func indicatorComposer(now: Int64) -> IndicatorComposer {
        var entries: [(due: Int64, entry: IndicatorComposer.Entry)] = []
        var walletLeft = Money.zero
        for id in order {
            guard let item = items[id] else { continue }
            let (status, due) = status(of: item, now: now)
            guard !status.isSettled else { continue }
            let currency = item.currency ?? configuration.currency
            var value: Money?
            var expires = true
            switch item.schedule {
            case .benefit(let benefit):
                if let amount = due.map({ benefit.amount(dueOn: $0.dueDate) }) ?? benefit.amount {
                    let left = max(.zero, amount - (benefit.amountUsed ?? .zero))
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
                        expires: expires)
                ))
        }
        entries.sort { $0.due < $1.due }
        return IndicatorComposer(
            entries: entries.map(\.entry), walletLeft: walletLeft, currency: configuration.currency,
            paused: delivery.pausedUntil != nil)
    }

    /// The first instant of the local day after `now`'s.
    static func nextMidnight(after now: Int64, zone: TimeZoneRules) -> Int64 {
        let local = zone.localSeconds(at: now)
        let dayStart = local - ((local % 86_400) + 86_400) % 86_400
        return zone.resolve(localSeconds: dayStart + 86_400).instant
    }
}

/// The panel indicator's exporter (`DBusNotifier`), as the engine sees it.
protocol IndicatorExporter: AnyObject, Sendable {
    /// Whether a StatusNotifierWatcher is on the bus: the indicator is worked out only then.
    var indicatorHostPresent: Bool { get }
    /// Shows `view`; the exporter signals only what differs from the view shown before.
    func showIndicator(_ view: IndicatorView)
}
