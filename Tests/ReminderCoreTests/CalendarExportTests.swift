import CivilTime
import ReminderTestSupport
import Testing

@testable import ReminderCore

@Suite struct CalendarExportTests {
    let ny = Fixture.zone("America/New_York")

    @Test func triggersCountDaysOnTheWallClockThenElapsedTime() {
        let nine = LocalTime(hour: 9, minute: 0)
        let text = { (lead: CalendarDuration, time: LocalTime) in
            CalendarRecurrence.trigger(lead: lead, reminderTime: time).text
        }
        #expect(text(CalendarDuration(7, .days), nine) == "-P7DT14H59M")
        #expect(text(CalendarDuration(2, .weeks), nine) == "-P14DT14H59M")
        #expect(text(CalendarDuration(90, .minutes), nine) == "-PT1H30M")
        #expect(text(CalendarDuration(0, .days), LocalTime(hour: 23, minute: 59)) == "-PT0S")
    }

    @Test func aDayLeadAcrossSpringForwardKeepsItsReminderTime() {
        // Due 2027-03-16 23:59 EDT; the 7d reminder is 2027-03-09 09:00 EST: the DST change
        // (2027-03-14) lies in the whole-day part, so the wall clock, not elapsed time, counts.
        let trigger = CalendarRecurrence.trigger(
            lead: CalendarDuration(7, .days), reminderTime: LocalTime(hour: 9, minute: 0))
        let start = LocalDateTime(date: Fixture.date("2027-03-16"), time: FireTimeRules.endOfDay).localSeconds
        #expect(trigger.instant(beforeLocal: start, in: ny) == Fixture.instant("2027-03-09T09:00:00-05:00"))
    }

    @Test func monthEndAnchorsClampLikeReminderdDoes() throws {
        let netflix = try Fixture.item(#"{"kind":"subscription","title":"n","every":"1mo","next":"2027-01-30"}"#)
        #expect(
            CalendarRecurrence.rule(for: netflix, first: Fixture.date("2027-01-30"))
                == "FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1")
        let fee = try Fixture.item(#"{"kind":"fee","title":"f","due":"2028-02-29"}"#)
        #expect(
            CalendarRecurrence.rule(for: fee, first: Fixture.date("2028-02-29"))
                == "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1")
        let quarterly = try Fixture.item(#"{"kind":"benefit","title":"b","period":"quarterly"}"#)
        #expect(
            CalendarRecurrence.rule(for: quarterly, first: Fixture.date("2026-12-31"))
                == "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=-1")
        // Periods from a start day: due the day before the next one starts, clamped the same way.
        for (period, start, rule) in [
            ("annual", "2025-03-15", "FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=14"),
            ("quarterly", "2025-04-01", "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=-1"),
            ("monthly", "2027-01-31", "FREQ=MONTHLY;BYMONTHDAY=27,28,29,30,31;BYSETPOS=-2"),
            ("annual", "2028-02-29", "FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=27,28,29;BYSETPOS=-2"),
        ] {
            let item = try Fixture.item(
                #"{"kind":"benefit","title":"b","period":"\#(period)","periodStart":"\#(start)"}"#)
            #expect(CalendarRecurrence.rule(for: item, first: Fixture.date("2027-02-27")) == rule, "\(start)")
        }
        let coupon = try Fixture.item(#"{"kind":"coupon","title":"c","expires":"2027-01-01"}"#)
        #expect(CalendarRecurrence.rule(for: coupon, first: Fixture.date("2027-01-01")) == nil)
    }

    @Test func occurrencesWhoseRemindersMoveGetTheirOwnAlarms() throws {
        // A 1h lead at 22:59 is in quiet hours (22:00-08:00) and moves to 21:59: an override.
        let item = try Fixture.item(
            #"{"id":"s","kind":"subscription","title":"Gym","every":"1mo","next":"2027-01-15","lead":["1d","1h"]}"#,
            zone: ny)
        let planner = Planner(configuration: Configuration(), zone: ny)
        let ics = CalendarExport.ics(
            items: [item], planner: planner, from: Fixture.instant("2027-01-01T00:00:00Z"),
            to: Fixture.instant("2027-03-01T00:00:00Z"))
        let lines = ics.split(separator: "\r\n")
        #expect(lines.contains("RRULE:FREQ=MONTHLY;BYMONTHDAY=15"))
        #expect(lines.contains("TRIGGER:-PT1H"))
        #expect(
            lines.filter { $0.hasPrefix("RECURRENCE-ID:") } == [
                "RECURRENCE-ID:20270115T235900", "RECURRENCE-ID:20270215T235900",
            ])
        #expect(lines.contains("TRIGGER;VALUE=DATE-TIME:20270116T025900Z"))
    }

    /// A free trial's last day is an event of its own, and the charges a series from the first
    /// one, the day after: a weekly series starting on the trial's last day (as exported before)
    /// showed a renewal there and stepped to days never charged.
    @Test func aFreeTrialsEndIsAnEventOfItsOwnAndTheChargesStartAfterIt() throws {
        let item = try Fixture.item(
            #"{"id":"h","kind":"subscription","title":"Hulu","amount":"9.99","every":"1w","next":"2027-01-21","#
                + #""trialEnds":"2027-01-20","lead":["1d"]}"#,
            zone: ny)
        let planner = Planner(configuration: Configuration(), zone: ny)
        let ics = CalendarExport.ics(
            items: [item], planner: planner, from: Fixture.instant("2027-01-01T00:00:00Z"),
            to: Fixture.instant("2027-03-01T00:00:00Z"))
        let lines = ics.split(separator: "\r\n").map(String.init)
        let trial = try #require(lines.firstIndex(of: "UID:h-trial@reminderd"))
        // 23:59 in New York on its last day; reminded at 09:00 the day before.
        #expect(lines[trial...].prefix(4).contains("DTSTART:20270121T045900Z"))
        #expect(lines.contains("SUMMARY:Hulu free trial ends"))
        #expect(lines.contains("TRIGGER;VALUE=DATE-TIME:20270119T140000Z"))
        #expect(lines.filter { $0.hasPrefix("DTSTART:") } == ["DTSTART:20270121T045900Z", "DTSTART:20270121T235900"])
        #expect(lines.contains("RRULE:FREQ=WEEKLY"))
        #expect(lines.filter { $0 == "SUMMARY:Hulu renews" }.count == 1)
    }

    /// The event mirror names events by the item's sync UID: every event of the item (master
    /// and overrides) carries it after its own UID.
    @Test func eachEventCarriesItsItemsSyncUID() throws {
        let item = try Fixture.item(
            #"{"id":"s","kind":"subscription","title":"Gym","every":"1mo","next":"2027-01-15","lead":["1d","1h"]}"#,
            zone: ny)
        let ics = CalendarExport.ics(
            items: [item], planner: Planner(configuration: Configuration(), zone: ny),
            from: Fixture.instant("2027-01-01T00:00:00Z"), to: Fixture.instant("2027-03-01T00:00:00Z"),
            syncUIDs: ["s": "5f0c@reminderd"])
        let lines = ics.split(separator: "\r\n")
        #expect(lines.filter { $0 == "X-REMINDERD-UID:5f0c@reminderd" }.count == 3)
        #expect(zip(lines, lines.dropFirst()).allSatisfy { !$0.0.hasPrefix("UID:") || $0.1.hasPrefix("X-REMINDERD-UID:") })
    }
}
