import CivilTime

/// One tracked thing: a card benefit, a subscription, a coupon, an annual fee or a rebuy.
///
/// The fields common to every kind live here; what makes each kind recur is in `Schedule`.
public struct Item: Hashable, Sendable {
    public var id: String?
    public var title: String
    public var notes: String?
    /// Overrides the configured lead times for this item.
    public var lead: [CalendarDuration]?
    /// Unix seconds; fire times before it are never scheduled.
    public var createdAt: Int64?
    /// ISO 4217 code; the configured currency when absent.
    public var currency: String?
    public var schedule: Schedule
    /// Overrides the config's `repeatEvery` (`RepeatRule`); `0m`: this item does not repeat.
    public var repeatEvery: CalendarDuration?
    /// Overrides the config's `repeatTimes`.
    public var repeatTimes: Int?

    public init(
        id: String? = nil, title: String, notes: String? = nil, lead: [CalendarDuration]? = nil,
        createdAt: Int64? = nil, currency: String? = nil, schedule: Schedule, repeatEvery: CalendarDuration? = nil,
        repeatTimes: Int? = nil
    ) {
        self.id = id
        self.title = title
        self.notes = notes
        self.lead = lead
        self.createdAt = createdAt
        self.currency = currency
        self.schedule = schedule
        self.repeatEvery = repeatEvery
        self.repeatTimes = repeatTimes
    }

    public var kind: ItemKind { schedule.kind }

    /// Whether this is another app's task from the synced task list (`Coupon.taskList`).
    public var isFromTaskList: Bool {
        if case .coupon(let coupon) = schedule { return coupon.taskList }
        return false
    }
}

public enum ItemKind: String, Sendable, CaseIterable, Codable {
    case benefit, subscription, coupon, fee, rebuy
}

/// What makes an item come due, per kind (CONTRACT §2).
public enum Schedule: Hashable, Sendable {
    case benefit(Benefit)
    case subscription(Subscription)
    case coupon(Coupon)
    case fee(Fee)
    case rebuy(Rebuy)

    public var kind: ItemKind {
        switch self {
        case .benefit: return .benefit
        case .subscription: return .subscription
        case .coupon: return .coupon
        case .fee: return .fee
        case .rebuy: return .rebuy
        }
    }
}

/// A credit that resets every period and is due at the period's last day, 23:59. Periods are
/// calendar periods (aligned to January) unless `periodStart` is set: then they are counted from
/// that date — a card anniversary — and each is due the day before the next one starts.
public struct Benefit: Hashable, Sendable {
    public enum Period: String, Sendable, CaseIterable {
        case monthly, quarterly, semiannual, annual

        /// Months in one period; calendar periods are aligned to January.
        public var months: Int {
            switch self {
            case .monthly: return 1
            case .quarterly: return 3
            case .semiannual: return 6
            case .annual: return 12
            }
        }

        /// Parses `monthly`, `quarterly`, `semiannual` or `annual`.
        public static func parse(_ text: String) -> Result<Period, DateParseError> {
            Period(rawValue: text).map { .success($0) }
                ?? .failure(.malformed("use monthly, quarterly, semiannual or annual"))
        }

        /// The last day of the period that contains `date`.
        public func end(containing date: LocalDate) -> LocalDate {
            let lastMonth = ((date.month - 1) / months + 1) * months
            return LocalDate(uncheckedYear: date.year, month: lastMonth, day: 1).lastDayOfMonth
        }
    }

    public var card: String?
    public var amount: Money?
    public var period: Period
    /// A partial use (`done --amount`) of the period due on `amountUsedPeriod`; read it through
    /// `amountUsed(inPeriodDueOn:)`, which drops it once that period is over.
    public var amountUsed: Money?
    /// The last day (the due date) of the period `amountUsed` counts toward. Nil beside an
    /// amount only on its way in — from an item stored before this field existed, `add`, `import`
    /// or another device's copy without it — where the engine stamps the period current then
    /// (`ReminderEngine.stampingUsedPeriod`).
    public var amountUsedPeriod: LocalDate?
    /// The first day of one period (any of them: periods run both ways from it); nil for
    /// calendar periods, as every benefit stored before this field existed.
    public var periodStart: LocalDate?
    /// Amounts that differ by month (1–12): the period due in that month — whose last day falls
    /// in it — has this amount instead of `amount` (Uber Cash: $15, and $35 in December).
    public var amountIn: [Int: Money]

    public init(
        card: String? = nil, amount: Money? = nil, period: Period, amountUsed: Money? = nil,
        amountUsedPeriod: LocalDate? = nil, periodStart: LocalDate? = nil, amountIn: [Int: Money] = [:]
    ) {
        self.card = card
        self.amount = amount
        self.period = period
        self.amountUsed = amountUsed
        self.amountUsedPeriod = amountUsedPeriod
        self.periodStart = periodStart
        self.amountIn = amountIn
    }

    /// What is used of the period due on `due` (its last day): the recorded partial use when it
    /// counts toward that period, else nil — a use of an earlier period is over with it, and an
    /// amount without a period (not yet stamped) counts toward none. Every reader of a used
    /// amount goes through this.
    public func amountUsed(inPeriodDueOn due: LocalDate) -> Money? {
        guard let amountUsed, amountUsedPeriod == due else { return nil }
        return amountUsed
    }

    /// The amount of the period due on `date`: its month's, else `amount`.
    public func amount(dueOn date: LocalDate) -> Money? { amountIn[date.month] ?? amount }

    /// The most any period holds: what a used amount may reach.
    public var largestAmount: Money? { (amountIn.values + [amount].compactMap { $0 }).max() }

    /// The first day of the `k`-th period from `periodStart` (k may be negative). Months are
    /// counted from the start's day and clamped to the month's length, as a subscription's are:
    /// monthly periods from Jan 31 start Feb 28 (29), Mar 31, Apr 30, …
    public func periodStart(_ k: Int, from start: LocalDate) -> LocalDate {
        start.adding(months: period.months * k, anchorDay: start.day)
    }

    /// The last day of the period that contains `date`: the calendar period's, or with a
    /// `periodStart` the day before the next period starts.
    public func periodEnd(containing date: LocalDate) -> LocalDate {
        guard let start = periodStart else { return period.end(containing: date) }
        return periodStart(periodIndex(containing: date, from: start) + 1, from: start).adding(days: -1)
    }

    /// The first day of the period that contains `date` (where a partial use of it can begin).
    public func periodFirstDay(containing date: LocalDate) -> LocalDate {
        guard let start = periodStart else {
            let end = period.end(containing: date)
            return LocalDate(uncheckedYear: end.year, month: end.month, day: 1).adding(months: -(period.months - 1))
        }
        return periodStart(periodIndex(containing: date, from: start), from: start)
    }

    /// k such that the k-th period from `start` contains `date`.
    private func periodIndex(containing date: LocalDate, from start: LocalDate) -> Int {
        let months = start.months(until: date)
        // Floor division, then at most a step either way for the clamped days.
        var k = months >= 0 ? months / period.months : -((-months + period.months - 1) / period.months)
        while date < periodStart(k, from: start) { k -= 1 }
        while !(date < periodStart(k + 1, from: start)) { k += 1 }
        return k
    }
}

/// A renewal on `next`, then every `every` after it (anchored, clamped months).
///
/// A free trial (`trialEnds`) comes due on its last day before the renewals: Done there keeps the
/// subscription (the trial is cleared, renewals go on from `next`, the first charge), and
/// cancelling ends it (`cancelled`, the day it was cancelled: no occurrence is due any more, and
/// `report` counts one charge as money kept).
public struct Subscription: Hashable, Sendable {
    public var amount: Money?
    public var every: CalendarDuration
    public var next: LocalDate
    public var card: String?
    /// The free trial's last day; nil once kept, or for a subscription without one.
    public var trialEnds: LocalDate?
    /// The day the trial was cancelled: the subscription has ended.
    public var cancelled: LocalDate?

    public init(
        amount: Money? = nil, every: CalendarDuration, next: LocalDate, card: String? = nil,
        trialEnds: LocalDate? = nil, cancelled: LocalDate? = nil
    ) {
        self.amount = amount
        self.every = every
        self.next = next
        self.card = card
        self.trialEnds = trialEnds
        self.cancelled = cancelled
    }

    /// A renewal amount as a monthly cost, one rule for `summary` and `report`: by months for
    /// `mo`/`y`, by 30-day months otherwise.
    public static func perMonth(_ amount: Money, every: CalendarDuration) -> Money {
        switch every.unit {
        case .months, .years: return Money(tenThousandths: amount.tenThousandths / Int128(every.months))
        default: return Money(tenThousandths: amount.tenThousandths * 30 / Int128(max(1, every.days)))
        }
    }

    /// The k-th renewal date from `next` (k ≥ 0).
    public func renewal(_ k: Int) -> LocalDate {
        switch every.unit {
        case .months, .years: return next.adding(months: every.months * k, anchorDay: next.day)
        default: return next.adding(days: every.days * Int64(k))
        }
    }
}

/// A one-off expiry: a date (due at 23:59) or a local date-time.
public struct Coupon: Hashable, Sendable {
    public enum Expiry: Hashable, Sendable, CustomStringConvertible {
        case date(LocalDate)
        case dateTime(LocalDateTime)

        public var description: String {
            switch self {
            case .date(let date): return date.description
            case .dateTime(let dateTime): return dateTime.description
            }
        }

        /// `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS]`.
        public static func parse(_ text: String) -> Result<Expiry, DateParseError> {
            if text.count <= 10 { return LocalDate.parse(text).map { Expiry.date($0) } }
            return LocalDateTime.parse(text).map { Expiry.dateTime($0) }
        }
    }

    public var expires: Expiry
    public var code: String?
    public var value: Money?
    public var category: String?
    /// A task another app keeps in the synced task list (`sync.otherTasks`), reminded here as a
    /// one-off due at its DUE: its fields are that app's, so it is not edited here, and Done
    /// completes it on the server as that app expects (docs/SYNC-FORMAT.md, "Other apps' tasks").
    public var taskList: Bool

    public init(
        expires: Expiry, code: String? = nil, value: Money? = nil, category: String? = nil, taskList: Bool = false
    ) {
        self.expires = expires
        self.code = code
        self.value = value
        self.category = category
        self.taskList = taskList
    }
}

/// An annual fee due on `due` and on the same day every later year (Feb 29 → Feb 28).
public struct Fee: Hashable, Sendable {
    public var card: String?
    public var amount: Money?
    public var due: LocalDate

    public init(card: String? = nil, amount: Money? = nil, due: LocalDate) {
        self.card = card
        self.amount = amount
        self.due = due
    }

    /// The due date in `year`.
    public func due(in year: Int) -> LocalDate {
        due.adding(months: (year - due.year) * 12, anchorDay: due.day)
    }
}

/// Something that runs out `everyDays` after it was last bought.
public struct Rebuy: Hashable, Sendable {
    public var everyDays: Int
    public var lastPurchased: LocalDate
    public var category: String?

    public init(everyDays: Int, lastPurchased: LocalDate, category: String? = nil) {
        self.everyDays = everyDays
        self.lastPurchased = lastPurchased
        self.category = category
    }

    public var runsOut: LocalDate { lastPurchased.adding(days: Int64(everyDays)) }
}
