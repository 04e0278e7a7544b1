/// A DURATION value (RFC 5545 §3.3.6): `-P1DT14H59M`, `PT15M`, `-P2W`.
///
/// Days and weeks are nominal (they follow the wall clock across DST); hours, minutes and
/// seconds are exact. Servers rewrite durations (`-PT38H59M` comes back as `-P1DT14H59M`), so
/// two values are compared by `approximateSeconds`, a day counting 86,400 s.
public struct DurationValue: Hashable, Sendable, CustomStringConvertible {
    public var isNegative: Bool
    /// Weeks × 7 + days.
    public var days: Int64
    public var seconds: Int64

    public init(isNegative: Bool, days: Int64, seconds: Int64) {
        self.isNegative = isNegative
        self.days = days
        self.seconds = seconds
    }

    /// Signed length with a day as 86,400 s.
    public var approximateSeconds: Int64 { (isNegative ? -1 : 1) * (days * 86_400 + seconds) }

    /// The same length however it is spelled (`-PT38H59M` and `-P1DT14H59M`).
    public func isSameLength(as other: DurationValue) -> Bool { approximateSeconds == other.approximateSeconds }

    public var description: String {
        var text = (isNegative ? "-" : "") + "P"
        if days > 0 { text += "\(days)D" }
        guard seconds > 0 || days == 0 else { return text }
        text += "T"
        let (h, m, s) = (seconds / 3600, seconds % 3600 / 60, seconds % 60)
        if h > 0 { text += "\(h)H" }
        if m > 0 { text += "\(m)M" }
        if s > 0 || (h == 0 && m == 0) { text += "\(s)S" }
        return text
    }

    /// Parses the text, or nil when it is not a duration. Numbers are capped at 9 digits, so no
    /// input overflows.
    public init?(text: String) {
        var rest = Substring(text)
        isNegative = rest.first == "-"
        if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        (days, seconds) = (0, 0)
        var inTime = false
        var sawNumber = false
        var sawTimeNumber = false
        while let first = rest.first {
            if first == "T", !inTime {
                inTime = true
                rest = rest.dropFirst()
                continue
            }
            let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
            guard !digits.isEmpty, digits.count <= 9, let n = Int64(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let unit = rest.first else { return nil }
            rest = rest.dropFirst()
            switch (inTime, unit) {
            case (false, "W"): days += n * 7
            case (false, "D"): days += n
            case (true, "H"): seconds += n * 3600
            case (true, "M"): seconds += n * 60
            case (true, "S"): seconds += n
            default: return nil
            }
            sawNumber = true
            sawTimeNumber = sawTimeNumber || inTime
        }
        guard sawNumber, !inTime || sawTimeNumber else { return nil }
    }
}
