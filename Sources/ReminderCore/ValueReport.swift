import CivilTime

/// `reminderctl report` (CONTRACT §5, "report"): the value redeemed per month per card over the
/// last months, each card's return this card year against its fee, what subscriptions cost, and
/// what expired unused. Pure: the daemon feeds it its items, the redemption ledger, the fee years
/// it shows in `summary` and the Dones of its occurrences, so the figures can be checked at fixed
/// dates without a store.
///
/// A redemption counts in the month of its Done (the day `done` was run or a Done came from
/// another device), in the configured zone: that is the one date every redemption has (a partial
/// use is not tied to an occurrence), and the card year's return is counted by the same dates.
/// A coupon used counts its value the same way, a free trial cancelled one charge (money kept) in
/// the month it was cancelled, and a subscription's renewal marked paid counts in the month it
/// was paid. Value lost counts in the month its period or coupon was due.
public struct ValueReport: Sendable, Equatable {
    /// What one card redeemed in one month.
    public struct CardAmount: Sendable, Equatable {
        public var card: String
        public var currency: String
        public var amount: Money

        public init(card: String, currency: String, amount: Money) {
            (self.card, self.currency, self.amount) = (card, currency, amount)
        }
    }

    public struct Month: Sendable, Equatable {
        /// The first day of the month.
        public var month: LocalDate
        /// Redeemed, lost and subscription renewals due, in the report's currency.
        public var redeemed: Money
        public var lost: Money
        public var subscriptions: Money
        /// Redeemed by card (every currency), most first.
        public var cards: [CardAmount]

        public init(month: LocalDate, redeemed: Money, lost: Money, subscriptions: Money, cards: [CardAmount]) {
            (self.month, self.redeemed, self.lost, self.subscriptions, self.cards) = (
                month, redeemed, lost, subscriptions, cards
            )
        }
    }

    /// A card over the report's months, and its return this card year against its annual fee.
    public struct Card: Sendable, Equatable {
        public var card: String
        public var currency: String
        public var redeemed: Money
        public var lost: Money
        /// From the card's fee item; nil without one (`fee` nil too when it has no amount).
        public var fee: Money?
        /// RFC 3339, with the daemon's offset.
        public var feeDue: String?
        public var yearRedeemed: Money?
        /// `yearRedeemed − fee`, negative while the card has not paid for itself.
        public var net: Money? { fee.flatMap { fee in yearRedeemed.map { $0 - fee } } }

        public init(
            card: String, currency: String, redeemed: Money, lost: Money, fee: Money? = nil, feeDue: String? = nil,
            yearRedeemed: Money? = nil
        ) {
            (self.card, self.currency, self.redeemed, self.lost) = (card, currency, redeemed, lost)
            (self.fee, self.feeDue, self.yearRedeemed) = (fee, feeDue, yearRedeemed)
        }
    }

    public struct Subscription: Sendable, Equatable {
        public var item, title, currency, every: String
        public var card: String?
        public var amount: Money
        /// The amount as a monthly cost (`ReminderCore.Subscription.perMonth`).
        public var monthly: Money

        public init(
            item: String, title: String, currency: String, every: String, card: String?, amount: Money, monthly: Money
        ) {
            (self.item, self.title, self.currency, self.every, self.card) = (item, title, currency, every, card)
            (self.amount, self.monthly) = (amount, monthly)
        }
    }

    /// A benefit period or a coupon that passed without Done: its value, and what of it was lost.
    public struct Loss: Sendable, Equatable {
        public var item, title, kind, currency: String
        public var card: String?
        /// RFC 3339, with the daemon's offset.
        public var due: String
        public var amount: Money
        public var lost: Money

        public init(
            item: String, title: String, kind: String, currency: String, card: String?, due: String, amount: Money,
            lost: Money
        ) {
            (self.item, self.title, self.kind, self.currency, self.card) = (item, title, kind, currency, card)
            (self.due, self.amount, self.lost) = (due, amount, lost)
        }
    }

    /// What one Done of a benefit redeemed (the store's redemption ledger).
    public struct Redeemed: Sendable, Equatable {
        public var itemId, card: String
        public var at: Int64
        public var amount: Money

        public init(itemId: String, card: String, at: Int64, amount: Money) {
            (self.itemId, self.card, self.at, self.amount) = (itemId, card, at, amount)
        }
    }

    /// A card's fee and its card year, as `summary` reckons it: from the previous fee's due to the next.
    public struct FeeYear: Sendable, Equatable {
        public var card: String
        public var fee: Money?
        public var yearStart, due: Int64

        public init(card: String, fee: Money?, yearStart: Int64, due: Int64) {
            (self.card, self.fee, self.yearStart, self.due) = (card, fee, yearStart, due)
        }
    }

    /// The configured currency: month totals count only amounts in it (the cards and items in
    /// another carry theirs).
    public var currency: String
    /// The cards asked for (`--card`), nil for all.
    public var cardFilter: [String]?
    /// Oldest first, ending with the current month.
    public var months: [Month]
    public var cards: [Card]
    public var subscriptions: [Subscription]
    /// The subscriptions' monthly cost in `currency`.
    public var subscriptionsMonthly: Money
    /// Newest first, then by title.
    public var lost: [Loss]

    public init(
        currency: String, cardFilter: [String]?, months: [Month], cards: [Card], subscriptions: [Subscription],
        subscriptionsMonthly: Money, lost: [Loss]
    ) {
        (self.currency, self.cardFilter, self.months, self.cards) = (currency, cardFilter, months, cards)
        (self.subscriptions, self.subscriptionsMonthly, self.lost) = (subscriptions, subscriptionsMonthly, lost)
    }

    /// The card names `wanted` means among `names`: the one equal to it (case aside), else those
    /// that start with it — as `wallet CARD` reads it.
    public static func cards(matching wanted: String, among names: Set<String>) -> [String] {
        let lowered = wanted.lowercased()
        let exact = names.filter { $0.lowercased() == lowered }
        return (exact.isEmpty ? names.filter { $0.lowercased().hasPrefix(lowered) } : exact).sorted()
    }

    /// Every card an item or a redemption names.
    public static func cardNames(items: [Item], redemptions: [Redeemed]) -> Set<String> {
        var names = Set(redemptions.map(\.card).filter { !$0.isEmpty })
        for item in items { if let card = item.card, !card.isEmpty { names.insert(card) } }
        return names
    }

    /// The report over the `monthCount` months ending with the one `now` is in. `done` holds
    /// each item's done occurrences (due → when marked done); `redemptions` must reach back to
    /// the earliest fee year's start. `cards`, when given, keeps only those cards (and drops
    /// what has none: coupons, subscriptions on no card).
    public static func build(
        items: [Item], redemptions: [Redeemed], fees: [FeeYear], done: [String: [Int64: Int64]],
        rules: FireTimeRules, currency: String, monthCount: Int, cards filter: [String]?, now: Int64
    ) -> ValueReport {
        let zone = rules.zone
        let today = zone.localDateTime(at: now).date
        let current = LocalDate(uncheckedYear: today.year, month: today.month, day: 1)
        let first = current.adding(months: -(max(1, monthCount) - 1))
        func start(of date: LocalDate) -> Int64 {
            zone.resolve(LocalDateTime(date: date, time: LocalTime(hour: 0, minute: 0))).instant
        }
        let windowStart = start(of: first)
        let windowEnd = start(of: current.adding(months: 1))
        func index(_ date: LocalDate) -> Int { (date.year - first.year) * 12 + date.month - first.month }
        let wanted = filter.map(Set.init)
        func kept(_ card: String?) -> Bool { wanted.map { card.map($0.contains) ?? false } ?? true }

        var byId: [String: Item] = [:]
        for item in items { if let id = item.id { byId[id] = item } }
        func currencyOf(_ id: String) -> String { byId[id]?.currency ?? currency }

        var months = (0..<max(1, monthCount)).map {
            Month(month: first.adding(months: $0), redeemed: .zero, lost: .zero, subscriptions: .zero, cards: [])
        }
        var cards: [String: Card] = [:]
        func card(_ name: String, _ itemCurrency: String) -> Card {
            cards[name] ?? Card(card: name, currency: itemCurrency, redeemed: .zero, lost: .zero)
        }
        for item in items {
            if let name = item.card, !name.isEmpty, kept(name), item.kind == .benefit || item.kind == .fee {
                cards[name] = card(name, item.currency ?? currency)
            }
        }

        // Redeemed, by the month of the Done.
        var monthCards: [[String: Money]] = Array(repeating: [:], count: months.count)
        for redemption in redemptions where redemption.at >= windowStart && redemption.at < windowEnd {
            guard kept(redemption.card) else { continue }
            let at = index(zone.localDateTime(at: redemption.at).date)
            let itemCurrency = currencyOf(redemption.itemId)
            monthCards[at][redemption.card, default: .zero] =
                monthCards[at][redemption.card, default: .zero]
                + redemption.amount
            if itemCurrency == currency { months[at].redeemed = months[at].redeemed + redemption.amount }
            var entry = card(redemption.card, itemCurrency)
            entry.redeemed = entry.redeemed + redemption.amount
            cards[redemption.card] = entry
        }
        for (at, amounts) in monthCards.enumerated() {
            months[at].cards = amounts.map { name, amount in
                CardAmount(card: name, currency: cards[name]?.currency ?? currency, amount: amount)
            }.sorted { ($1.amount, $0.card) < ($0.amount, $1.card) }
        }

        // A coupon used counts its value as redeemed in the month of its Done (it is on no card).
        for item in items where wanted == nil {
            guard let id = item.id, case .coupon(let coupon) = item.schedule, let value = coupon.value,
                (item.currency ?? currency) == currency
            else { continue }
            for doneAt in (done[id] ?? [:]).values where doneAt >= windowStart && doneAt < windowEnd {
                let at = index(zone.localDateTime(at: doneAt).date)
                months[at].redeemed = months[at].redeemed + value
            }
        }

        // A free trial cancelled keeps one charge, counted as redeemed in the month it was
        // cancelled, as a coupon's value is (it is on no card's return).
        for item in items where wanted == nil {
            guard case .subscription(let subscription) = item.schedule, let cancelled = subscription.cancelled,
                let amount = subscription.amount, (item.currency ?? currency) == currency,
                cancelled >= first, cancelled < current.adding(months: 1)
            else { continue }
            months[index(cancelled)].redeemed = months[index(cancelled)].redeemed + amount
        }

        // Lost: periods and coupons due in the window, by now, while the item existed, not done.
        var lost: [(due: Int64, loss: Loss)] = []
        var ledger: [String: [Redeemed]] = [:]
        for redemption in redemptions { ledger[redemption.itemId, default: []].append(redemption) }
        for item in items {
            guard let id = item.id, kept(item.card) else { continue }
            // A credit's value is its period's (its month's own, when amounts vary by month).
            let value: (LocalDate) -> Money?
            switch item.schedule {
            case .benefit(let benefit): value = benefit.amount(dueOn:)
            case .coupon(let coupon): value = { _ in coupon.value }
            default: continue
            }
            let doneTimes = Set(done[id]?.values.map { $0 } ?? [])
            let after = max(windowStart - 1, item.createdAt ?? windowStart - 1)
            rules.forEachOccurrence(of: item, dueAfter: after, before: min(now + 1, windowEnd)) { occurrence in
                guard done[id]?[occurrence.due] == nil, let value = value(occurrence.dueDate), value > .zero else {
                    return true
                }
                var used = Money.zero
                if case .benefit(let benefit) = item.schedule {
                    // Partial uses of this period: the redemptions since the previous period's
                    // due, but not a Done of another occurrence (`done --early`).
                    let previousEnd = benefit.periodFirstDay(containing: occurrence.dueDate).adding(days: -1)
                    let periodStart = rules.occurrence(dueOn: previousEnd).due
                    for redemption in ledger[id] ?? []
                    where redemption.at > periodStart && redemption.at <= occurrence.due
                        && !doneTimes.contains(redemption.at)
                    {
                        used = used + redemption.amount
                    }
                }
                var left = value - used
                if case .benefit(let benefit) = item.schedule {
                    left = benefit.amountLeft(inPeriodDueOn: occurrence.dueDate, done: false, used: used) ?? .zero
                }
                guard left > .zero else { return true }
                let loss = Loss(
                    item: id, title: item.title, kind: item.kind.rawValue, currency: item.currency ?? currency,
                    card: item.card, due: Timestamp.format(occurrence.due, in: zone), amount: value, lost: left)
                lost.append((occurrence.due, loss))
                let at = index(occurrence.dueDate)
                if loss.currency == currency { months[at].lost = months[at].lost + loss.lost }
                if let name = item.card, !name.isEmpty {
                    var entry = card(name, loss.currency)
                    entry.lost = entry.lost + loss.lost
                    cards[name] = entry
                }
                return true
            }
        }
        // Newest first; what was due at one instant by title.
        lost.sort { ($1.due, $0.loss.title, $0.loss.item) < ($0.due, $1.loss.title, $1.loss.item) }

        // Subscriptions: each one's monthly cost, and its renewals due in each month.
        var subscriptions: [Subscription] = []
        var monthly = Money.zero
        for item in items {
            guard let id = item.id, case .subscription(let subscription) = item.schedule, kept(subscription.card),
                let amount = subscription.amount, subscription.cancelled == nil
            else { continue }
            let itemCurrency = item.currency ?? currency
            let perMonth = ReminderCore.Subscription.perMonth(amount, every: subscription.every)
            subscriptions.append(
                Subscription(
                    item: id, title: item.title, currency: itemCurrency, every: subscription.every.description,
                    card: subscription.card, amount: amount, monthly: perMonth))
            guard itemCurrency == currency else { continue }
            monthly = monthly + perMonth
            // A renewal marked paid counts in the month it was paid; one not paid, in its due month.
            let paid = done[id] ?? [:]
            for paidAt in paid.values where paidAt >= windowStart && paidAt < windowEnd {
                let at = index(zone.localDateTime(at: paidAt).date)
                months[at].subscriptions = months[at].subscriptions + amount
            }
            let after = max(windowStart - 1, item.createdAt ?? windowStart - 1)
            rules.forEachOccurrence(of: item, dueAfter: after, before: windowEnd) { renewal in
                guard paid[renewal.due] == nil else { return true }
                let at = index(renewal.dueDate)
                months[at].subscriptions = months[at].subscriptions + amount
                return true
            }
        }
        subscriptions.sort { ($1.monthly, $0.title) < ($0.monthly, $1.title) }

        // Each card's year against its fee.
        for fee in fees where kept(fee.card) {
            var entry = card(fee.card, currency)
            entry.fee = fee.fee
            entry.feeDue = Timestamp.format(fee.due, in: zone)
            entry.yearRedeemed = redemptions.filter { $0.card == fee.card && $0.at >= fee.yearStart }
                .reduce(Money.zero) { $0 + $1.amount }
            cards[fee.card] = entry
        }
        return ValueReport(
            currency: currency, cardFilter: filter, months: months,
            cards: cards.values.sorted { ($1.redeemed, $0.card) < ($0.redeemed, $1.card) },
            subscriptions: subscriptions, subscriptionsMonthly: monthly, lost: lost.map(\.loss))
    }
}

extension Item {
    /// The card a benefit, a subscription or a fee is on.
    fileprivate var card: String? {
        switch schedule {
        case .benefit(let benefit): return benefit.card
        case .subscription(let subscription): return subscription.card
        case .fee(let fee): return fee.card
        case .coupon, .rebuy: return nil
        }
    }
}
