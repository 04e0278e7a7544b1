import CivilTime

/// `N` + unit, as written in leads, snoozes and renewal intervals: `30m`, `2h`, `7d`, `1w`,
/// `3mo`, `1y`.
///
/// Minutes and hours are elapsed time; days and weeks are calendar days (a "1d" lead fires at the
/// reminder time the day before, whatever DST does); months and years are anchored calendar
/// months (only `every` takes them).
public struct CalendarDuration: Hashable, Sendable, CustomStringConvertible {
    public enum Unit: String, Sendable, CaseIterable {
        case minutes = "m"
        case hours = "h"
        case days = "d"
        case weeks = "w"
        case months = "mo"
        case years = "y"
    }

    public let count: Int
    public let unit: Unit

    public init(_ count: Int, _ unit: Unit) {
        self.count = count
        self.unit = unit
    }

    public var description: String { "\(count)\(unit.rawValue)" }

    /// Minutes and hours count elapsed time; the other units count calendar days or months.
    public var isElapsedTime: Bool { unit == .minutes || unit == .hours }

    /// The length in seconds, with a day as 86,400 s: exact for `m`/`h`, nominal otherwise
    /// (used to order leads and to bound look-ahead, never to compute a fire time).
    public var nominalSeconds: Int64 {
        let c = Int64(count)
        switch unit {
        case .minutes: return c * 60
        case .hours: return c * 3600
        case .days: return c * 86_400
        case .weeks: return c * 7 * 86_400
        case .months: return c * 2_629_746  // 1/12 of a Gregorian year
        case .years: return c * 31_556_952
        }
    }

    /// Calendar days for `d` and `w`.
    public var days: Int64 { unit == .weeks ? Int64(count) * 7 : Int64(count) }

    /// Calendar months for `mo` and `y`.
    public var months: Int { unit == .years ? count * 12 : count }

    /// What a duration is used for decides which units and sizes it may take.
    public struct Rules: Sendable {
        public let units: Set<Unit>
        public let allowsZero: Bool
        /// The largest allowed length, by `nominalSeconds`.
        public let maximumSeconds: Int64
        public let maximumText: String

        /// Lead times: `0d` (on the day) is allowed; at most a year.
        public static let lead = Rules(
            units: [.minutes, .hours, .days, .weeks], allowsZero: true, maximumSeconds: 366 * 86_400,
            maximumText: "366 days")
        /// Snoozes: positive, at most a year.
        public static let snooze = Rules(
            units: [.minutes, .hours, .days, .weeks], allowsZero: false, maximumSeconds: 366 * 86_400,
            maximumText: "366 days")
        /// Repeat until acknowledged (`RepeatRule`): elapsed minutes or hours, at least a minute
        /// and at most a day; `0m` only to say an item does not repeat.
        public static let repeatEvery = Rules(
            units: [.minutes, .hours], allowsZero: true, maximumSeconds: 86_400, maximumText: "24 hours")
        /// Renewal intervals fall on dates, so they count days, weeks, months or years, at most 10 years.
        public static let renewal = Rules(
            units: [.days, .weeks, .months, .years], allowsZero: false, maximumSeconds: 10 * 31_556_952,
            maximumText: "10 years")
    }

    /// Parses `N` + unit under `rules`, with the reason on failure.
    public static func parse(_ text: String, rules: Rules) -> Result<CalendarDuration, DateParseError> {
        let digits = text.prefix(while: \.isASCIIDigit)
        let unitText = text.dropFirst(digits.count)
        if text.hasPrefix("-") { return .failure(.malformed("a duration cannot be negative")) }
        let allowed = Unit.allCases.filter { rules.units.contains($0) }.map(\.rawValue).joined(separator: ", ")
        guard !digits.isEmpty, digits.count <= 6, let count = Int(digits), let unit = Unit(rawValue: String(unitText))
        else {
            let example = rules.units.contains(.days) ? "7d or 2h" : "15m or 2h"
            return .failure(.malformed("expected a number and a unit (\(allowed)), like \(example)"))
        }
        guard rules.units.contains(unit) else {
            return .failure(.malformed("unit \(unit.rawValue) is not allowed here; use \(allowed)"))
        }
        let duration = CalendarDuration(count, unit)
        guard rules.allowsZero || count > 0 else { return .failure(.malformed("must be longer than zero")) }
        guard duration.nominalSeconds <= rules.maximumSeconds else {
            return .failure(.malformed("must be at most \(rules.maximumText)"))
        }
        return .success(duration)
    }
}
