import CivilTime

/// Dates and times as a sentence writes them in its language: "Sun 2026-11-29 09:00" in English,
/// "11월 29일 (일) 09:00" in Korean, "So., 29. Nov., 09:00" in German. The order and punctuation
/// are the catalog's (a pattern per use, `_p("date pattern: …", …)`, which translators set), the
/// names the locale's (`DateNames`, from glibc). Without a catalog for the language the English
/// pattern and names give today's text byte for byte. Tables keep the ISO date (`table`), JSON
/// its RFC 3339.
public enum DateText {
    /// A date and time in a sentence; the year is left out in `thisYear` by languages whose
    /// pattern for it does.
    public static func sentence(_ local: LocalDateTime, thisYear: Int) -> String {
        let pattern: String
        if local.date.year == thisYear {
            // TRANSLATORS: a date and time of this year in a sentence ("Snoozed until …"): %a weekday, %A its
            // full name, %b month, %B its full name, %-d day, %d day in two digits, %-m month, %m month in two
            // digits, %Y year, %H:%M hours and minutes; "%a." and "%b." write the abbreviation's point, left out
            // when the abbreviation is the whole name (Mai). Any other text is written as it is.
            pattern = _p("date pattern: date and time, this year", "%a %Y-%m-%d %H:%M")
        } else {
            // TRANSLATORS: as the pattern of this year's dates, for another year: write the year (%Y).
            pattern = _p("date pattern: date and time, another year", "%a %Y-%m-%d %H:%M")
        }
        return written(pattern, date: local.date, time: local.time, names: Translation.dateNames)
    }

    /// A date in a sentence ("due Sun 2026-11-29").
    public static func sentence(_ date: LocalDate, thisYear: Int) -> String {
        let pattern: String
        if date.year == thisYear {
            // TRANSLATORS: a date of this year in a sentence ("due …"), the same letters as for a date and time.
            pattern = _p("date pattern: date, this year", "%a %Y-%m-%d")
        } else {
            // TRANSLATORS: a date of another year in a sentence: write the year (%Y).
            pattern = _p("date pattern: date, another year", "%a %Y-%m-%d")
        }
        return written(pattern, date: date, time: nil, names: Translation.dateNames)
    }

    /// A time within the coming or past week in a sentence: "Tue 09:00".
    public static func weekdayAndTime(_ local: LocalDateTime) -> String {
        // TRANSLATORS: a weekday and time within a week of today, on a pop-up ("held since …").
        let pattern = _p("date pattern: weekday and time", "%a %H:%M")
        return written(pattern, date: local.date, time: local.time, names: Translation.dateNames)
    }

    /// A month of a year, as a report's rows name it: "Nov 2026", "2026년 11월".
    public static func monthAndYear(_ date: LocalDate) -> String {
        // TRANSLATORS: a month and its year, in reminderctl report's rows and headings.
        let pattern = _p("date pattern: month and year", "%b %Y")
        return written(pattern, date: date, time: nil, names: Translation.dateNames)
    }

    /// A time of day in a pop-up's words ("expires today at 11:59 PM").
    public static func timeOfDay(_ time: LocalTime) -> String {
        // TRANSLATORS: a time of day in a sentence: %-I:%M hours (1–12) and minutes, %p AM or PM as your
        // locale writes it; %H:%M for a 24-hour clock.
        let pattern = _p("date pattern: time of day", "%-I:%M %p")
        return written(pattern, date: nil, time: time, names: Translation.dateNames)
    }

    /// A date and time in a table's column: the ISO date, sortable and of one width, with the
    /// language's weekday ("Tue 2026-11-24 09:00", "화 2026-11-24 09:00").
    public static func table(_ local: LocalDateTime) -> String {
        // TRANSLATORS: a date and time in a table's column: keep the ISO date (%Y-%m-%d), place the weekday (%a).
        let pattern = _p("date pattern: date and time in a table", "%a %Y-%m-%d %H:%M")
        return written(pattern, date: local.date, time: local.time, names: Translation.dateNames)
    }

    /// `pattern` with its conversions filled from `date`, `time` and `names` (see the comment
    /// translators read at `sentence`). A conversion without its part, or unknown, is written as
    /// it stands, never a crash. Read as UTF-8 bytes, the text between conversions copied in runs:
    /// `plan` and `list` write a date in every row, and walking the pattern by `Character` made
    /// `plan`'s table cost twice its JSON (bench_light's target is 1.5×).
    public static func written(_ pattern: String, date: LocalDate?, time: LocalTime?, names: DateNames) -> String {
        let percent = UInt8(ascii: "%")
        let bytes = Array(pattern.utf8)
        var result = ""
        var index = 0
        var literal = 0  // where the run of text not yet copied starts
        while index < bytes.count {
            guard bytes[index] == percent else {
                index += 1
                continue
            }
            result += String(decoding: bytes[literal..<index], as: UTF8.self)
            var at = index + 1
            let unpadded = at < bytes.count && bytes[at] == UInt8(ascii: "-")
            if unpadded { at += 1 }
            guard at < bytes.count, bytes[at] < 0x80,
                let value = field(Character(Unicode.Scalar(bytes[at])), unpadded, date, time, names)
            else {
                result += "%"
                index += 1
                literal = index
                continue
            }
            result += value
            let letter = bytes[at]
            index = at + 1
            // The abbreviation's point, where the abbreviation is not the whole name ("Mai").
            if index < bytes.count, bytes[index] == UInt8(ascii: "."), let date,
                letter == UInt8(ascii: "a") || letter == UInt8(ascii: "b")
            {
                let whole = letter == UInt8(ascii: "a") ? names.weekdays[date.weekday] : names.months[date.month - 1]
                if value != whole { result += "." }
                index += 1
            }
            literal = index
        }
        return result + String(decoding: bytes[literal...], as: UTF8.self)
    }

    private static func field(_ letter: Character, _ unpadded: Bool, _ date: LocalDate?, _ time: LocalTime?, _ names: DateNames)
        -> String?
    {
        func number(_ value: Int) -> String { unpadded ? String(value) : pad(value, 2) }
        switch (letter, date, time) {
        case ("%", _, _): return unpadded ? nil : "%"
        case ("a", let date?, _): return names.weekdayAbbreviations[date.weekday]
        case ("A", let date?, _): return names.weekdays[date.weekday]
        case ("b", let date?, _): return names.monthAbbreviations[date.month - 1]
        case ("B", let date?, _): return names.months[date.month - 1]
        case ("Y", let date?, _): return String(date.year)
        case ("m", let date?, _): return number(date.month)
        case ("d", let date?, _): return number(date.day)
        case ("H", _, let time?): return number(time.hour)
        case ("I", _, let time?): return number(time.hour % 12 == 0 ? 12 : time.hour % 12)
        case ("M", _, let time?): return number(time.minute)
        case ("p", _, let time?): return time.hour < 12 ? names.am : names.pm
        default: return nil
        }
    }
}
