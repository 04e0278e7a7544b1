#if canImport(Glibc)
    import Glibc
#endif

/// The names a language writes dates with, as plain values read once from glibc's `LC_TIME` data
/// (`ABDAY_n`, `DAY_n`, `ABMON_n`, `MON_n`, `AM_STR`, `PM_STR`) of the locale the words around
/// them are in: `DateText` fills the catalog's date patterns with them, and a test with any.
public struct DateNames: Sendable, Hashable {
    /// Sunday first, as `LocalDate.weekday` counts.
    public let weekdayAbbreviations: [String]
    public let weekdays: [String]
    /// January first; trimmed, as glibc pads some (ko_KR's `" 1월"`).
    public let monthAbbreviations: [String]
    public let months: [String]
    public let am: String
    public let pm: String

    public init(
        weekdayAbbreviations: [String], weekdays: [String], monthAbbreviations: [String], months: [String], am: String,
        pm: String
    ) {
        self.weekdayAbbreviations = weekdayAbbreviations
        self.weekdays = weekdays
        self.monthAbbreviations = monthAbbreviations.map { $0.trimmingSpaces }
        self.months = months
        self.am = am
        self.pm = pm
    }

    /// The C locale's names, which today's English text is written with.
    public static let english = DateNames(
        weekdayAbbreviations: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
        weekdays: ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"],
        monthAbbreviations: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
        months: [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ], am: "AM", pm: "PM")

    /// The names of the locale `name` as glibc has it (through `LOCPATH` or the locale archive);
    /// nil when glibc cannot load it.
    public init?(localeNamed name: String) {
        guard let locale = newlocale(LC_TIME_MASK, name, nil) else { return nil }
        defer { freelocale(locale) }
        func text(_ item: Int32) -> String { String(cString: nl_langinfo_l(nl_item(item), locale)) }
        func texts(_ first: Int32, _ count: Int32) -> [String] { (0..<count).map { text(first + $0) } }
        self.init(
            weekdayAbbreviations: texts(Int32(ABDAY_1), 7), weekdays: texts(Int32(DAY_1), 7),
            monthAbbreviations: texts(Int32(ABMON_1), 12), months: texts(Int32(MON_1), 12), am: text(Int32(AM_STR)),
            pm: text(Int32(PM_STR)))
    }
}

extension String {
    /// Without leading and trailing spaces; itself, at no cost, when it has none — every name but
    /// ko_KR's padded months, and `english`, which every reminderctl start makes (its first
    /// version, by `Character` through reversed views, ran 1.4 M instructions there: 12% of `status`).
    fileprivate var trimmingSpaces: String {
        let space = UInt8(ascii: " ")
        guard utf8.first == space || utf8.last == space else { return self }
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { $0 != space }), let last = bytes.lastIndex(where: { $0 != space })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
