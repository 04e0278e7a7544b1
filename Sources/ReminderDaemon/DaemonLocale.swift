import ReminderCore
import ReminderPlatform

/// The locale reminderd writes money in on pop-ups and the indicator, never the process's global
/// one (`setlocale` is not called): a value built from a locale name and passed along in the
/// `Configuration`, so it changes with the config at `reload`.
enum DaemonLocale {
    /// The locale name reminderd formats in: the one place that says where it comes from. For
    /// now the environment reminderd started with (the user manager's, which carries the
    /// session's `LANG`), in POSIX's order for money: `LC_ALL`, `LC_MONETARY`, `LANG`.
    static func formattingLocaleName() -> String? {
        MoneyLocale.name(for: "LC_MONETARY") { environmentVariable($0) }
    }

    /// `configuration` as read from its file, with the money locale of `formattingLocaleName()`.
    static func applied(to configuration: Configuration) -> Configuration {
        var configuration = configuration
        configuration.moneyLocale = MoneyLocale(named: formattingLocaleName())
        return configuration
    }
}
