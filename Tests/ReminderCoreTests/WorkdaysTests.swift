import CivilTime
import ReminderCore
import ReminderTestSupport
import Testing

/// Working days (CONTRACT §3): a reminder that would come on a day off comes on the working day
/// before, at the same wall time, and the other rules still hold after the move.
@Suite struct WorkdaysTests {
    let ny = Fixture.zone("America/New_York")

    func config(_ workdays: String = #"{"days":"mon-fri","holidays":"US"}"#, quiet: Bool = false) throws
        -> Configuration
    {
        try Fixture.config(#"{"workdays":\#(workdays)\#(quiet ? "" : #","quietHours":null"#)}"#)
    }

    func plan(_ due: String, leads: String, _ config: Configuration) throws -> [String] {
        let item = try Fixture.item(#"{"kind":"coupon","title":"c","expires":"\#(due)","lead":[\#(leads)]}"#, zone: ny)
        return Fixture.plan(item, config: config, zone: ny, from: "2026-01-01T00:00:00Z", to: "2030-01-01T00:00:00Z")
    }

    @Test func aSaturdayReminderComesOnFriday() throws {
        // Due Sunday 2026-12-06; its 1d reminder would come on Saturday.
        #expect(try plan("2026-12-06", leads: #""1d""#, config()) == ["2026-12-04T09:00:00-05:00 workday"])
        // Off by default: Saturday it is.
        #expect(
            try plan("2026-12-06", leads: #""1d""#, Fixture.config(#"{"quietHours":null}"#)) == [
                "2026-12-05T09:00:00-05:00"
            ])
    }

    @Test func aMondayHolidayMovesToTheFridayBefore() throws {
        // Memorial Day, Monday 2027-05-31: the 1d reminder of a fee due Tuesday goes back over the weekend.
        #expect(try plan("2027-06-01", leads: #""1d""#, config()) == ["2027-05-28T09:00:00-04:00 workday"])
        // Without a region only the weekdays count.
        #expect(
            try plan("2027-06-01", leads: #""1d""#, config(#"{"days":"mon-fri"}"#)) == ["2027-05-31T09:00:00-04:00"])
    }

    @Test func aRunOfDaysOffEndsOnTheWorkingDayBefore() throws {
        // Due Monday 2026-12-28: Sunday, Saturday and Christmas Day (Friday) are off, so Thursday.
        #expect(try plan("2026-12-28", leads: #""1d""#, config()) == ["2026-12-24T09:00:00-05:00 workday"])
        // A week of Sunday to Thursday: Friday and Saturday are off.
        #expect(
            try plan("2026-12-06", leads: #""2d""#, config(#"{"days":"sun-thu"}"#)) == [
                "2026-12-03T09:00:00-05:00 workday"
            ])
    }

    @Test func theWallClockIsKeptAcrossDST() throws {
        // Sunday 2026-03-08 is spring-forward day in New York: Friday's reminder is in EST.
        #expect(try plan("2026-03-09", leads: #""1d""#, config()) == ["2026-03-06T09:00:00-05:00 workday"])
        // A reminder time in Sunday's gap is the nominal 02:30 on Friday, where it exists.
        var early = try config()
        early.reminderTime = LocalTime(hour: 2, minute: 30)
        #expect(try plan("2026-03-09", leads: #""1d""#, early) == ["2026-03-06T02:30:00-05:00 workday"])
    }

    @Test func quietHoursStillHoldAfterTheMove() throws {
        // 30 h before Monday 06:00 is Sunday 00:00: Friday 00:00 is in quiet hours, so Friday 08:00.
        #expect(
            try plan("2026-12-07T06:00", leads: #""30h""#, config(quiet: true)) == [
                "2026-12-04T08:00:00-05:00 quiet-hours-end"
            ])
    }

    @Test func aReminderMovedBackPastAnEarlierOneMergesIntoIt() throws {
        // Due Monday 23:59: 2d (Saturday 09:00) came before 40h (Sunday 07:59); moved, 40h would
        // come on Friday 07:59, before 2d's Friday 09:00, so it merges into that one.
        #expect(
            try plan("2026-12-07", leads: #""2d","40h""#, config()) == ["2026-12-04T09:00:00-05:00 workday"])
        // Two moved onto the same instant are one reminder, the longer lead's (as any equal two are).
        #expect(
            try plan("2026-12-07", leads: #""2d","1d","0d""#, config()) == [
                "2026-12-04T09:00:00-05:00 workday", "2026-12-07T09:00:00-05:00",
            ])
    }

    @Test func aDayOffSaysWhy() {
        let workdays = Workdays(weekdays: 0b0111110, holidays: "US")
        #expect(workdays.dayOff(Fixture.date("2026-12-05")) == "Saturday is not a working day")
        #expect(workdays.dayOff(Fixture.date("2026-12-25")) == "Christmas Day (US)")
        #expect(workdays.dayOff(Fixture.date("2026-12-24")) == nil)
        let everyDay = Workdays(weekdays: 0b1111111, holidays: "DE")
        #expect(everyDay.dayOff(Fixture.date("2026-10-03")) == "German Unity Day (DE)")
    }

    @Test func badSettingsNameTheKeyAndTheValue() throws {
        #expect(try config(#"{"days":"fri-mon"}"#).workdays == Workdays(weekdays: 0b1100011, holidays: nil))
        #expect(try config(#"{"days":"mon, wed,fri"}"#).workdays == Workdays(weekdays: 0b0101010, holidays: nil))
        #expect(try Fixture.config("{}").workdays == nil)
        for (json, words) in [
            (
                #"{"holidays":"XX"}"#,
                #"workdays.holidays: "XX" is not a holiday region; use one of DE, FR, GB, JP, KR, US"#
            ),
            (#"{"days":"mon-fry"}"#, #"workdays.days: "mon-fry": "fry" is not a day"#),
            (#"{"days":""}"#, #"workdays.days: "": "" is not a day"#),
            (#"{"days":"mon-wed-fri"}"#, #"workdays.days: "mon-wed-fri": "mon-wed-fri" is not a day or a range"#),
            (#"{"day":"mon"}"#, "workdays.day"),
        ] {
            #expect {
                try config(json)
            } throws: { error in
                "\(error)".contains(words)
            }
        }
    }
}
