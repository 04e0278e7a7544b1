import CivilTime

/// The words of a pop-up (CONTRACT §4), a pure function of item, occurrence and now, so the
/// daemon, `reminderctl` and the tests all say the same thing.
///
/// The summary is the item's name: notification lists and the menus of dunst and mako show only
/// summaries, so four coupons due at once must not read as four identical "Coupon Expiring".
/// The kind's heading leads the body instead. Every piece of user text (title, card, code,
/// category) is wrapped in Unicode bidi isolates, so a right-to-left title neither reorders nor
/// is reordered by the words around it.
public struct NotificationText: Hashable, Sendable {
    /// The item's title, isolated.
    public let summary: String
    /// Plain text; escape it with `markupEscaped` for servers that take markup.
    public let body: String
    public let urgency: Urgency
    /// The `category` hint: `x-reminderd.<kind>`.
    public let category: String
    /// The label of the `done` action.
    public let doneLabel: String

    public enum Urgency: String, Hashable, Sendable {
        case low, normal, critical
    }

    /// How far away the due moment is, in the words a person uses.
    public enum Relative: Hashable, Sendable {
        case past
        case today
        case tomorrow
        case inDays(Int)
        case inHours(hours: Int, minutes: Int)
    }

    /// Whole calendar days until the due date: 8+ → low, 1–7 → normal, today or past → critical.
    public static func urgency(daysLeft: Int64) -> Urgency {
        daysLeft >= 8 ? .low : daysLeft >= 1 ? .normal : .critical
    }

    /// `today`/`tomorrow`/`in N days` count calendar days; a due moment with its own time of day
    /// (a coupon expiring at 14:00) reads `in X h Y min` when under 24 hours away.
    public static func relative(_ occurrence: Occurrence, hasTimeOfDay: Bool, now: Int64, zone: TimeZoneRules)
        -> Relative
    {
        let remaining = occurrence.due - now
        if remaining <= 0 { return .past }
        if hasTimeOfDay, remaining < 86_400 {
            let minutes = Int((remaining + 59) / 60)
            return .inHours(hours: minutes / 60, minutes: minutes % 60)
        }
        let days = daysLeft(occurrence, now: now, zone: zone)
        switch days {
        case ...0: return .today
        case 1: return .tomorrow
        default: return .inDays(Int(days))
        }
    }

    public static func daysLeft(_ occurrence: Occurrence, now: Int64, zone: TimeZoneRules) -> Int64 {
        occurrence.dueDate.dayNumber - zone.localDateTime(at: now).date.dayNumber
    }

    public init(summary: String, body: String, urgency: Urgency, category: String, doneLabel: String) {
        self.summary = summary
        self.body = body
        self.urgency = urgency
        self.category = category
        self.doneLabel = doneLabel
    }

    /// The pop-up for `occurrence` of `item` shown at `now`.
    /// Amounts in it are written as `moneyLocale` writes money (nil: today's text).
    public init(
        item: Item, occurrence: Occurrence, now: Int64, zone: TimeZoneRules, defaultCurrency: String,
        moneyLocale: MoneyLocale?
    ) {
        let currency = item.currency ?? defaultCurrency
        func money(_ amount: Money?) -> String? { amount.map { $0.formatted(currency: currency, in: moneyLocale) } }
        var hasTimeOfDay = false
        if case .coupon(let coupon) = item.schedule, case .dateTime = coupon.expires { hasTimeOfDay = true }
        let relative = NotificationText.relative(occurrence, hasTimeOfDay: hasTimeOfDay, now: now, zone: zone)
        let dueTime = zone.localDateTime(at: occurrence.due).time.twelveHourDescription
        /// "expires in 3 days", "expires today at 11:59 PM", "expired".
        func phrase(_ verb: String, past: String, timeToday: Bool = false) -> String {
            switch relative {
            case .past: return past
            case .today: return timeToday ? "\(verb) today at \(dueTime)" : "\(verb) today"
            case .tomorrow: return "\(verb) tomorrow"
            case .inDays(let n): return "\(verb) in \(n) days"
            case .inHours(let h, let m):
                // "in 2 h", "in 2 h 30 min", "in 45 min": no "0m" beside whole hours.
                let parts = (h > 0 ? ["\(h) h"] : []) + (m > 0 || h == 0 ? ["\(m) min"] : [])
                return "\(verb) in \(parts.joined(separator: " "))"
            }
        }
        let heading: String
        var body: String
        var doneLabel = "Done"
        let title = isolated(item.title)
        switch item.schedule {
        case .benefit(let benefit):
            heading = "Reward Expiring Soon"
            doneLabel = "Mark as used"
            let periodAmount = benefit.amount(dueOn: occurrence.dueDate)
            var value = money(periodAmount).map { "\($0) " } ?? ""
            if let used = benefit.amountUsed(inPeriodDueOn: occurrence.dueDate), used > .zero,
                let amount = periodAmount, used < amount
            {
                value = "remaining \(money(amount - used)!) of \(money(amount)!) "
            }
            body = "Your \(value)\(title) \(phrase("expires", past: "has expired", timeToday: true))"
            if let card = benefit.card { body = "\(isolated(card)) · " + body }
        case .subscription(let subscription):
            heading = "Subscription Renews Soon"
            doneLabel = "Mark as paid"
            body = "\(title) \(phrase("renews", past: "has renewed"))"
            if let amount = money(subscription.amount) {
                body += " · \(amount)\(NotificationText.per(subscription.every))"
                if let card = subscription.card { body += " on \(isolated(card))" }
            } else if let card = subscription.card {
                body += " · on \(isolated(card))"
            }
        case .coupon(let coupon):
            heading = "Coupon Expiring"
            doneLabel = "Mark as used"
            body = "\(title) \(phrase("expires", past: "has expired", timeToday: true))"
            if let value = money(coupon.value) { body += " · worth \(value)" }
            if let code = coupon.code { body += " · code \(isolated(code))" }
        case .fee(let fee):
            heading = "Annual Fee Due"
            doneLabel = "Mark as paid"
            let amount = money(fee.amount).map { " \($0)" } ?? ""
            body = "\(isolated(fee.card ?? item.title))\(amount) annual fee \(phrase("due", past: "was due"))"
        case .rebuy(let rebuy):
            heading = "Time to Rebuy"
            doneLabel = "Rebought"
            let name = rebuy.category.map { "\(title) (\(isolated($0)))" } ?? title
            switch relative {
            case .past, .today: body = "\(name): time to rebuy!"
            default: body = "\(name) \(phrase("runs out", past: "ran out"))"
            }
        }
        self.init(
            summary: title, body: "\(heading) · \(body)",
            urgency: NotificationText.urgency(daysLeft: NotificationText.daysLeft(occurrence, now: now, zone: zone)),
            category: "x-reminderd.\(item.kind.rawValue)", doneLabel: doneLabel)
    }

    /// `/mo`, `/yr`, `/wk`, or ` every 3 months`.
    public static func per(_ every: CalendarDuration) -> String {
        switch (every.count, every.unit) {
        case (1, .months): return "/mo"
        case (1, .years): return "/yr"
        case (1, .weeks): return "/wk"
        case (1, .days): return "/day"
        default:
            let unit = ["d": "days", "w": "weeks", "mo": "months", "y": "years", "h": "hours", "m": "minutes"][
                every.unit.rawValue]!
            return " every \(every.count) \(unit)"
        }
    }
}

/// `text` between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: user text keeps its own
/// direction (Hebrew, Arabic) without reordering the words around it. Balanced first: a stray
/// PDI in the text would end the isolate early and let the rest spill over the pop-up's words.
public func isolated(_ text: String) -> String { "\u{2068}\(ForeignText.balancedDirection(text))\u{2069}" }
