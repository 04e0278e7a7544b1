import ReminderCore

/// What a click in the panel indicator's menu does: the same commands as a pop-up's buttons. An
/// item's action names the occurrence its entry showed (`due`), so a click in a menu the host
/// fetched before a Done elsewhere or the due time passing is refused, as a stale pop-up's
/// button is, instead of landing on the next occurrence.
public enum IndicatorAction: Sendable, Equatable {
    case done(itemId: String, due: Int64)
    /// A free trial's "I cancelled".
    case cancelled(itemId: String, due: Int64)
    case snooze(itemId: String, due: Int64, CalendarDuration)
    /// The pop-up's "Remind 1 min before", offered when no configured snooze fits.
    case snoozeToLastMinute(itemId: String, due: Int64)
    /// The pop-up's "Snooze until tomorrow": tomorrow at the reminder time.
    case snoozeUntilTomorrow(itemId: String, due: Int64)
    case pause(CalendarDuration)
    case resume
    /// A click on an entry the menu no longer holds (`IndicatorMenuIds`): refused in these words
    /// ("“Mark as used” for Pizza"), never run as whatever took its place.
    case withdrawn(String)
}

/// One entry of the indicator's menu (a com.canonical.dbusmenu item): a label with an action,
/// a submenu, or a separator. `key` names what it stands for (an item's occurrence and one
/// action on it, a header, the pause); `IndicatorMenuIds` gives each key its dbusmenu `id`,
/// which stays the entry's while the menu holds it (0 until then).
struct IndicatorMenuItem: Sendable, Equatable {
    var key: String
    var id: Int32 = 0
    var label: String
    var enabled = true
    var isSeparator = false
    var action: IndicatorAction?
    /// The title of the item the entry acts on, for the refusal of a click after it left the menu.
    var about: String?
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
}
