import CivilTime

/// A decimal amount, held exactly in ten-thousandths: money is never a binary float.
///
/// One amount has at most 12 whole digits (`parse`), under 10^16 ten-thousandths, and is held in
/// 128 bits so that a total of them is always exact: it would take over 10^22 of the largest
/// amounts — more rows than any store holds — to reach 2^127. A wallet, a report or the panel's
/// tooltip sums every item's amount, and a sum that saturated or trapped would print a wrong
/// total or stop the program.
public struct Money: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The amount × 10,000.
    public let tenThousandths: Int128

    static let scale: Int128 = 10_000

    public init(tenThousandths: Int128) { self.tenThousandths = tenThousandths }

    public static let zero = Money(tenThousandths: 0)

    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.tenThousandths < rhs.tenThousandths }
    /// Sums and differences of stored amounts are exact (above); they saturate rather than trap
    /// only for totals read back from a reply (`parseTotal`), whose digits another program wrote.
    public static func + (lhs: Money, rhs: Money) -> Money {
        let (sum, overflow) = lhs.tenThousandths.addingReportingOverflow(rhs.tenThousandths)
        return Money(tenThousandths: overflow ? (rhs.tenThousandths > 0 ? .max : .min) : sum)
    }
    public static func - (lhs: Money, rhs: Money) -> Money {
        let (difference, overflow) = lhs.tenThousandths.subtractingReportingOverflow(rhs.tenThousandths)
        return Money(tenThousandths: overflow ? (rhs.tenThousandths < 0 ? .max : .min) : difference)
    }

    /// The canonical decimal string: `15`, `15.99`, `7.50`, `0.125`.
    public var description: String {
        let sign = tenThousandths < 0 ? "-" : ""
        let magnitude = tenThousandths.magnitude
        let whole = magnitude / UInt128(Money.scale)
        var fraction = magnitude % UInt128(Money.scale)
        if fraction == 0 { return "\(sign)\(whole)" }
        var digits = 4
        while digits > 2, fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        return "\(sign)\(whole).\(pad(Int(fraction), digits))"
    }

    /// Parses a decimal string such as `"15.99"`: up to 12 whole digits and 4 decimals.
    public static func parse(_ text: String) -> Result<Money, DateParseError> { parse(text, wholeDigits: 12) }

    /// Parses a total as a reply carries it (`description`): a sum of amounts, so up to 33 whole
    /// digits (what 128 bits hold with room to add), and signed (`"-311"`, a card's net return).
    public static func parseTotal(_ text: String) -> Result<Money, DateParseError> {
        guard text.hasPrefix("-") else { return parse(text, wholeDigits: 33) }
        return parse(String(text.dropFirst()), wholeDigits: 33).map { Money(tenThousandths: -$0.tenThousandths) }
    }

    private static func parse(_ text: String, wholeDigits: Int) -> Result<Money, DateParseError> {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count == 2 ? parts[1] : ""
        guard !whole.isEmpty, whole.count <= wholeDigits, whole.allSatisfy(\.isASCIIDigit),
            parts.count == 1 || (!fraction.isEmpty && fraction.count <= 4 && fraction.allSatisfy(\.isASCIIDigit))
        else {
            if text.hasPrefix("-") { return .failure(.malformed("an amount cannot be negative")) }
            return .failure(.malformed("expected a decimal amount like \"15.99\" (at most 4 decimals)"))
        }
        let paddedFraction = fraction + String(repeating: "0", count: 4 - fraction.count)
        return .success(Money(tenThousandths: Int128(whole)! * scale + Int128(paddedFraction)!))
    }

    /// `$15`, `$15.99`, `€7.50`, `1,500 JPY`: amounts as the notification text shows them, to
    /// the nearest cent (half away from zero); a negative one with a leading `-`.
    public func formatted(currency: String) -> String {
        let magnitude = tenThousandths.magnitude
        let totalCents = magnitude / 100 + (magnitude % 100 >= 50 ? 1 : 0)
        let cents = totalCents % 100
        var grouped = ""
        for (offset, character) in String(totalCents / 100).reversed().enumerated() {
            if offset > 0, offset % 3 == 0 { grouped.append(",") }
            grouped.append(character)
        }
        let sign = tenThousandths < 0 && totalCents != 0 ? "-" : ""
        var text = String(grouped.reversed())
        if cents != 0 { text += ".\(pad(Int(cents), 2))" }
        if let symbol = Money.symbols[currency] { return sign + symbol + text }
        return "\(sign)\(text) \(currency)"
    }
}
