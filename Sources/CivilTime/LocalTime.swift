/// A wall-clock time of day, to the second, with no date and no zone (`"09:00"`).
public struct LocalTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since midnight, 0..<86400.
    public let secondsOfDay: Int

    public init(hour: Int, minute: Int, second: Int = 0) {
        secondsOfDay = hour * 3600 + minute * 60 + second
    }

    public var hour: Int { secondsOfDay / 3600 }
    public var minute: Int { secondsOfDay / 60 % 60 }
    public var second: Int { secondsOfDay % 60 }

    public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool { lhs.secondsOfDay < rhs.secondsOfDay }

    /// `HH:MM`, with `:SS` only when the seconds are not zero.
    public var description: String { second == 0 ? hourMinute : hourMinute + ":\(pad(second, 2))" }

    /// `09:05`: the seconds dropped, as tables and status lines show a time.
    public var hourMinute: String { "\(pad(hour, 2)):\(pad(minute, 2))" }

    /// Parses `HH:MM` or `HH:MM:SS` on a 24-hour clock.
    public static func parse(_ text: String) -> Result<LocalTime, DateParseError> { parse(utf8: Array(text.utf8)) }

    static func parse(utf8 bytes: [UInt8]) -> Result<LocalTime, DateParseError> {
        guard bytes.count == 5 || (bytes.count == 8 && bytes[5] == UInt8(ascii: ":")), bytes[2] == UInt8(ascii: ":"),
            let hour = asciiNumber(bytes, 0..<2), let minute = asciiNumber(bytes, 3..<5)
        else { return .failure(.malformed("expected a time as HH:MM (24-hour clock)")) }
        guard let second = bytes.count == 8 ? asciiNumber(bytes, 6..<8) : 0 else {
            return .failure(.malformed("expected a time as HH:MM (24-hour clock)"))
        }
        guard hour < 24, minute < 60, second < 60 else {
            return .failure(
                .malformed("\(String(decoding: bytes, as: UTF8.self)) is not a time of day (00:00 to 23:59)"))
        }
        return .success(LocalTime(hour: hour, minute: minute, second: second))
    }
}

/// A date with a wall-clock time and no zone: `2026-12-31T23:59`.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let date: LocalDate
    public let time: LocalTime

    public init(date: LocalDate, time: LocalTime) {
        self.date = date
        self.time = time
    }

    /// Seconds since 1970-01-01T00:00 on this wall clock, as if it were UTC: the "local seconds"
    /// that `TimeZoneRules.resolve` turns into an instant.
    public var localSeconds: Int64 {
        date.dayNumber * 86_400 + Int64(time.secondsOfDay)
    }

    public init(localSeconds: Int64) {
        let days = localSeconds >= 0 ? localSeconds / 86_400 : (localSeconds - 86_399) / 86_400
        date = LocalDate(dayNumber: days)
        time = LocalTime(hour: 0, minute: 0, second: Int(localSeconds - days * 86_400))
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.date, lhs.time) < (rhs.date, rhs.time)
    }

    public var description: String { "\(date)T\(time)" }

    /// Parses `YYYY-MM-DDTHH:MM[:SS]` (a space instead of `T` is accepted too).
    public static func parse(_ text: String) -> Result<LocalDateTime, DateParseError> {
        guard let separator = text.firstIndex(where: { $0 == "T" || $0 == " " }) else {
            return .failure(.malformed("expected a date and time as YYYY-MM-DDTHH:MM"))
        }
        let datePart = String(text[..<separator])
        let timePart = String(text[text.index(after: separator)...])
        switch (LocalDate.parse(datePart), LocalTime.parse(timePart)) {
        case (.success(let date), .success(let time)): return .success(LocalDateTime(date: date, time: time))
        case (.failure(let error), _), (_, .failure(let error)): return .failure(error)
        }
    }
}
