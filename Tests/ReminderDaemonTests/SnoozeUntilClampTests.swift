import CivilTime
import ReminderCore
import ReminderTestSupport
import Testing

@testable import ReminderDaemon

/// A snooze to a wall time is clamped by the one clamp every snooze takes (CONTRACT §3).
@Suite struct SnoozeUntilClampTests {
    let ny = Fixture.zone("America/New_York")
    let configuration = Configuration(timeZone: "America/New_York")
    var rules: FireTimeRules { FireTimeRules(zone: ny, configuration: configuration) }

    func end(_ target: String, now: String, due: String) -> (end: Int64, shortened: Bool)? {
        PopUpComposer.snoozeEnd(
            at: Fixture.instant(target), from: Fixture.instant(now), due: Fixture.instant(due),
            configuration: configuration, rules: rules)
    }

    @Test func aTimeBeforeTheDueTimeAndOutOfQuietHoursIsKept() throws {
        let snooze = try #require(
            end("2026-11-28T18:00:00-05:00", now: "2026-11-28T10:00:00-05:00", due: "2026-11-30T23:59:00-05:00"))
        #expect(snooze.end == Fixture.instant("2026-11-28T18:00:00-05:00"))
        #expect(!snooze.shortened)
    }

    /// Tomorrow's 18:00 for a coupon due tonight at 23:59: a minute before it is 23:58, quiet,
    /// so it ends before the window, at 21:59, and is shortened.
    @Test func aTimeAtOrAfterTheDueTimeEndsBeforeItOutOfQuietHours() throws {
        for target in ["2026-11-29T18:00:00-05:00", "2026-11-28T23:59:00-05:00"] {
            let snooze = try #require(
                end(target, now: "2026-11-28T19:00:00-05:00", due: "2026-11-28T23:59:00-05:00"))
            #expect(snooze.end == Fixture.instant("2026-11-28T21:59:00-05:00"))
            #expect(snooze.shortened)
        }
    }

    /// 23:00 is in the default quiet hours (22:00–08:00): the snooze ends at 08:00.
    @Test func aTimeInQuietHoursEndsWhenTheyEnd() throws {
        let snooze = try #require(
            end("2026-11-28T23:00:00-05:00", now: "2026-11-28T10:00:00-05:00", due: "2026-11-30T23:59:00-05:00"))
        #expect(snooze.end == Fixture.instant("2026-11-29T08:00:00-05:00"))
        #expect(!snooze.shortened)
    }

    /// Nothing fits when the due time is a minute away: refused, not a snooze into the past.
    @Test func noTimeFitsRightBeforeTheDueTime() {
        let now = "2026-11-28T15:59:30-05:00"
        #expect(end("2026-11-28T18:00:00-05:00", now: now, due: "2026-11-28T16:00:00-05:00") == nil)
    }
}
