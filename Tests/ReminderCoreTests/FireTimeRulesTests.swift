import CivilTime
import ReminderCore
import ReminderTestSupport
import Testing

@Suite struct FireTimeRulesTests {
    let ny = Fixture.zone("America/New_York")
    let noQuiet = Configuration(quietHours: nil)

    func coupon(_ expires: String, lead: String, extra: String = "") throws -> Item {
        try Fixture.item(#"{"kind":"coupon","title":"c","expires":"\#(expires)","lead":[\#(lead)]\#(extra)}"#, zone: ny)
    }

    @Test func dayLeadsFireAtTheReminderTimeOnTheirDay() throws {
        let item = try coupon("2026-11-30", lead: #""7d","1d","0d""#)
        #expect(
            Fixture.plan(item, config: noQuiet, zone: ny, from: "2026-11-01T00:00:00Z", to: "2026-12-31T00:00:00Z") == [
                "2026-11-23T09:00:00-05:00", "2026-11-29T09:00:00-05:00", "2026-11-30T09:00:00-05:00",
            ])
    }

    @Test func dayLeadsKeepTheWallClockAcrossDST() throws {
        // Due the Monday after spring-forward: the 7d reminder is in EST, the 0d one in EDT.
        let item = try coupon("2026-03-09", lead: #""7d","0d""#)
        #expect(
            Fixture.plan(item, config: noQuiet, zone: ny, from: "2026-02-01T00:00:00Z", to: "2026-04-01T00:00:00Z") == [
                "2026-03-02T09:00:00-05:00", "2026-03-09T09:00:00-04:00",
            ])
    }

    @Test func timeLeadsAreElapsedTime() throws {
        // 12:00 EDT on spring-forward day minus 12 h of elapsed time is 23:00 EST the day before.
        let item = try coupon("2026-03-08T12:00", lead: #""12h","90m""#)
        #expect(
            Fixture.plan(item, config: noQuiet, zone: ny, from: "2026-03-01T00:00:00Z", to: "2026-04-01T00:00:00Z") == [
                "2026-03-07T23:00:00-05:00", "2026-03-08T10:30:00-04:00",
            ])
    }

    @Test func aReminderTimeInTheGapMovesForward() throws {
        let config = Configuration(reminderTime: LocalTime(hour: 2, minute: 30), quietHours: nil)
        let item = try coupon("2026-03-09", lead: #""1d""#)
        #expect(
            Fixture.plan(item, config: config, zone: ny, from: "2026-03-01T00:00:00Z", to: "2026-04-01T00:00:00Z") == [
                "2026-03-08T03:30:00-04:00 dst-gap"
            ])
        let berlin = Fixture.zone("Europe/Berlin")
        let german = try Fixture.item(#"{"kind":"fee","title":"f","due":"2026-03-30","lead":["1d"]}"#, zone: berlin)
        #expect(
            Fixture.plan(german, config: config, zone: berlin, from: "2026-03-01T00:00:00Z", to: "2026-04-01T00:00:00Z")
                == [
                    "2026-03-29T03:30:00+02:00 dst-gap"
                ])
    }

    @Test func aRepeatedReminderTimeTakesTheEarlierInstant() throws {
        let config = Configuration(reminderTime: LocalTime(hour: 1, minute: 30), quietHours: nil)
        let item = try coupon("2026-11-02", lead: #""1d""#)
        #expect(
            Fixture.plan(item, config: config, zone: ny, from: "2026-10-01T00:00:00Z", to: "2026-12-01T00:00:00Z") == [
                "2026-11-01T01:30:00-04:00"
            ])
    }

    @Test func lordHoweHalfHourGapAndApiaMissingDay() throws {
        let howe = Fixture.zone("Australia/Lord_Howe")
        let config = Configuration(reminderTime: LocalTime(hour: 2, minute: 10), quietHours: nil)
        let item = try Fixture.item(#"{"kind":"fee","title":"f","due":"2026-10-05","lead":["1d","0d"]}"#, zone: howe)
        #expect(
            Fixture.plan(item, config: config, zone: howe, from: "2026-09-01T00:00:00Z", to: "2026-11-01T00:00:00Z")
                == [
                    "2026-10-04T02:40:00+11:00 dst-gap", "2026-10-05T02:10:00+11:00",
                ])
        let apia = Fixture.zone("Pacific/Apia")
        let renewal = try Fixture.item(
            #"{"kind":"subscription","title":"s","every":"1y","next":"2011-12-31","lead":["1d","0d"]}"#, zone: apia)
        // Dec 30 2011 never happened in Samoa: its 09:00 is read as Dec 31 09:00 (+14), moved by the gap.
        #expect(
            Fixture.plan(
                renewal, config: Configuration(quietHours: nil), zone: apia, from: "2011-12-01T00:00:00Z",
                to: "2012-01-10T00:00:00Z") == [
                    "2011-12-31T09:00:00+14:00 dst-gap"
                ])
    }

    @Test func quietHoursMoveAFireTimeToTheirEnd() throws {
        let config = Configuration(
            quietHours: QuietHours(start: LocalTime(hour: 22, minute: 0), end: LocalTime(hour: 8, minute: 0)))
        let item = try coupon("2026-06-20T12:00", lead: #""14h","38h""#)
        #expect(
            Fixture.plan(item, config: config, zone: ny, from: "2026-06-01T00:00:00Z", to: "2026-07-01T00:00:00Z") == [
                "2026-06-19T08:00:00-04:00 quiet-hours-end",  // 22:00 the day before last: in quiet hours until 08:00
                "2026-06-20T08:00:00-04:00 quiet-hours-end",  // 22:00 the night before: the window wraps midnight
            ])
    }

    @Test func quietHoursEndingTooLateMoveBeforeTheirStart() throws {
        let config = Configuration(
            quietHours: QuietHours(start: LocalTime(hour: 22, minute: 0), end: LocalTime(hour: 8, minute: 0)))
        let item = try coupon("2026-06-20T07:00", lead: #""2h""#)
        #expect(
            Fixture.plan(item, config: config, zone: ny, from: "2026-06-01T00:00:00Z", to: "2026-07-01T00:00:00Z") == [
                "2026-06-19T21:59:00-04:00 quiet-hours-start"
            ])
    }

    @Test func quietHoursAcrossADSTChangeEndAtTheirWallClockEnd() throws {
        let config = Configuration(
            quietHours: QuietHours(start: LocalTime(hour: 1, minute: 0), end: LocalTime(hour: 2, minute: 30)))
        // 02:30 does not exist on 2026-03-08; the window ends at 03:30 EDT.
        let item = try coupon("2026-03-08T12:00", lead: #""10h""#)  // 02:00 EST = 03:00 EDT, inside the window
        #expect(
            Fixture.plan(item, config: config, zone: ny, from: "2026-03-01T00:00:00Z", to: "2026-04-01T00:00:00Z") == [
                "2026-03-08T03:30:00-04:00 quiet-hours-end"
            ])
        let overnight = Configuration(
            quietHours: QuietHours(start: LocalTime(hour: 22, minute: 0), end: LocalTime(hour: 8, minute: 0)))
        let autumn = try coupon("2026-11-01T12:00", lead: #""9h""#)  // 03:00 EST, after the repeated hour
        #expect(
            Fixture.plan(autumn, config: overnight, zone: ny, from: "2026-10-01T00:00:00Z", to: "2026-12-01T00:00:00Z")
                == [
                    "2026-11-01T08:00:00-05:00 quiet-hours-end"
                ])
    }

    @Test func fireTimesAtOrAfterTheDueInstantAreDropped() throws {
        let item = try coupon("2026-06-20T08:30", lead: #""0d","0h","30m""#)
        #expect(
            Fixture.plan(item, config: noQuiet, zone: ny, from: "2026-06-01T00:00:00Z", to: "2026-07-01T00:00:00Z") == [
                "2026-06-20T08:00:00-04:00"
            ])
    }

    @Test func equalFireTimesCollapseIntoTheLongestLead() throws {
        let item = try coupon("2026-06-20T10:00", lead: #""0d","1h","60m""#)
        let planner = Planner(configuration: noQuiet, zone: ny)
        let entries = planner.plan(
            items: [item], from: Fixture.instant("2026-06-01T00:00:00Z"), to: Fixture.instant("2026-07-01T00:00:00Z"))
        #expect(entries.count == 1)
        #expect(entries.first?.fire.lead == CalendarDuration(1, .hours))
    }

    @Test func fireTimesBeforeCreationAreNotScheduled() throws {
        let item = try coupon(
            "2026-11-30", lead: #""7d","1d","0d""#, extra: #","createdAt":"2026-11-25T12:00:00-05:00""#)
        #expect(
            Fixture.plan(item, config: noQuiet, zone: ny, from: "2026-11-01T00:00:00Z", to: "2026-12-31T00:00:00Z") == [
                "2026-11-29T09:00:00-05:00", "2026-11-30T09:00:00-05:00",
            ])
    }

    @Test func subscriptionsRenewOnAnchoredClampedDates() throws {
        let item = try Fixture.item(
            #"{"kind":"subscription","title":"s","every":"1mo","next":"2028-01-31","lead":["0d"]}"#, zone: ny)
        let config = Configuration(reminderTime: LocalTime(hour: 12, minute: 0), quietHours: nil)
        #expect(
            Fixture.plan(item, config: config, zone: ny, from: "2028-01-01T00:00:00Z", to: "2028-05-01T00:00:00Z") == [
                "2028-01-31T12:00:00-05:00", "2028-02-29T12:00:00-05:00", "2028-03-31T12:00:00-04:00",
                "2028-04-30T12:00:00-04:00",
            ])
    }

    @Test func aFebruary29FeeFallsOnFebruary28InOtherYears() throws {
        let item = try Fixture.item(#"{"kind":"fee","title":"f","due":"2028-02-29","lead":["0d"]}"#, zone: ny)
        let config = Configuration(reminderTime: LocalTime(hour: 12, minute: 0), quietHours: nil)
        #expect(
            Fixture.plan(item, config: config, zone: ny, from: "2027-01-01T00:00:00Z", to: "2033-01-01T00:00:00Z") == [
                "2028-02-29T12:00:00-05:00", "2029-02-28T12:00:00-05:00", "2030-02-28T12:00:00-05:00",
                "2031-02-28T12:00:00-05:00", "2032-02-29T12:00:00-05:00",
            ])
    }

    @Test func benefitsAreDueAtTheEndOfEachCalendarPeriod() throws {
        let config = Configuration(reminderTime: LocalTime(hour: 12, minute: 0), quietHours: nil)
        for (period, expected) in [
            ("quarterly", ["2026-03-31", "2026-06-30", "2026-09-30", "2026-12-31"]),
            ("semiannual", ["2026-06-30", "2026-12-31"]),
            ("annual", ["2026-12-31"]),
        ] {
            let item = try Fixture.item(
                #"{"kind":"benefit","title":"b","period":"\#(period)","lead":["0d"]}"#, zone: ny)
            let days = Fixture.plan(
                item, config: config, zone: ny, from: "2026-01-01T05:00:00Z", to: "2027-01-01T05:00:00Z"
            ).map { String($0.prefix(10)) }
            #expect(days == expected, "\(period)")
        }
    }

    @Test func aRebuyIsDueEveryDaysAfterTheLastPurchase() throws {
        let item = try Fixture.item(
            #"{"kind":"rebuy","title":"r","everyDays":10,"lastPurchased":"2026-06-01","lead":["2d"]}"#, zone: ny,
            createdAt: Fixture.instant("2026-06-01T12:00:00Z"))
        #expect(
            Fixture.plan(item, config: noQuiet, zone: ny, from: "2026-06-01T12:00:00Z", to: "2026-08-01T00:00:00Z") == [
                "2026-06-09T09:00:00-04:00"
            ])
    }
}
