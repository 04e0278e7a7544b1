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
        let dueTime = DateText.timeOfDay(zone.localDateTime(at: occurrence.due).time)
        /// "expires in 3 days", "expires today at 11:59 PM", "has expired": whole phrases per verb,
        /// so a translation can place the time words where its language puts them.
        func phrase(_ verb: Verb) -> String {
            switch relative {
            case .past: return verb.past
            case .today: return verb.todayAt.map { $0.filled(dueTime) } ?? verb.today
            case .tomorrow: return verb.tomorrow
            case .inDays(let n): return verb.inDays(n).filled(String(n))
            case .inHours(let h, let m):
                // "in 2 h", "in 2 h 30 min", "in 45 min": no "0m" beside whole hours.
                let hours = _t("%1$d h").filled(String(h))
                let minutes = _t("%1$d min").filled(String(m))
                let parts = (h > 0 ? [hours] : []) + (m > 0 || h == 0 ? [minutes] : [])
                return verb.inTime.filled(parts.joined(separator: " "))
            }
        }
        let heading: String
        var body: String
        var doneLabel = _t("Done")
        let title = isolated(item.title)
        switch item.schedule {
        case .benefit(let benefit):
            heading = _t("Reward Expiring Soon")
            doneLabel = _t("Mark as used")
            let periodAmount = benefit.amount(dueOn: occurrence.dueDate)
            let when = phrase(.expires)
            if let used = benefit.amountUsed(inPeriodDueOn: occurrence.dueDate), used > .zero,
                let amount = periodAmount, used < amount
            {
                body = _t("Your remaining %1$s of %2$s %3$s %4$s").filled(
                    money(amount - used)!, money(amount)!, title, when)
            } else if let value = money(periodAmount) {
                body = _t("Your %1$s %2$s %3$s").filled(value, title, when)
            } else {
                body = _t("Your %1$s %2$s").filled(title, when)
            }
            if let card = benefit.card { body = "\(isolated(card)) · " + body }
        case .subscription(let subscription):
            heading = _t("Subscription Renews Soon")
            doneLabel = _t("Mark as paid")
            body = _t("%1$s %2$s").filled(title, phrase(.renews))
            if let amount = money(subscription.amount) {
                body += " · \(amount)\(NotificationText.per(subscription.every))"
                if let card = subscription.card { body += _t(" on %1$s").filled(isolated(card)) }
            } else if let card = subscription.card {
                body += " · " + _t("on %1$s").filled(isolated(card))
            }
        case .coupon(let coupon):
            heading = _t("Coupon Expiring")
            doneLabel = _t("Mark as used")
            body = _t("%1$s %2$s").filled(title, phrase(.expires))
            if let value = money(coupon.value) { body += " · " + _t("worth %1$s").filled(value) }
            if let code = coupon.code { body += " · " + _t("code %1$s").filled(isolated(code)) }
        case .fee(let fee):
            heading = _t("Annual Fee Due")
            doneLabel = _t("Mark as paid")
            let card = isolated(fee.card ?? item.title)
            if let amount = money(fee.amount) {
                body = _t("%1$s %2$s annual fee %3$s").filled(card, amount, phrase(.due))
            } else {
                body = _t("%1$s annual fee %2$s").filled(card, phrase(.due))
            }
        case .rebuy(let rebuy):
            heading = _t("Time to Rebuy")
            doneLabel = _t("Rebought")
            let name = rebuy.category.map { "\(title) (\(isolated($0)))" } ?? title
            switch relative {
            case .past, .today: body = _t("%1$s: time to rebuy!").filled(name)
            default: body = _t("%1$s %2$s").filled(name, phrase(.runsOut))
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
        case (1, .months): return _t("/mo")
        case (1, .years): return _t("/yr")
        case (1, .weeks): return _t("/wk")
        case (1, .days): return _t("/day")
        default:
            let n = every.count
            let text: String
            switch every.unit {
            case .days: text = _n(" every %1$d days", " every %1$d days", n)
            case .weeks: text = _n(" every %1$d weeks", " every %1$d weeks", n)
            case .months: text = _n(" every %1$d months", " every %1$d months", n)
            case .years: text = _n(" every %1$d years", " every %1$d years", n)
            case .hours: text = _n(" every %1$d hours", " every %1$d hours", n)
            case .minutes: text = _n(" every %1$d minutes", " every %1$d minutes", n)
            }
            return text.filled(String(n))
        }
    }
}

/// One verb's phrases in a pop-up's body ("expires today", "renews in 3 days"), each a message of
/// its own so that a translation is a whole phrase, never a verb glued to English time words.
struct Verb {
    let past: String
    let today: String
    let todayAt: String?
    let tomorrow: String
    let inDays: (Int) -> String
    let inTime: String

    static var expires: Verb {
        Verb(
            past: _t("has expired"), today: _t("expires today"), todayAt: _t("expires today at %1$s"),
            tomorrow: _t("expires tomorrow"), inDays: { _n("expires in %1$d days", "expires in %1$d days", $0) },
            inTime: _t("expires in %1$s"))
    }
    static var renews: Verb {
        Verb(
            past: _t("has renewed"), today: _t("renews today"), todayAt: nil, tomorrow: _t("renews tomorrow"),
            inDays: { _n("renews in %1$d days", "renews in %1$d days", $0) }, inTime: _t("renews in %1$s"))
    }
    static var due: Verb {
        Verb(
            past: _t("was due"), today: _t("due today"), todayAt: nil, tomorrow: _t("due tomorrow"),
            inDays: { _n("due in %1$d days", "due in %1$d days", $0) }, inTime: _t("due in %1$s"))
    }
    static var runsOut: Verb {
        Verb(
            past: _t("ran out"), today: _t("runs out today"), todayAt: nil, tomorrow: _t("runs out tomorrow"),
            inDays: { _n("runs out in %1$d days", "runs out in %1$d days", $0) }, inTime: _t("runs out in %1$s"))
    }
}

/// `text` between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: user text keeps its own
/// direction (Hebrew, Arabic) without reordering the words around it. Balanced first: a stray
/// PDI in the text would end the isolate early and let the rest spill over the pop-up's words.
public func isolated(_ text: String) -> String { "\u{2068}\(ForeignText.balancedDirection(text))\u{2069}" }
