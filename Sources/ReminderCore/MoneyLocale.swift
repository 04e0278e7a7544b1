/// How one locale writes money, held as plain values (ReminderPlatform reads them from glibc's
/// `LC_MONETARY` data, `init?(named:)`): formatting never touches the process's global locale, so
/// the daemon can write in the session's locale and a test in any, side by side.
///
/// There is no value for the C/POSIX locale, nor for one glibc cannot load: `init?(named:)` gives
/// nil, and `Money.formatted(currency:in:)` with nil writes today's text (`$15.99`, `1,500 CHF`)
/// byte for byte.
public struct MoneyLocale: Sendable, Hashable {
    /// The ISO 4217 code of the locale's own currency (`KRW` for ko_KR), from `INT_CURR_SYMBOL`.
    public let currency: String
    /// Its symbol as the locale writes it (`₩`, `€`, `$`), from `CRNCYSTR`.
    public let symbol: String
    public let decimalSeparator: String
    public let groupSeparator: String
    /// Digits in each group from the right, the last repeating (`MON_GROUPING`; `[3]` mostly).
    public let grouping: [Int]
    /// Whether the symbol comes before the digits (`P_CS_PRECEDES`: `$5` against `5 €`).
    public let symbolPrecedes: Bool
    /// Whether a space stands between the symbol and the digits (`P_SEP_BY_SPACE` 1).
    public let symbolSpaced: Bool

    public init(
        currency: String, symbol: String, decimalSeparator: String, groupSeparator: String, grouping: [Int],
        symbolPrecedes: Bool, symbolSpaced: Bool
    ) {
        self.currency = currency
        self.symbol = symbol
        self.decimalSeparator = decimalSeparator
        self.groupSeparator = groupSeparator
        self.grouping = grouping
        self.symbolPrecedes = symbolPrecedes
        self.symbolSpaced = symbolSpaced
    }

    /// `whole` grouped as this locale groups (`1234567` → `1.234.567` in de_DE).
    func grouped(_ whole: String) -> String {
        guard !grouping.isEmpty, !groupSeparator.isEmpty else { return whole }
        var groups: [Substring] = []
        var rest = Substring(whole)
        var sizes = grouping[...]
        while !rest.isEmpty {
            let size = sizes.count > 1 ? sizes.removeFirst() : sizes.first!
            groups.insert(rest.suffix(size), at: 0)
            rest = rest.dropLast(size)
        }
        return groups.joined(separator: groupSeparator)
    }
}
