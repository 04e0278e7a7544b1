/// A calendar date with no time zone: what a person writes as `2026-11-21`.
///
/// Arithmetic goes through `dayNumber` (days since 1970-01-01, proleptic Gregorian), using Howard
/// Hinnant's branch-light conversions, so adding days never needs a calendar object.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// The years an item's dates may name. The zone data is expanded over this range too.
    public static let supportedYears = 1970...2199

    /// A date known to exist; callers that read user input go through `parse` instead.
    public init(uncheckedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01.
    public var dayNumber: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public init(dayNumber: Int64) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.init(uncheckedYear: Int(year), month: Int(month), day: Int(day))
    }

    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday).
    public var weekday: Int {
        let w = (dayNumber + 4) % 7
        return Int(w < 0 ? w + 7 : w)
    }

    public func adding(days: Int64) -> LocalDate {
        LocalDate(dayNumber: dayNumber + days)
    }

    /// Month arithmetic anchored on `anchorDay` and clamped to the target month's length, so that
    /// Jan 31 + 1 month is Feb 28 (29 in leap years) and + 2 months is Mar 31 again.
    public func adding(months: Int, anchorDay: Int? = nil) -> LocalDate {
        let index = year * 12 + (month - 1) + months
        let newYear = index >= 0 ? index / 12 : (index - 11) / 12
        let newMonth = index - newYear * 12 + 1
        let day = min(anchorDay ?? self.day, LocalDate.daysInMonth(year: newYear, month: newMonth))
        return LocalDate(uncheckedYear: newYear, month: newMonth, day: day)
    }

    /// Months from `self`'s month to `other`'s month, ignoring days.
    public func months(until other: LocalDate) -> Int {
        (other.year * 12 + other.month) - (year * 12 + month)
    }

    public var lastDayOfMonth: LocalDate {
        LocalDate(uncheckedYear: year, month: month, day: LocalDate.daysInMonth(year: year, month: month))
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public var description: String {
        "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// Parses `YYYY-MM-DD`, refusing dates that do not exist (`2026-02-30`) with the reason.
    public static func parse(_ text: String) -> Result<LocalDate, DateParseError> { parse(utf8: Array(text.utf8)) }

    static func parse(utf8 bytes: [UInt8]) -> Result<LocalDate, DateParseError> {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = asciiNumber(bytes, 0..<4), let month = asciiNumber(bytes, 5..<7),
            let day = asciiNumber(bytes, 8..<10)
        else { return .failure(.malformed("expected a date as YYYY-MM-DD")) }
        guard (1...12).contains(month) else { return .failure(.malformed("month \(month) does not exist")) }
        let length = daysInMonth(year: year, month: month)
        guard (1...length).contains(day) else {
            return .failure(.malformed("\(monthNames[month - 1]) \(year) has \(length) days"))
        }
        guard supportedYears.contains(year) else {
            return .failure(
                .malformed("the year must be between \(supportedYears.lowerBound) and \(supportedYears.upperBound)"))
        }
        return .success(LocalDate(uncheckedYear: year, month: month, day: day))
    }

    /// `Sunday` … `Saturday`, indexed by `weekday`.
    public static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// `Fri`: the weekday as tables, prompts and status lines abbreviate it.
    public var weekdayAbbreviation: String { String(LocalDate.weekdayNames[weekday].prefix(3)) }

    public static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September",
        "October", "November", "December",
    ]
}

/// Why a date, time or timestamp string was refused.
public enum DateParseError: Error, Sendable, Equatable {
    case malformed(String)

    public var reason: String {
        switch self {
        case .malformed(let reason): return reason
        }
    }
}

extension Character {
    package var isASCIIDigit: Bool { isASCII && isNumber }
}

/// The number that the ASCII digits `bytes[range]` spell, or nil when one is not a digit.
/// (Dates and times are read byte by byte: `Character` properties cost more than the rest of
/// reading an item.)
func asciiNumber(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
    var value = 0
    for byte in bytes[range] {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
}

/// Zero-pads a non-negative number to `width` digits.
package func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
