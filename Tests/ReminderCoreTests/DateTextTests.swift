import CivilTime
import ReminderCore
import Testing

/// Dates in sentences: the catalogs' patterns (po/ko.po, po/de.po) filled with names as glibc's
/// `LC_TIME` data has them (Debian's `locales`: ko_KR pads its month abbreviations, " 1월", and
/// de_DE's abbreviations have no point), so the rules hold without those locales generated.
@Suite struct DateTextTests {
    static let korean = DateNames(
        weekdayAbbreviations: ["일", "월", "화", "수", "목", "금", "토"],
        weekdays: ["일요일", "월요일", "화요일", "수요일", "목요일", "금요일", "토요일"],
        monthAbbreviations: [" 1월", " 2월", " 3월", " 4월", " 5월", " 6월", " 7월", " 8월", " 9월", "10월", "11월", "12월"],
        months: ["1월", "2월", "3월", "4월", "5월", "6월", "7월", "8월", "9월", "10월", "11월", "12월"], am: "오전", pm: "오후")
    static let german = DateNames(
        weekdayAbbreviations: ["So", "Mo", "Di", "Mi", "Do", "Fr", "Sa"],
        weekdays: ["Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"],
        monthAbbreviations: ["Jan", "Feb", "Mär", "Apr", "Mai", "Jun", "Jul", "Aug", "Sep", "Okt", "Nov", "Dez"],
        months: [
            "Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November",
            "Dezember",
        ], am: "", pm: "")

    let sunday = LocalDate(uncheckedYear: 2026, month: 11, day: 29)
    let morning = LocalTime(hour: 9, minute: 0)
    let night = LocalTime(hour: 23, minute: 5)

    func written(_ pattern: String, _ names: DateNames, date: LocalDate? = nil, time: LocalTime? = nil) -> String {
        DateText.written(pattern, date: date ?? sunday, time: time ?? morning, names: names)
    }

    /// C and every locale without a catalog: the English patterns and names, today's text.
    @Test func englishIsTodaysText() {
        #expect(written("%a %Y-%m-%d %H:%M", .english) == "Sun 2026-11-29 09:00")
        #expect(written("%a %Y-%m-%d", .english, date: LocalDate(uncheckedYear: 2027, month: 3, day: 5)) == "Fri 2027-03-05")
        #expect(written("%-I:%M %p", .english, time: night) == "11:05 PM")
        #expect(written("%-I:%M %p", .english, time: LocalTime(hour: 0, minute: 5)) == "12:05 AM")
        // No language chosen: the English names with the English patterns.
        let local = LocalDateTime(date: sunday, time: morning)
        #expect(DateText.sentence(local, thisYear: 2026) == "Sun 2026-11-29 09:00")
        #expect(DateText.sentence(local, thisYear: 2027) == "Sun 2026-11-29 09:00")
        #expect(DateText.sentence(sunday, thisYear: 2026) == "Sun 2026-11-29")
        #expect(DateText.weekdayAndTime(local) == "Sun 09:00")
        #expect(DateText.timeOfDay(night) == "11:05 PM")
        #expect(DateText.table(local) == "Sun 2026-11-29 09:00")
    }

    @Test func koreanWritesTheMonthsNameNotItsPaddedAbbreviation() {
        #expect(written("%B %-d일 (%a) %H:%M", Self.korean) == "11월 29일 (일) 09:00")
        #expect(written("%Y년 %B %-d일 (%a)", Self.korean, date: LocalDate(uncheckedYear: 2027, month: 1, day: 3)) == "2027년 1월 3일 (일)")
        #expect(written("%b", Self.korean, date: LocalDate(uncheckedYear: 2027, month: 1, day: 3)) == "1월")
        #expect(written("%p %-I:%M", Self.korean, time: night) == "오후 11:05")
        #expect(written("%A %H:%M", Self.korean) == "일요일 09:00")
        #expect(written("%Y-%m-%d (%a) %H:%M", Self.korean) == "2026-11-29 (일) 09:00")
    }

    /// German abbreviations take their point, except one that is the whole name (Mai).
    @Test func germanAbbreviationsTakeTheirPointUnlessWhole() {
        #expect(written("%a., %-d. %b., %H:%M", Self.german) == "So., 29. Nov., 09:00")
        let may = LocalDate(uncheckedYear: 2027, month: 5, day: 7)
        #expect(written("%a., %-d. %b. %Y, %H:%M", Self.german, date: may) == "Fr., 7. Mai 2027, 09:00")
        #expect(written("%a., %-d. %b.", Self.german, date: may) == "Fr., 7. Mai")
        #expect(written("%H:%M", Self.german, time: night) == "23:05")
    }

    /// A pattern a translator got wrong writes what it cannot fill as it stands, never a crash.
    @Test func anUnknownOrUnfillableConversionStaysAsWritten() {
        #expect(written("%q %-x %Y 100%% %", .english) == "%q %-x 2026 100% %")
        #expect(DateText.written("%a %H:%M", date: nil, time: morning, names: .english) == "%a 09:00")
        #expect(DateText.written("%a %H:%M", date: sunday, time: nil, names: .english) == "Sun %H:%M")
    }

    /// A locale glibc cannot load has no names; the C locale has the English ones.
    @Test func namesAreReadFromGlibc() {
        #expect(DateNames(localeNamed: "xx_NOWHERE.UTF-8") == nil)
        #expect(DateNames(localeNamed: "C") == .english)
    }
}
