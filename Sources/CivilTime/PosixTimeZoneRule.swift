/// The POSIX TZ string at the end of a TZif file (`EST5EDT,M3.2.0,M11.1.0`), which gives the
/// offsets after the file's last explicit transition, including RFC 8536's extensions (hours
/// beyond 24 and negative transition times).
struct PosixTimeZoneRule: Equatable {
    /// Offsets in seconds east of UTC (POSIX writes them west-positive; they are flipped here).
    let standardOffset: Int32
    let daylight: Daylight?

    struct Daylight: Equatable {
        let offset: Int32
        let start: DateRule
        let end: DateRule
    }

    struct DateRule: Equatable {
        enum Day: Equatable {
            /// `Jn`: day 1…365, February 29 never counted.
            case julianNoLeap(Int)
            /// `n`: day 0…365, February 29 counted.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday d (0 = Sunday) of week w (5 = last) of month m.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }
        let day: Day
        /// Local seconds after midnight at which the change happens (default 02:00).
        let time: Int64

        func date(in year: Int) -> LocalDate {
            switch day {
            case .julianNoLeap(let n):
                let dayOfYear = LocalDate.isLeapYear(year) && n >= 60 ? n : n - 1
                return LocalDate(uncheckedYear: year, month: 1, day: 1).adding(days: Int64(dayOfYear))
            case .zeroBased(let n):
                return LocalDate(uncheckedYear: year, month: 1, day: 1).adding(days: Int64(n))
            case .monthWeekDay(let month, let week, let weekday):
                let first = LocalDate(uncheckedYear: year, month: month, day: 1)
                var day = 1 + (weekday - first.weekday + 7) % 7 + (week - 1) * 7
                let length = LocalDate.daysInMonth(year: year, month: month)
                while day > length { day -= 7 }
                return LocalDate(uncheckedYear: year, month: month, day: day)
            }
        }
    }

    init(parsing text: String) throws(DateParseError) {
        var scanner = Scanner(Array(text.utf8))
        try scanner.name()
        standardOffset = -(try scanner.offset())
        if scanner.atEnd {
            daylight = nil
            return
        }
        try scanner.name()
        var dstOffset = standardOffset + 3600
        if let next = scanner.peek, next != UInt8(ascii: ",") { dstOffset = -(try scanner.offset()) }
        // Without rules POSIX implies the US rules of 1987; TZif footers always spell them out.
        try scanner.expect(",")
        let start = try scanner.dateRule()
        try scanner.expect(",")
        let end = try scanner.dateRule()
        guard scanner.atEnd else { throw .malformed("unexpected text after the rules") }
        daylight = Daylight(offset: dstOffset, start: start, end: end)
    }

    /// Offset changes from `year(after)` through `lastYear`, later than `after`.
    func changes(after: Int64?, through lastYear: Int) -> [(Int64, Int32)] {
        guard let daylight else {
            return [(after.map { $0 + 1 } ?? Int64.min / 2, standardOffset)]
        }
        let firstYear = after.map { LocalDateTime(localSeconds: $0).date.year } ?? LocalDate.supportedYears.lowerBound
        var result: [(Int64, Int32)] = []
        for year in firstYear...lastYear {
            // The start is written in standard time, the end in daylight time.
            let start = daylight.start.date(in: year).dayNumber * 86_400 + daylight.start.time - Int64(standardOffset)
            let end = daylight.end.date(in: year).dayNumber * 86_400 + daylight.end.time - Int64(daylight.offset)
            let pair =
                start < end
                ? [(start, daylight.offset), (end, standardOffset)] : [(end, standardOffset), (start, daylight.offset)]
            result += pair.filter { $0.0 > (after ?? .min) }
        }
        return result
    }
}

private struct Scanner {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { position >= bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[position] }

    mutating func expect(_ character: Unicode.Scalar) throws(DateParseError) {
        guard peek == UInt8(ascii: character) else { throw .malformed("expected '\(character)' at \(position)") }
        position += 1
    }

    /// `EST` or `<+0530>`.
    mutating func name() throws(DateParseError) {
        if peek == UInt8(ascii: "<") {
            guard let close = bytes[position...].firstIndex(of: UInt8(ascii: ">")) else {
                throw .malformed("unterminated <name>")
            }
            position = close + 1
            return
        }
        let start = position
        while let c = peek, (c >= 65 && c <= 90) || (c >= 97 && c <= 122) { position += 1 }
        guard position - start >= 3 else { throw .malformed("zone abbreviation too short at \(start)") }
    }

    mutating func number() throws(DateParseError) -> Int {
        let start = position
        var value = 0
        while let c = peek, c >= 48, c <= 57 {
            value = value * 10 + Int(c - 48)
            position += 1
            guard value < 1_000_000 else { throw .malformed("number too large at \(start)") }
        }
        guard position > start else { throw .malformed("expected a number at \(start)") }
        return value
    }

    /// `[+-]hh[:mm[:ss]]` in seconds, as written (west-positive for offsets).
    mutating func offset() throws(DateParseError) -> Int32 {
        var sign: Int32 = 1
        if peek == UInt8(ascii: "+") {
            position += 1
        } else if peek == UInt8(ascii: "-") {
            sign = -1
            position += 1
        }
        var seconds = try number() * 3600
        if peek == UInt8(ascii: ":") {
            position += 1
            seconds += try number() * 60
            if peek == UInt8(ascii: ":") {
                position += 1
                seconds += try number()
            }
        }
        return sign * Int32(seconds)
    }

    mutating func dateRule() throws(DateParseError) -> PosixTimeZoneRule.DateRule {
        let day: PosixTimeZoneRule.DateRule.Day
        if peek == UInt8(ascii: "J") {
            position += 1
            let n = try number()
            guard (1...365).contains(n) else { throw .malformed("Julian day \(n) out of range") }
            day = .julianNoLeap(n)
        } else if peek == UInt8(ascii: "M") {
            position += 1
            let month = try number()
            try expect(".")
            let week = try number()
            try expect(".")
            let weekday = try number()
            guard (1...12).contains(month), (1...5).contains(week), (0...6).contains(weekday) else {
                throw .malformed("M\(month).\(week).\(weekday) out of range")
            }
            day = .monthWeekDay(month: month, week: week, weekday: weekday)
        } else {
            let n = try number()
            guard (0...365).contains(n) else { throw .malformed("day \(n) out of range") }
            day = .zeroBased(n)
        }
        var time: Int64 = 7200
        if peek == UInt8(ascii: "/") {
            position += 1
            time = Int64(try offset())
        }
        return PosixTimeZoneRule.DateRule(day: day, time: time)
    }
}
