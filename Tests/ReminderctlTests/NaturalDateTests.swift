import CivilTime
import ReminderCore
import Testing

@testable import reminderctl

/// Dates as typed (`fri`, `+2w`, `dec 5`), resolved against a fixed today.
@Suite struct NaturalDateTests {
    /// Sunday 2026-11-22.
    let today = LocalDate(uncheckedYear: 2026, month: 11, day: 22)

    func resolved(_ text: String) -> String {
        switch NaturalDate.parse(text, today: today) {
        case .success(let date): return date.description
        case .failure(let error): return "refused: \(error.reason)"
        }
    }

    @Test func relativeWordsAndOffsets() {
        #expect(resolved("today") == "2026-11-22")
        #expect(resolved("Tomorrow") == "2026-11-23")
        #expect(resolved("+3d") == "2026-11-25")
        #expect(resolved("+2w") == "2026-12-06")
        #expect(resolved("+1mo") == "2026-12-22")
        #expect(resolved("+1y") == "2027-11-22")
        #expect(resolved("+3x").hasPrefix("refused: \"+3x\": the unit is d (days), w (weeks)"))
    }

    @Test func weekdaysAreTheComingOneAndNextSkipsToday() {
        #expect(resolved("fri") == "2026-11-27")
        #expect(resolved("friday") == "2026-11-27")
        #expect(resolved("next friday") == "2026-11-27")
        #expect(resolved("sun") == "2026-11-22")  // today is a Sunday
        #expect(resolved("next sun") == "2026-11-29")
        #expect(resolved("mon") == "2026-11-23")
    }

    @Test func monthAndDayIsTheNextSuchDay() {
        #expect(resolved("dec 5") == "2026-12-05")
        #expect(resolved("5 December") == "2026-12-05")
        #expect(resolved("jan 10") == "2027-01-10")  // already past this year
        #expect(resolved("nov 22") == "2026-11-22")
        #expect(resolved("dec 5 2028") == "2028-12-05")
        #expect(resolved("feb 30").hasPrefix("refused: \"feb 30\": February 2026 has 28 days"))
    }

    @Test func ambiguousAndUnknownFormsAreRefusedWithTheReason() {
        #expect(resolved("12/05").contains("ambiguous: 12/05 is December 5 in the US and 12 May elsewhere"))
        #expect(resolved("someday").contains("is not a date; use YYYY-MM-DD, today, tomorrow, +3d"))
    }

    /// Dots are day first wherever they are written; slashes only when the day is over 12. A day
    /// or month that does not exist is refused naming what was typed, never read as another date.
    @Test func dayFirstDatesAreReadAsTypedOrRefusedNamingThem() {
        #expect(resolved("31.12.2026") == "2026-12-31")
        #expect(resolved("05.12.") == "2026-12-05")
        #expect(resolved("5.1") == "2027-01-05")  // past this year: the next one
        #expect(resolved("31/12/2026") == "2026-12-31")
        #expect(resolved("12/31/2026") == "2026-12-31")
        #expect(resolved("2026/12/31") == "2026-12-31")
        #expect(resolved("2026.12.05") == "2026-12-05")
        #expect(resolved("2026/12/05") == "2026-12-05")
        #expect(resolved("31.13.2026") == "refused: \"31.13.2026\": there is no month 13 (day first: DD.MM.YYYY)")
        #expect(resolved("30.02.2027").hasPrefix("refused: \"30.02.2027\": February 2027 has 28 days"))
        #expect(resolved("1.2.26").hasPrefix("refused: \"1.2.26\" is not a date"))
        #expect(resolved("12/05/2026").contains("\"12/05/2026\" is ambiguous"))
    }

    @Test func isoDatesAndDateTimesPassThroughUnchanged() {
        #expect(NaturalDate.resolve("2026-12-05", today: today) == .success(nil))
        #expect(NaturalDate.resolve("2026-12-05T18:00", today: today) == .success(nil))
        #expect(NaturalDate.resolve("2026-02-30", today: today) == .success(nil))  // the daemon says why not
        #expect(
            NaturalDate.resolve("fri", today: today) == .success(LocalDate(uncheckedYear: 2026, month: 11, day: 27)))
    }
}
