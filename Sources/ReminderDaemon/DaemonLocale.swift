import ReminderCore
import ReminderPlatform

/// The locale reminderd writes money in on pop-ups and the indicator, never the process's global
/// one (`setlocale` is not called): a value built from a locale name and passed along in the
/// `Configuration`, so it changes with the config at `reload`.
enum DaemonLocale {
    /// The locale name reminderd formats in: the one place that says where it comes from. The
    /// config's `language`, which pop-ups and the menu speak, so words and amounts agree; else
    /// the environment reminderd started with (the user manager's, which carries the session's
    /// `LANG`), in POSIX's order for money: `LC_ALL`, `LC_MONETARY`, `LANG`.
    static func formattingLocaleName(_ configuration: Configuration) -> String? {
        configuration.language ?? LocaleName.fromEnvironment(for: "LC_MONETARY") { environmentVariable($0) }
    }

    /// `configuration` as read from its file, with the money locale of `formattingLocaleName`.
    static func applied(to configuration: Configuration) -> Configuration {
        var configuration = configuration
        configuration.moneyLocale = MoneyLocale(named: formattingLocaleName(configuration))
        return configuration
    }
}
