/// Which locale a program's environment asks for, one rule for words and money alike (gettext's
/// messages, `LC_MONETARY`): never `setlocale`, whose global state would change how numbers are
/// read and written everywhere.
public enum LocaleName {
    /// The locale name a program reads from its environment for `category` (`LC_MONETARY`,
    /// `LC_TIME`): `LC_ALL`, then the category's own variable, then `LANG` — POSIX's order; the
    /// first set and non-empty wins.
    public static func fromEnvironment(for category: String, environment: (String) -> String?) -> String? {
        for variable in ["LC_ALL", category, "LANG"] {
            if let value = environment(variable), !value.isEmpty { return value }
        }
        return nil
    }
}
