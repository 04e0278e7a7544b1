import CivilTime
import ReminderCore
import Testing

@testable import ReminderDaemon

/// A shown reminder is known by its occurrence and lead, not by the instant it was computed at:
/// a new reminder time, a new zone (a reload, or a restart after the config was edited) shows
/// nothing again, and what was done stays done (issue 19, defects 1 and 2).
@Suite struct EngineSettingsChangeTests {
    /// 2026-11-19 10:00 UTC, the lead `0d` of a coupon expiring that evening at reminder time 10:00.
    static let fireAt: Int64 = 82_400
    static let tenOClock = Configuration(timeZone: "UTC", reminderTime: LocalTime(hour: 10, minute: 0), quietHours: nil)

    func withReminderTime(_ hour: Int, _ minute: Int) -> Configuration {
        var configuration = EngineSettingsChangeTests.tenOClock
        configuration.reminderTime = LocalTime(hour: hour, minute: minute)
        return configuration
    }

    /// A coupon due 2026-11-19 20:06:40 with the lead `0d`, shown at 10:00.
    func shownAtTen(_ harness: EngineHarness) -> String {
        let item = harness.addCoupon(expiresIn: 86_400 + 9 * 3600, leads: ["0d"])
        harness.advance(to: EngineSettingsChangeTests.fireAt + 30)
        #expect(harness.notifier.requests.count == 1)
        return item
    }

    @Test func aLaterReminderTimeDoesNotShowTodaysReminderAgain() throws {
        let harness = try EngineHarness(configuration: EngineSettingsChangeTests.tenOClock)
        let item = shownAtTen(harness)
        harness.reload(withReminderTime(10, 1))
        harness.advance(to: EngineSettingsChangeTests.fireAt + 3600)
        #expect(harness.notifier.requests.count == 1)
        #expect(harness.history(item).filter { $0 == "fired" }.count == 1)
    }

    @Test func aLaterReminderTimeAfterARestartDoesNotShowItAgain() throws {
        let harness = try EngineHarness(configuration: EngineSettingsChangeTests.tenOClock)
        let item = shownAtTen(harness)
        try harness.restart(configuration: withReminderTime(11, 0))
        harness.advance(to: EngineSettingsChangeTests.fireAt + 2 * 3600)
        #expect(harness.notifier.requests.isEmpty)
        #expect(harness.history(item).filter { $0 == "fired" }.count == 1)
    }

    /// A zone one minute west of UTC: the same wall times, one minute later.
    static let minuteWest = TimeZoneRules.fixed(identifier: "Test/MinuteWest", offset: -60)

    @Test func aNewZoneByReloadShowsNothingAgainAndKeepsADone() throws {
        let harness = try EngineHarness(configuration: EngineSettingsChangeTests.tenOClock)
        let used = harness.addCoupon(expiresIn: 2 * 86_400, leads: ["1d"], title: "Used")
        guard case .success = harness.perform("Done", ["id": .string(used)]) else {
            Issue.record("Done refused")
            return
        }
        let item = shownAtTen(harness)
        harness.reload(EngineSettingsChangeTests.tenOClock, zone: EngineSettingsChangeTests.minuteWest)
        harness.advance(to: EngineSettingsChangeTests.fireAt + 3600)
        #expect(harness.notifier.requests.count == 1)
        #expect(harness.history(item).filter { $0 == "fired" }.count == 1)
        // Its reminder at 10:00 on the 19th would have fired by now: Done followed the move.
        #expect(harness.history(used).filter { $0 == "fired" }.isEmpty)
        #expect(status(of: used, harness) == "used")
    }

    @Test func aNewZoneAtARestartShowsNothingAgain() throws {
        let harness = try EngineHarness(configuration: EngineSettingsChangeTests.tenOClock)
        let item = shownAtTen(harness)
        try harness.restart(zone: EngineSettingsChangeTests.minuteWest)
        harness.advance(to: EngineSettingsChangeTests.fireAt + 3600)
        #expect(harness.notifier.requests.isEmpty)
        #expect(harness.history(item).filter { $0 == "fired" }.count == 1)
    }

    /// A pop-up on screen when the zone changes, shown again on a new server: "reshown", not a
    /// second "fired" (found by EngineModelTests: the outbox kept the old due instant).
    @Test func aPopUpOpenAcrossAZoneChangeIsReshownOnANewServerNotFiredAgain() throws {
        let harness = try EngineHarness(configuration: EngineSettingsChangeTests.tenOClock)
        let item = shownAtTen(harness)
        harness.reload(EngineSettingsChangeTests.tenOClock, zone: EngineSettingsChangeTests.minuteWest)
        harness.notifier.vanish()
        harness.settle()
        harness.notifier.appear()
        harness.settle()
        #expect(harness.notifier.requests.count == 2)
        #expect(harness.history(item).filter { $0 == "fired" || $0 == "reshown" } == ["fired", "reshown"])
    }

    /// Friday 2026-11-20 10:00 UTC, and a coupon due Sunday 12:00 with the leads `1d` (Saturday)
    /// and `0d` (Sunday): with Monday-to-Friday working days both come on Friday, as one.
    static let friday: Int64 = 168_800
    static let weekdaysOnly = Workdays(weekdays: 0b0111110, holidays: nil)

    @Test func workdaysOnByReloadShowOnFridayOnceAndOffAgainLoseNothing() throws {
        let harness = try EngineHarness(configuration: EngineSettingsChangeTests.tenOClock)
        let item = harness.addCoupon(expiresIn: 348_800, leads: ["1d", "0d"])
        var workdays = EngineSettingsChangeTests.tenOClock
        workdays.workdays = EngineSettingsChangeTests.weekdaysOnly
        harness.reload(workdays)
        harness.reload(workdays)  // the same settings again re-plan nothing
        harness.advance(to: EngineSettingsChangeTests.friday + 30)
        #expect(harness.notifier.requests.count == 1)
        harness.reload(workdays)
        harness.advance(to: EngineSettingsChangeTests.friday + 86_400 + 3600)
        #expect(harness.notifier.requests.count == 1)
        // Off again on Saturday: `1d` was shown (on Friday), so not again; the merged `0d` comes on Sunday.
        harness.reload(EngineSettingsChangeTests.tenOClock)
        harness.advance(to: EngineSettingsChangeTests.friday + 2 * 86_400 + 30)
        #expect(harness.notifier.requests.count == 2)
        harness.advance(to: EngineSettingsChangeTests.friday + 2 * 86_400 + 3600)
        #expect(harness.history(item).filter { $0 == "fired" }.count == 2)
    }

    func status(of id: String, _ harness: EngineHarness) -> String? {
        guard case .success(let parameters) = harness.perform("Get", ["id": .string(id)]),
            case .object(let item)? = parameters["item"], case .string(let status)? = item["status"]
        else { return nil }
        return status
    }
}
