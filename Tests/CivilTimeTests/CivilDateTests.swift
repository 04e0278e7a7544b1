import CivilTime
import ReminderTestSupport
import Testing

@Suite struct CivilDateTests {
    @Test func dayNumbersRoundTripOverTheSupportedYears() {
        var day = LocalDate(uncheckedYear: 1970, month: 1, day: 1).dayNumber
        #expect(day == 0)
        let last = LocalDate(uncheckedYear: 2199, month: 12, day: 31).dayNumber
        var previous = LocalDate(dayNumber: day)
        while day < last {
            day += 1
            let date = LocalDate(dayNumber: day)
            #expect(date.dayNumber == day)
            #expect(previous < date)
            previous = date
        }
    }

    @Test func weekdaysAreKnownOnes() {
        #expect(Fixture.date("2026-11-21").weekday == 6)  // a Saturday
        #expect(Fixture.date("2000-01-01").weekday == 6)
        #expect(Fixture.date("2024-02-29").weekday == 4)
    }

    @Test func monthArithmeticIsAnchoredAndClamped() {
        let jan31 = Fixture.date("2026-01-31")
        #expect(jan31.adding(months: 1, anchorDay: 31) == Fixture.date("2026-02-28"))
        #expect(jan31.adding(months: 2, anchorDay: 31) == Fixture.date("2026-03-31"))
        #expect(jan31.adding(months: 3, anchorDay: 31) == Fixture.date("2026-04-30"))
        #expect(Fixture.date("2028-01-31").adding(months: 1, anchorDay: 31) == Fixture.date("2028-02-29"))
        #expect(jan31.adding(months: -2, anchorDay: 31) == Fixture.date("2025-11-30"))
        #expect(jan31.adding(months: 12, anchorDay: 31) == Fixture.date("2027-01-31"))
    }

    @Test func leapYears() {
        #expect(LocalDate.isLeapYear(2024))
        #expect(!LocalDate.isLeapYear(2100))
        #expect(LocalDate.isLeapYear(2000))
        #expect(!LocalDate.isLeapYear(2026))
    }

    @Test func impossibleDatesAreRefusedWithTheReason() {
        #expect(LocalDate.parse("2026-02-30") == .failure(.malformed("February 2026 has 28 days")))
        #expect(LocalDate.parse("2026-13-01") == .failure(.malformed("month 13 does not exist")))
        #expect((try? LocalDate.parse("2026-2-3").get()) == nil)
        #expect((try? LocalDate.parse("20260203").get()) == nil)
        #expect((try? LocalDate.parse("1969-12-31").get()) == nil)
        #expect(LocalDate.parse("2028-02-29") == .success(LocalDate(uncheckedYear: 2028, month: 2, day: 29)))
    }

    @Test func timesOfDayParseAndPrint() {
        #expect(LocalTime.parse("09:00") == .success(LocalTime(hour: 9, minute: 0)))
        #expect(LocalTime.parse("23:59:30").map(\.description) == .success("23:59:30"))
        #expect((try? LocalTime.parse("24:00").get()) == nil)
        #expect((try? LocalTime.parse("9:00").get()) == nil)
    }

    @Test func timestampsRoundTripWithTheirOffset() {
        let ny = Fixture.zone("America/New_York")
        let instant = Fixture.instant("2026-11-24T09:00:00-05:00")
        #expect(Timestamp.format(instant, in: ny) == "2026-11-24T09:00:00-05:00")
        #expect(Timestamp.format(instant, in: .utc) == "2026-11-24T14:00:00+00:00")
        #expect(Timestamp.parse("2026-11-24T14:00:00Z") == .success(instant))
        #expect(Timestamp.parse("2026-11-24T14:00:00.250Z") == .success(instant))
        #expect((try? Timestamp.parse("2026-11-24 14:00").get()) == nil)
        let howe = Fixture.zone("Australia/Lord_Howe")
        #expect(Timestamp.format(Fixture.instant("2026-07-01T00:00:00Z"), in: howe) == "2026-07-01T10:30:00+10:30")
    }
}
