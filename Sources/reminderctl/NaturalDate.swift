import CivilTime
import ReminderCore
import ReminderPlatform

/// Dates as people type them — `today`, `tomorrow`, `+3d`, `+2w`, `fri`, `next friday`,
/// `dec 5`, `5 december 2027`, `31.12.2026` — resolved against today in the configured zone. A
/// form that reads two ways (`12/05`: December 5 or 12 May) is refused with the reason rather
/// than guessed. `YYYY-MM-DD` (and `YYYY-MM-DDTHH:MM` where a time is allowed) pass through.
enum NaturalDate {
    /// The resolved text for an item field: the date, or the input unchanged when it carries a
    /// time; `nil` when `text` is a plain date already (nothing to echo back).
    static func resolve(_ text: String, today: LocalDate) -> Result<LocalDate?, DateParseError> {
        let trimmed = text.trimmingCharacters().lowercased()
        // YYYY-MM-… (a date, or a local date-time): the daemon reads it, and says what is wrong
        // with one that does not exist ("February 2026 has 28 days").
        if trimmed.prefix(5).allSatisfy({ $0.isNumber || $0 == "-" }), trimmed.dropFirst(4).first == "-",
            trimmed.prefix(4).allSatisfy(\.isNumber)
        {
            return .success(nil)
        }
        return parse(trimmed, today: today).map { Optional($0) }
    }

    static func parse(_ input: String, today: LocalDate) -> Result<LocalDate, DateParseError> {
        let text = input.trimmingCharacters().lowercased()
        switch text {
        case "today": return .success(today)
        case "tomorrow": return .success(today.adding(days: 1))
        case "yesterday": return .success(today.adding(days: -1))
        default: break
        }
        if text.hasPrefix("+") { return offset(String(text.dropFirst()), today: today) }
        if text.contains("/") || (text.contains(".") && text.first?.isNumber == true) {
            return numeric(text, today: today, input: input)
        }
        var words = text.split(separator: " ").map(String.init)
        var strictlyAfter = false
        if words.first == "next" {
            strictlyAfter = true
            words.removeFirst()
        }
        if words.count == 1, let weekday = weekday(words[0]) {
            var ahead = Int64((weekday - today.weekday + 7) % 7)
            if ahead == 0 && strictlyAfter { ahead = 7 }
            return .success(today.adding(days: ahead))
        }
        if !strictlyAfter, let date = monthDay(words, today: today, input: input) { return date }
        return .failure(
            .malformed(
                _t("\"%1$s\" is not a date; use YYYY-MM-DD, today, tomorrow, +3d, +2w, fri, next friday or dec 5")
                    .filled(input)))
    }

    /// `31.12.2026` and `31.12.` (dots: always day first, as everywhere dots are written),
    /// `31/12/2026` or `12/31/2026` where the day is the part over 12, and `2026/12/31` (a year
    /// first is followed by the month everywhere); `12/05` reads two ways
    /// and is refused. Never a date other than the one typed: a day or month out of range is
    /// refused, naming what was typed.
    static func numeric(_ text: String, today: LocalDate, input: String) -> Result<LocalDate, DateParseError> {
        let dotted = text.contains(".")
        var parts = text.split(separator: dotted ? "." : "/", omittingEmptySubsequences: false).map(String.init)
        if dotted, parts.last == "" { parts.removeLast() }  // 31.12.
        let yearFirst = parts.count == 3 && parts[0].count == 4 && parts.allSatisfy { Int($0) != nil }
        if yearFirst { parts = [parts[2], parts[1], parts[0]] }  // 2026/12/05: year, month, day
        let numbers = parts.map { Int($0) }
        guard (2...3).contains(parts.count), numbers.allSatisfy({ $0 != nil }), parts.allSatisfy({ !$0.isEmpty }),
            parts.count == 2 || parts[2].count == 4
        else {
            return .failure(
                .malformed(
                    _t("\"%1$s\" is not a date; use YYYY-MM-DD, 31.12.2026 (day first), dec 31, today or +3d")
                        .filled(input)))
        }
        let first = numbers[0]!
        let second = numbers[1]!
        let (day, month): (Int, Int)
        if dotted || yearFirst || (first > 12 && second <= 12) {
            (day, month) = (first, second)
        } else if second > 12 && first <= 12 {
            (day, month) = (second, first)
        } else {
            return .failure(
                .malformed(
                    _t(
                        "\"%1$s\" is ambiguous: 12/05 is December 5 in the US and 12 May elsewhere; write 2026-12-05, 5.12.2026 (day first) or dec 5"
                    ).filled(input)))
        }
        guard (1...12).contains(month) else {
            return .failure(
                .malformed(_t("\"%1$s\": there is no month %2$d (day first: DD.MM.YYYY)").filled(input, String(month))))
        }
        let words = [String(day), LocalDate.monthNames[month - 1].lowercased()] + (parts.count == 3 ? [parts[2]] : [])
        return monthDay(words, today: today, input: input)
            ?? .failure(.malformed(_t("\"%1$s\" is not a date; use YYYY-MM-DD or 31.12.2026 (day first)").filled(input)))
    }

    /// `3d`, `2w`, `1mo`, `1y` after today.
    static func offset(_ text: String, today: LocalDate) -> Result<LocalDate, DateParseError> {
        let digits = text.prefix { $0.isNumber }
        guard let count = Int(digits), count <= 3660 else {
            return .failure(.malformed(_t("\"+%1$s\": expected a count and a unit, e.g. +3d, +2w, +1mo, +1y").filled(text)))
        }
        switch text.dropFirst(digits.count) {
        case "d": return .success(today.adding(days: Int64(count)))
        case "w": return .success(today.adding(days: Int64(count) * 7))
        case "mo": return .success(today.adding(months: count))
        case "y": return .success(today.adding(months: count * 12))
        default:
            return .failure(
                .malformed(_t("\"+%1$s\": the unit is d (days), w (weeks), mo (months) or y (years)").filled(text)))
        }
    }

    /// 0 for Sunday … 6 for Saturday, from `fri`, `friday`, `thurs`.
    static func weekday(_ word: String) -> Int? {
        guard word.count >= 3 else { return nil }
        return LocalDate.weekdayNames.firstIndex { $0.lowercased().hasPrefix(word) }
    }

    /// 1 … 12 from `dec` or `december`.
    static func month(_ word: String) -> Int? {
        guard word.count >= 3 else { return nil }
        return LocalDate.monthNames.firstIndex { $0.lowercased().hasPrefix(word) }.map { $0 + 1 }
    }

    /// `dec 5`, `5 dec`, `dec 5 2027`, `5 december 2027`: without a year, the next such day on
    /// or after today.
    static func monthDay(_ words: [String], today: LocalDate, input: String) -> Result<LocalDate, DateParseError>? {
        guard words.count == 2 || words.count == 3 else { return nil }
        let monthNumber: Int
        let dayNumber: Int
        if let m = month(words[0]), let d = Int(words[1]) {
            (monthNumber, dayNumber) = (m, d)
        } else if let d = Int(words[0]), let m = month(words[1]) {
            (monthNumber, dayNumber) = (m, d)
        } else {
            return nil
        }
        var year = today.year
        if words.count == 3 {
            guard let given = Int(words[2]), words[2].count == 4 else { return nil }
            year = given
        }
        func date(_ year: Int) -> Result<LocalDate, DateParseError> {
            let text = "\(year)-\(monthNumber < 10 ? "0" : "")\(monthNumber)-\(dayNumber < 10 ? "0" : "")\(dayNumber)"
            return LocalDate.parse(text).mapError { .malformed(_t("\"%1$s\": %2$s").filled(input, $0.reason)) }
        }
        let first = date(year)
        if words.count == 2, case .success(let found) = first, found < today { return date(year + 1) }
        return first
    }
}
