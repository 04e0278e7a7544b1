/// The desktop's do-not-disturb as last heard: read once when a server appears, then kept up
/// to date from the signals the notifier already listens to (the server's `PropertiesChanged`,
/// GNOME's `changed::show-banners`), so deciding a pop-up asks nobody. Before anything was
/// heard it is off: no desktop holds reminderd's pop-ups back until it said so.
struct DoNotDisturb: Equatable, Sendable {
    /// A setting that holds pop-ups back, in the order their reasons are given.
    enum Switch: CaseIterable, Sendable {
        /// The notification server's `Inhibited` property (GNOME 3.38+, KDE, swaync …).
        case serverInhibited
        /// dunst's `paused` property (`dunstctl set-paused true`).
        case dunstPaused
        /// GNOME's `show-banners` setting turned off.
        case gnomeBannersOff

        /// The server property (interface and name) that reports it; nil for a GSettings key.
        var property: (interface: String, name: String)? {
            switch self {
            case .serverInhibited: return ("org.freedesktop.Notifications", "Inhibited")
            case .dunstPaused: return ("org.dunstproject.cmd0", "paused")
            case .gnomeBannersOff: return nil
            }
        }

        var reason: String {
            switch self {
            case .serverInhibited: return "the notification server is inhibited"
            case .dunstPaused: return "dunst is paused"
            case .gnomeBannersOff: return "GNOME's notification banners are off"
            }
        }

        /// The switches a notification server reports through its properties.
        static let serverProperties = allCases.filter { $0.property != nil }
    }

    private var on: Set<Switch> = []

    /// Why the desktop is in do-not-disturb, or nil.
    var reason: String? { Switch.allCases.first(where: on.contains)?.reason }

    /// Sets one switch; true when that changed it.
    @discardableResult
    mutating func set(_ setting: Switch, _ value: Bool) -> Bool {
        value ? on.insert(setting).inserted : on.remove(setting) != nil
    }

    /// The server's `PropertiesChanged(interface, changed, invalidated)`, the values already read
    /// as booleans (others are not ours). Returns whether a switch changed and which switches the
    /// server only invalidated, to be read again.
    mutating func propertiesChanged(
        interface: String, changed: [String: Bool], invalidated: [String]
    ) -> (changed: Bool, reread: [Switch]) {
        var anyChanged = false
        var reread: [Switch] = []
        for setting in Switch.serverProperties where setting.property?.interface == interface {
            guard let name = setting.property?.name else { continue }
            if let value = changed[name] {
                anyChanged = set(setting, value) || anyChanged
            } else if invalidated.contains(name) {
                reread.append(setting)
            }
        }
        return (anyChanged, reread)
    }

    /// The server left: what it said no longer holds (the next one is read when it appears).
    /// GNOME's setting is the desktop's, not the server's, and stays.
    mutating func serverVanished() {
        for setting in Switch.serverProperties { on.remove(setting) }
    }
}
