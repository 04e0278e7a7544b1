import CivilTime
import ReminderCore

/// One item's part in the panel indicator, worked out from the item, its records and now; it
/// holds until the item changes or `validUntil`, when now alone changes it (`IndicatorCache`).
struct IndicatorPart: Sendable, Equatable {
    /// The occurrence it shows once due within a week: nil when settled or nothing is due.
    var due: Occurrence?
    /// Its value left this period toward the wallet's total (a benefit in the configured
    /// currency), in ten-thousandths.
    var walletLeft: Int64
    /// When its occurrence passes (when it comes within a week is the cache's, by its day);
    /// `Int64.max`: never by time alone.
    var validUntil: Int64
}

/// The panel indicator's content, worked out from a `QuerySnapshot` whenever the engine publishes
/// (after every command, timer run and button), and only while a panel hosts indicators
/// (`ReminderEngine.publishIndicator`): per item once, then again only for the items that
/// changed or whose time came (`IndicatorCache`); the entries of the week per publish.
extension QuerySnapshot {
    /// The part of item `id` (nil: no such item), as the indicator's walk over every item
    /// worked it out before: unsettled items, the benefits' value left this period.
    func indicatorPart(of id: String) -> IndicatorPart? {
        guard let item = items[id] else { return nil }
        let (status, due) = status(of: item)
        let passes = due.map(\.due).flatMap { $0 > now ? $0 : nil } ?? .max
        guard !status.isSettled, let due else {
            // Settled, it changes by time only when its occurrence passes and another follows.
            let follows = due.flatMap { rules.firstOccurrence(of: item, dueAfter: $0.due, where: { _ in true }) } != nil
            return IndicatorPart(due: nil, walletLeft: 0, validUntil: follows ? passes : .max)
        }
        var walletLeft: Int64 = 0
        if case .benefit(let benefit) = item.schedule,
            (item.currency ?? configuration.currency) == configuration.currency,
            let left = benefit.amountLeft(inPeriodDueOn: due.dueDate, done: false)
        {
            walletLeft = Int64(left.tenThousandths)  // one benefit's amount: at most 12 whole digits
        }
        return IndicatorPart(due: due, walletLeft: walletLeft, validUntil: passes)
    }

    /// The entry of item `id` for its occurrence `due`, nil unless that is due within a week.
    func indicatorEntry(_ id: String, due: Occurrence) -> IndicatorComposer.Entry? {
        guard let item = items[id] else { return nil }
        let days = NotificationText.daysLeft(due, now: now, zone: zone)
        guard days <= 7 else { return nil }
        let currency = item.currency ?? configuration.currency
        var value: Money?
        var expires = true
        var card: String?
        switch item.schedule {
        case .benefit(let benefit):
            card = benefit.card
            value = benefit.amountLeft(inPeriodDueOn: due.dueDate, done: false)
        case .coupon(let coupon): value = coupon.value
        case .subscription(let subscription):
            value = subscription.amount
            card = subscription.card
            expires = false
        case .fee(let fee):
            value = fee.amount
            card = fee.card
            expires = false
        case .rebuy: expires = false
        }
        let text = NotificationText(
            item: item, occurrence: due, now: now, zone: zone, defaultCurrency: configuration.currency,
                moneyLocale: configuration.moneyLocale)
        let snoozes = PopUpComposer(server: nil, configuration: configuration, rules: rules, zone: zone, now: now)
            .snoozeOffers(due: due.due).map { IndicatorComposer.Snooze(action: $0.action, label: $0.label) }
        return IndicatorComposer.Entry(
            itemId: id, due: due.due, title: item.title, daysLeft: days, value: value, currency: currency,
            expires: expires, card: card, doneLabel: text.doneLabel, cancelLabel: text.cancelLabel, snoozes: snoozes,
            isCoupon: item.kind == .coupon, repeats: RepeatRule.of(item, configuration))
    }

    /// The indicator from `cache`'s parts (brought up to date by the caller): the items due
    /// within a week, soonest first, the wallet's total left and whether reminders are paused.
    func indicator(_ cache: IndicatorCache) -> IndicatorComposer {
        let entries = cache.soon.compactMap { id in cache.parts[id]?.due.flatMap { indicatorEntry(id, due: $0) } }
            .sorted { ($0.due, $0.itemId) < ($1.due, $1.itemId) }
        return IndicatorComposer(
            entries: entries, walletLeft: cache.walletLeft, currency: configuration.currency,
            paused: delivery.pausedUntil != nil, moneyLocale: configuration.moneyLocale)
    }

    /// When the menu's offers next change by time alone: a snooze stops fitting before its
    /// item's due time, or the last-minute one does (an early guess only recomposes). "Snooze
    /// until tomorrow" changes only at local midnight, a deadline of its own while watched.
    func indicatorOffersChange(_ entries: [IndicatorComposer.Entry]) -> Int64? {
        let lengths = configuration.snoozeOptions.map(\.nominalSeconds) + [120]
        return entries.flatMap { entry in lengths.map { entry.due - $0 } }.filter { $0 > now }.min()
    }
}
