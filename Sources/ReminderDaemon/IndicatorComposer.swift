import CivilTime
import ReminderCore

/// What the panel indicator shows, from plain values (as `PopUpComposer` is for pop-ups): the
/// items due within a week, the wallet's total left and whether reminders are paused.
struct IndicatorComposer {
    /// An item due within a week and not settled.
    struct Entry: Sendable, Equatable {
        var itemId: String
        /// The due instant of the occurrence it shows.
        var due: Int64
        var title: String
        /// Whole days until its due day: 0 (or less, an overdue rebuy) is today.
        var daysLeft: Int64
        /// What it is worth now: a benefit's amount left, a coupon's value, a subscription's price.
        var value: Money?
        var currency: String
        /// Whether that value is lost when it passes (a benefit or a coupon, not a renewal's price).
        var expires: Bool
        /// The card it belongs to (a benefit's, a subscription's or a fee's), named in its line.
        var card: String?
        /// The pop-up's word for its Done ("Mark as used", "Mark as paid", "Rebought").
        var doneLabel: String
        /// A free trial's "I cancelled" (`NotificationText.cancelLabel`).
        var cancelLabel: String? = nil
        /// The snoozes its pop-up would offer now (`PopUpComposer.snoozeOffers`), in its words.
        var snoozes: [Snooze]
        /// A coupon: its value is what it is worth ("worth $7"), not what is left of it, as a benefit's is.
        var isCoupon = false
        /// Its repeat until acknowledged (`RepeatRule`), said under its offers.
        var repeats: RepeatRule? = nil
    }

    /// A snooze the menu offers: the pop-up's button and its label.
    struct Snooze: Sendable, Equatable {
        var action: PopUpAction
        var label: String
    }

    static let pauseHour = CalendarDuration(1, .hours)

    /// Due within a week, soonest first.
    var entries: [Entry]
    /// The benefits' value still available this period, in `currency`.
    var walletLeft: Money
    /// The configured currency: the totals count only values in it.
    var currency: String
    var paused: Bool
    /// How its amounts are written (`Configuration.moneyLocale`; nil: today's text).
    var moneyLocale: MoneyLocale?

    var view: IndicatorView {
        let today = entries.filter { $0.daysLeft <= 0 }
        let week = entries.filter { $0.daysLeft > 0 }
        var separators = 0
        func header(_ key: String, _ text: String) -> IndicatorMenuItem {
            IndicatorMenuItem(key: key, label: text, enabled: false)
        }
        func separator() -> IndicatorMenuItem {
            separators += 1
            return IndicatorMenuItem(key: "separator-\(separators)", label: "", isSeparator: true)
        }
        // What the item's pop-up offers, in its words: its Done, then the snoozes that fit.
        func submenu(_ entry: Entry) -> IndicatorMenuItem {
            let key = "item:\(entry.itemId)@\(entry.due)"
            func offer(_ name: String, _ label: String, _ action: IndicatorAction) -> IndicatorMenuItem {
                IndicatorMenuItem(key: "\(key):\(name)", label: label, action: action, about: entry.title)
            }
            var children = [offer("done", entry.doneLabel, .done(itemId: entry.itemId, due: entry.due))]
            if let cancelLabel = entry.cancelLabel {
                children.append(offer("cancelled", cancelLabel, .cancelled(itemId: entry.itemId, due: entry.due)))
            }
            for snooze in entry.snoozes {
                switch snooze.action {
                case .snooze(let duration):
                    children.append(
                        offer(snooze.action.key, snooze.label, .snooze(itemId: entry.itemId, due: entry.due, duration)))
                case .snoozeToLastMinute:
                    let action = IndicatorAction.snoozeToLastMinute(itemId: entry.itemId, due: entry.due)
                    children.append(offer(snooze.action.key, snooze.label, action))
                case .snoozeUntilTomorrow:
                    let action = IndicatorAction.snoozeUntilTomorrow(itemId: entry.itemId, due: entry.due)
                    children.append(offer(snooze.action.key, snooze.label, action))
                case .done, .cancelled, .undo, .oneAtATime, .snoozeAll:
                    break  // not a snooze of one reminder
                }
            }
            if let repeats = entry.repeats {
                children.append(
                    IndicatorMenuItem(
                        key: "\(key):repeats", label: _t("Repeats every %1$s until acknowledged").filled("\(repeats.every)"), enabled: false))
            }
            return IndicatorMenuItem(key: key, label: Self.menuLabel(line(entry)), children: children)
        }
        var menu: [IndicatorMenuItem] = []
        if !today.isEmpty {
            menu.append(header("today", _t("Due today")))
            menu += today.map(submenu)
        }
        if !week.isEmpty {
            if !menu.isEmpty { menu.append(separator()) }
            menu.append(header("week", _t("This week")))
            menu += week.map(submenu)
        }
        if entries.isEmpty { menu.append(header("nothing", _t("Nothing due this week"))) }
        menu.append(separator())
        menu.append(header("wallet", _t("Wallet: %1$s left").filled(walletLeft.formatted(currency: currency, in: moneyLocale))))
        menu.append(separator())
        menu.append(
            paused
                ? IndicatorMenuItem(key: "resume", label: _t("Resume reminders"), action: .resume)
                : IndicatorMenuItem(key: "pause", label: _t("Pause all pop-ups 1 hour"), action: .pause(Self.pauseHour)))
        return IndicatorView(
            status: !today.isEmpty ? "NeedsAttention" : week.isEmpty ? "Passive" : "Active",
            toolTipTitle: toolTipTitle(today: today.count), toolTipBody: toolTipBody, menu: menu)
    }

    /// "Gas credit on Amex Gold — $10.00 left, today", "Pizza — worth $7, in 5 days". The title and card may come from a sync
    /// server: their control characters are shown as escapes and direction marks balanced, as in
    /// a pop-up.
    func line(_ entry: Entry) -> String {
        func visible(_ text: String) -> String { ForeignText.balancedDirection(ForeignText.visibleControls(text)) }
        var text = visible(entry.title)
        if let card = entry.card, card != entry.title { text += _t(" on %1$s").filled(visible(card)) }
        if let value = entry.value {
            let value = value.formatted(currency: entry.currency, in: moneyLocale)
            text += entry.isCoupon
                ? " — " + _t("worth %1$s").filled(value)
                : " — " + (entry.expires ? _t("%1$s left").filled(value) : value)
        }
        return text + ", " + Self.when(entry.daysLeft)
    }

    /// A dbusmenu label: "_" marks the access key there, so a title's own underscores are doubled.
    static func menuLabel(_ text: String) -> String {
        text.replacing("_", with: "__")
    }

    static func when(_ daysLeft: Int64) -> String {
        switch daysLeft {
        case ...(-1): return _t("overdue")
        case 0: return _t("today")
        case 1: return _t("tomorrow")
        default: return _n("in %1$d days", "in %1$d days", Int(daysLeft)).filled(String(daysLeft))
        }
    }

    func toolTipTitle(today: Int) -> String {
        var title = "reminderd"
        if entries.isEmpty {
            title += _t(": nothing due this week")
        } else {
            title += _n(": %1$d due this week", ": %1$d due this week", entries.count).filled(String(entries.count))
            if today > 0 { title += _n(", %1$d today", ", %1$d today", Int(today)).filled(String(today)) }
        }
        return paused ? title + _t(" (paused: pop-ups held)") : title
    }

    /// One line per item due this week, then the value that expires with them (in `currency`);
    /// escaped, as the StatusNotifierItem spec lets a host read the tooltip's body as markup.
    var toolTipBody: String {
        var lines = entries.map(line)
        let expiring = entries.filter { $0.expires && $0.currency == currency }.compactMap(\.value).reduce(
            Money.zero, +)
        if expiring != .zero { lines.append(_t("%1$s expiring this week").filled(expiring.formatted(currency: currency, in: moneyLocale))) }
        return markupEscaped(lines.joined(separator: "\n"))
    }

    /// The first instant of the local day after `now`'s.
    static func nextMidnight(after now: Int64, zone: TimeZoneRules) -> Int64 {
        let local = zone.localSeconds(at: now)
        let dayStart = local - ((local % 86_400) + 86_400) % 86_400
        return zone.resolve(localSeconds: dayStart + 86_400).instant
    }
}
