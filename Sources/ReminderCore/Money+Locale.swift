import CivilTime

extension Money {
    /// Symbols written in place of a code, whichever locale writes them (`$15.99`, `€7.50`).
    static let symbols = ["USD": "$", "EUR": "€", "GBP": "£", "CAD": "CA$", "AUD": "A$", "JPY": "¥", "INR": "₹"]

    /// The amount as `locale` writes money: its symbol (or `currency`'s own, or the code), placed
    /// and spaced as the locale places its own, its group and decimal separators, and as many
    /// decimals as `currency` has minor units — `₩4,900` in ko_KR, `1.234,50 €` in de_DE,
    /// `$1,234.50` in en_US, `1.234,50 $` for dollars in de_DE. A fraction that rounds to zero is
    /// left off (`$15`), as the C form does. With nil (the C/POSIX locale, or one glibc cannot
    /// load), `formatted(currency:)`, byte for byte.
    public func formatted(currency: String, in locale: MoneyLocale?) -> String {
        guard let locale else { return formatted(currency: currency) }
        let digits = Money.minorUnits(of: currency)
        var unit: UInt128 = 1
        for _ in 0..<digits { unit *= 10 }
        // Held in ten-thousandths: one minor unit is 10^(4 - digits) of them.
        let step = UInt128(Money.scale) / unit
        let magnitude = tenThousandths.magnitude
        let minor = magnitude / step + (magnitude % step >= step / 2 && step > 1 ? 1 : 0)
        var text = locale.grouped(String(minor / unit))
        let fraction = minor % unit
        if fraction != 0 { text += locale.decimalSeparator + pad(Int(fraction), digits) }
        let sign = tenThousandths < 0 && minor != 0 ? "-" : ""
        let mark = currency == locale.currency ? locale.symbol : Money.symbols[currency] ?? currency
        let space = locale.symbolSpaced || mark == currency ? " " : ""
        return sign + (locale.symbolPrecedes ? mark + space + text : text + space + mark)
    }

    /// Decimal places of a currency's minor unit (ISO 4217): none for the won, yen and the others
    /// listed, three for the dinars and rials listed, four for the unidades de fomento, and two for
    /// the rest — every currency reminderd accepts is any three letters (`Item.validateCurrency`).
    public static func minorUnits(of currency: String) -> Int {
        switch currency {
        case "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF",
            "XOF", "XPF":
            return 0
        case "BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND": return 3
        case "CLF", "UYW": return 4
        default: return 2
        }
    }

    /// An amount typed in `locale` (`12,50` in de_DE) as the canonical decimal the daemon reads
    /// (`12.50`). Text with no separator of the locale's is returned as it is, for the daemon to
    /// check as ever; so is anything in a locale whose decimal separator is `.`. Refused, naming the
    /// text: a group separator (`1.234,50`: which is meant depends on whose habit the typist
    /// follows), and `.` followed by exactly three digits where `.` groups thousands (`1.234`).
    public static func canonicalInput(_ text: String, in locale: MoneyLocale?) -> Result<String, DateParseError> {
        guard let locale, locale.decimalSeparator != ".", !locale.decimalSeparator.isEmpty else { return .success(text) }
        let separator = locale.decimalSeparator
        let hasDot = text.contains(".")
        let hasSeparator = text.contains(separator)
        if hasDot && hasSeparator {
            return .failure(
                .malformed(
                    _t("\"%1$s\": write the amount without a thousands separator, like \"%2$s\"")
                        .filled(text, "1234" + separator + "50")))
        }
        if hasDot {
            let afterDot = text.split(separator: ".", omittingEmptySubsequences: false).last ?? ""
            if locale.groupSeparator == ".", afterDot.count == 3, afterDot.allSatisfy(\.isASCIIDigit) {
                return .failure(
                    .malformed(
                        _t(
                            "\"%1$s\" is ambiguous here: \"%2$s\" is the decimal separator and \".\" groups thousands; write \"%3$s\" or the whole number without \".\""
                        ).filled(text, separator, text.replacingDot(with: separator))))
            }
            return .success(text)
        }
        guard hasSeparator else { return .success(text) }
        return .success(text.split(separator: separator, omittingEmptySubsequences: false).joined(separator: "."))
    }
}

extension String {
    fileprivate func replacingDot(with separator: String) -> String {
        split(separator: ".", omittingEmptySubsequences: false).joined(separator: separator)
    }
}
