import Glibc
import ReminderCore

extension MoneyLocale {
    /// The locale `name` (`ko_KR.UTF-8`) as glibc has it, found through `LOCPATH` or the locale
    /// archive; nil for `C`, `POSIX`, `C.UTF-8`, an empty name, and a locale glibc cannot load or
    /// that names no currency.
    public init?(named name: String?) {
        guard let name, !name.isEmpty, name != "POSIX", name != "C", !name.hasPrefix("C.") else { return nil }
        guard let locale = newlocale(Int32(1 << LC_MONETARY), name, nil) else { return nil }
        defer { freelocale(locale) }
        func text(_ item: Int) -> String { String(cString: nl_langinfo_l(nl_item(item), locale)) }
        func byte(_ item: Int) -> UInt8 { UInt8(bitPattern: nl_langinfo_l(nl_item(item), locale).pointee) }
        let code = String(text(Int(__INT_CURR_SYMBOL)).prefix(3))
        // CRNCYSTR is the symbol behind "-" (it precedes), "+" (it follows) or "." (it replaces
        // the decimal point, which no locale reminderd formats for does).
        let symbol = String(text(Int(_NL_MONETARY_CRNCYSTR)).dropFirst())
        guard code.count == 3, !symbol.isEmpty else { return nil }
        // MON_GROUPING is bytes of group sizes; 0 ends it and CHAR_MAX (255 read unsigned) means no more grouping.
        var grouping: [Int] = []
        var pointer = nl_langinfo_l(nl_item(Int(__MON_GROUPING)), locale)
        while let size = pointer.map({ UInt8(bitPattern: $0.pointee) }), size != 0, size != 255 {
            grouping.append(Int(size))
            pointer = pointer.map { $0 + 1 }
        }
        self.init(
            currency: code, symbol: symbol, decimalSeparator: text(Int(__MON_DECIMAL_POINT)),
            groupSeparator: text(Int(__MON_THOUSANDS_SEP)), grouping: grouping,
            symbolPrecedes: byte(Int(__P_CS_PRECEDES)) == 1, symbolSpaced: byte(Int(__P_SEP_BY_SPACE)) == 1)
    }
}
