import CivilTime
import ReminderCore

/// What a click in the panel indicator's menu does: the same commands as a pop-up's buttons. An
/// item's action names the occurrence its entry showed (`due`), so a click in a menu the host
/// fetched before a Done elsewhere or the due time passing is refused, as a stale pop-up's
/// button is, instead of landing on the next occurrence.
public enum IndicatorAction: Sendable, Equatable {
    case done(itemId: String, due: Int64)
    case snooze(itemId: String, due: Int64, CalendarDuration)
    case pause(CalendarDuration)
    case resume
}

/// One entry of the indicator's menu (a com.canonical.dbusmenu item): a label with an action,
/// a submenu, or a separator. `id` is its dbusmenu id, unique within one `IndicatorView`.
struct IndicatorMenuItem: Sendable, Equatable {
    var id: Int32
    var label: String
    var enabled = true
    var isSeparator = false
    var action: IndicatorAction?
    var children: [IndicatorMenuItem] = []
}

/// Everything the panel indicator shows, as plain values: the exporter (`DBusNotifier+Indicator`)
/// only turns it into D-Bus replies, and emits a signal only for the parts that changed.
struct IndicatorView: Sendable, Equatable {
    /// The StatusNotifierItem's `Status`: "NeedsAttention" when something is due today, "Active"
    /// when something is due this week, else "Passive" (a host may then hide the icon).
    var status: String
    var toolTipTitle: String
    var toolTipBody: String
    /// The menu's top level (dbusmenu id 0 is its root and holds these).
    var menu: [IndicatorMenuItem]

    /// The action of the menu entry with dbusmenu id `id`, if it has one.
    func action(for id: Int32) -> IndicatorAction? {
        func find(_ items: [IndicatorMenuItem]) -> IndicatorAction? {
            for item in items {
                if item.id == id { return item.action }
                if let found = find(item.children) { return found }
            }
            return nil
        }
        return find(menu)
    }

    /// The entry with dbusmenu id `id` (0: a root holding the top level).
    func item(_ id: Int32) -> IndicatorMenuItem? {
        if id == 0 { return IndicatorMenuItem(id: 0, label: "", children: menu) }
        func find(_ items: [IndicatorMenuItem]) -> IndicatorMenuItem? {
            for item in items {
                if item.id == id { return item }
                if let found = find(item.children) { return found }
            }
            return nil
        }
        return find(menu)
    }
}

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
    }

    static let snoozeHour = CalendarDuration(1, .hours)
    static let snoozeDay = CalendarDuration(1, .days)
    static let pauseHour = CalendarDuration(1, .hours)

    /// Due within a week, soonest first.
    var entries: [Entry]
    /// The benefits' value still available this period, in `currency`.
    var walletLeft: Money
    /// The configured currency: the totals count only values in it.
    var currency: String
    var paused: Bool

    var view: IndicatorView {
        let today = entries.filter { $0.daysLeft <= 0 }
        let week = entries.filter { $0.daysLeft > 0 }
        var nextId: Int32 = 0
        func newId() -> Int32 {
            nextId += 1
            return nextId
        }
        func header(_ text: String) -> IndicatorMenuItem { IndicatorMenuItem(id: newId(), label: text, enabled: false) }
        func separator() -> IndicatorMenuItem { IndicatorMenuItem(id: newId(), label: "", isSeparator: true) }
        func submenu(_ entry: Entry) -> IndicatorMenuItem {
            let id = newId()
            return IndicatorMenuItem(
                id: id, label: Self.menuLabel(line(entry)),
                children: [
                    IndicatorMenuItem(id: newId(), label: "Done", action: .done(itemId: entry.itemId, due: entry.due)),
                    IndicatorMenuItem(
                        id: newId(), label: "Snooze 1 hour", action: .snooze(itemId: entry.itemId, due: entry.due, Self.snoozeHour)),
                    IndicatorMenuItem(
                        id: newId(), label: "Snooze 1 day", action: .snooze(itemId: entry.itemId, due: entry.due, Self.snoozeDay)),
                ])
        }
        var menu: [IndicatorMenuItem] = []
        if !today.isEmpty {
            menu.append(header("Due today"))
            menu += today.map(submenu)
        }
        if !week.isEmpty {
            if !menu.isEmpty { menu.append(separator()) }
            menu.append(header("This week"))
            menu += week.map(submenu)
        }
        if entries.isEmpty { menu.append(header("Nothing due this week")) }
        menu.append(separator())
        menu.append(header("Wallet: \(walletLeft.formatted(currency: currency)) left"))
        menu.append(separator())
        menu.append(
            paused
                ? IndicatorMenuItem(id: newId(), label: "Resume reminders", action: .resume)
                : IndicatorMenuItem(id: newId(), label: "Pause all pop-ups 1 hour", action: .pause(Self.pauseHour)))
        return IndicatorView(
            status: !today.isEmpty ? "NeedsAttention" : week.isEmpty ? "Passive" : "Active",
            toolTipTitle: toolTipTitle(today: today.count), toolTipBody: toolTipBody, menu: menu)
    }

    /// "Gas credit — $10.00 left, today". The title may come from a sync server: its control
    /// characters are shown as escapes and its direction marks balanced, as in a pop-up.
    func line(_ entry: Entry) -> String {
        var text = ForeignText.balancedDirection(ForeignText.visibleControls(entry.title))
        if let value = entry.value {
            text += " — \(value.formatted(currency: entry.currency))\(entry.expires ? " left" : "")"
        }
        return text + ", " + Self.when(entry.daysLeft)
    }

    /// A dbusmenu label: "_" marks the access key there, so a title's own underscores are doubled.
    static func menuLabel(_ text: String) -> String {
        text.replacing("_", with: "__")
    }

    static func when(_ daysLeft: Int64) -> String {
        switch daysLeft {
        case ...(-1): return "overdue"
        case 0: return "today"
        case 1: return "tomorrow"
        default: return "in \(daysLeft) days"
        }
    }

    func toolTipTitle(today: Int) -> String {
        var title = "reminderd"
        if entries.isEmpty {
            title += ": nothing due this week"
        } else {
            title += ": \(entries.count) due this week"
            if today > 0 { title += ", \(today) today" }
        }
        return paused ? title + " (paused: pop-ups held)" : title
    }

    /// One line per item due this week, then the value that expires with them (in `currency`);
    /// escaped, as the StatusNotifierItem spec lets a host read the tooltip's body as markup.
    var toolTipBody: String {
        var lines = entries.map(line)
        let expiring = entries.filter { $0.expires && $0.currency == currency }.compactMap(\.value).reduce(
            Money.zero, +)
        if expiring != .zero { lines.append("\(expiring.formatted(currency: currency)) expiring this week") }
        return markupEscaped(lines.joined(separator: "\n"))
    }

    /// The first instant of the local day after `now`'s.
    static func nextMidnight(after now: Int64, zone: TimeZoneRules) -> Int64 {
        let local = zone.localSeconds(at: now)
        let dayStart = local - ((local % 86_400) + 86_400) % 86_400
        return zone.resolve(localSeconds: dayStart + 86_400).instant
    }
}
