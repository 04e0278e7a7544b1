import CivilTime

/// A non-negative decimal amount, held exactly in ten-thousandths: money is never a binary float.
public struct Money: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The amount × 10,000.
    public let tenThousandths: Int64

    static let scale: Int64 = 10_000

    public init(tenThousandths: Int64) { self.tenThousandths = tenThousandths }

    public static let zero = Money(tenThousandths: 0)

    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.tenThousandths < rhs.tenThousandths }
    /// Sums and differences saturate instead of trapping: amounts come from outside (a synced
    /// item may hold 999,999,999,999.9999), and totals over many of them must not stop the daemon.
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
        let whole = magnitude / UInt64(Money.scale)
        var fraction = magnitude % UInt64(Money.scale)
        if fraction == 0 { return "\(sign)\(whole)" }
        var digits = 4
        while digits > 2, fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        return "\(sign)\(whole).\(pad(Int(fraction), digits))"
    }

    /// Parses a decimal string such as `"15.99"`: up to 12 whole digits and 4 decimals.
    public static func parse(_ text: String) -> Result<Money, DateParseError> {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count == 2 ? parts[1] : ""
        guard !whole.isEmpty, whole.count <= 12, whole.allSatisfy(\.isASCIIDigit),
            parts.count == 1 || (!fraction.isEmpty && fraction.count <= 4 && fraction.allSatisfy(\.isASCIIDigit))
        else {
            if text.hasPrefix("-") { return .failure(.malformed("an amount cannot be negative")) }
            return .failure(.malformed("expected a decimal amount like \"15.99\" (at most 4 decimals)"))
        }
        let paddedFraction = fraction + String(repeating: "0", count: 4 - fraction.count)
        return .success(Money(tenThousandths: Int64(whole)! * scale + Int64(paddedFraction)!))
    }

    /// `$15`, `$15.99`, `€7.50`, `1,500 JPY`: amounts as the notification text shows them.
    public func formatted(currency: String) -> String {
        let symbols = ["USD": "$", "EUR": "€", "GBP": "£", "CAD": "CA$", "AUD": "A$", "JPY": "¥", "INR": "₹"]
        let totalCents = (tenThousandths + 50) / 100
        let cents = totalCents % 100
        var grouped = ""
        for (offset, character) in String(totalCents / 100).reversed().enumerated() {
            if offset > 0, offset % 3 == 0 { grouped.append(",") }
            grouped.append(character)
        }
        var text = String(grouped.reversed())
        if cents != 0 { text += ".\(pad(Int(cents), 2))" }
        if let symbol = symbols[currency] { return symbol + text }
        return "\(text) \(currency)"
    }
}
