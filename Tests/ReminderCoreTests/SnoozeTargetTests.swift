import CivilTime
import ReminderCore
import ReminderTestSupport
import Testing

/// `snooze ID until HH:MM` and `snooze ID tomorrow`: the instant each names, in the daemon's zone.
@Suite struct SnoozeTargetTests {
    let ny = Fixture.zone("America/New_York")
    var rules: FireTimeRules { FireTimeRules(zone: ny, configuration: Configuration(quietHours: nil)) }

    @Test func theWordsItTakes() {
        #expect(SnoozeTarget.parse("18:00") == .at(LocalTime(hour: 18, minute: 0)))
        #expect(SnoozeTarget.parse("until 18:00") == .at(LocalTime(hour: 18, minute: 0)))
        #expect(SnoozeTarget.parse("Tomorrow") == .tomorrow)
        #expect(SnoozeTarget.parse("24:00") == nil)
        #expect(SnoozeTarget.parse("6pm") == nil)
        #expect(SnoozeTarget.parse("") == nil)
    }

    @Test func aTimeStillAheadIsToday() {
        let now = Fixture.instant("2026-11-28T10:00:00-05:00")
        let target = SnoozeTarget.at(LocalTime(hour: 18, minute: 0)).instant(from: now, rules: rules)
        #expect(target.instant == Fixture.instant("2026-11-28T18:00:00-05:00"))
        #expect(!target.tomorrow)
    }

    /// 18:00 asked at 19:00 (or at 18:00 itself) means tomorrow's 18:00, and says so.
    @Test func aTimePassedTodayIsTomorrow() {
        for asked in ["2026-11-28T19:00:00-05:00", "2026-11-28T18:00:00-05:00"] {
            let sixPM = SnoozeTarget.at(LocalTime(hour: 18, minute: 0))
            let target = sixPM.instant(from: Fixture.instant(asked), rules: rules)
            #expect(target.instant == Fixture.instant("2026-11-29T18:00:00-05:00"))
            #expect(target.tomorrow)
        }
    }

    @Test func tomorrowIsTomorrowAtTheReminderTime() {
        let rules = FireTimeRules(zone: ny, configuration: Configuration(reminderTime: LocalTime(hour: 7, minute: 30)))
        let target = SnoozeTarget.tomorrow.instant(from: Fixture.instant("2026-11-28T23:50:00-05:00"), rules: rules)
        #expect(target.instant == Fixture.instant("2026-11-29T07:30:00-05:00"))
    }

    /// 02:30 does not exist on 2027-03-14 in New York (02:00 jumps to 03:00): it is 03:30 EDT.
    @Test func aTimeInADSTGapIsWhereTheGapShiftsIt() {
        let now = Fixture.instant("2027-03-14T01:00:00-05:00")
        let target = SnoozeTarget.at(LocalTime(hour: 2, minute: 30)).instant(from: now, rules: rules)
        #expect(target.instant == Fixture.instant("2027-03-14T03:30:00-04:00"))
        #expect(!target.tomorrow)
    }
}
