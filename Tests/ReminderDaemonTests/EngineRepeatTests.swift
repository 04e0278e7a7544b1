import CivilTime
import Foundation
import ReminderCore
import ReminderJSON
import Testing

@testable import ReminderDaemon

/// Repeat until acknowledged (issue #30): a reminder left alone is shown again every interval, at
/// most so many times, replacing its pop-up, never at or after the due time nor in quiet hours;
/// Done, a snooze or a dismiss stops it, and a restart neither loses nor multiplies the repeats.
@Suite struct EngineRepeatTests {
    let minute: Int64 = 60

    /// A coupon expiring `expiresIn` seconds after the start, reminded `lead` before it, that
    /// repeats every 15 minutes at most `times` times.
    func addRepeating(_ harness: EngineHarness, expiresIn: Int64 = 4 * 3600, lead: String = "2h", times: Int = 3)
        -> String
    {
        let expires = LocalDateTime(localSeconds: EngineHarness.start + expiresIn)
        let reply = harness.perform(
            "Add",
            [
                "item": .object([
                    "kind": .string("coupon"), "title": .string("Coupon"), "expires": .string(expires.description),
                    "lead": .array([.string(lead)]), "repeatEvery": .string("15m"),
                    "repeatTimes": .integer(Int64(times)),
                ])
            ])
        guard case .success(let parameters) = reply, case .string(let id)? = parameters["id"] else {
            Issue.record("add failed: \(reply)")
            return ""
        }
        return id
    }

    /// Advances minute by minute from `from` through `through` (minutes after the start), as the
    /// timer would wake at each deadline: the minutes in which pop-ups were shown.
    func shownMinutes(_ harness: EngineHarness, from: Int64 = 1, through: Int64 = 240) -> [Int64] {
        var shown: [Int64] = []
        for step in from...through {
            let before = harness.notifier.requests.count
            harness.advance(to: step * minute)
            if harness.notifier.requests.count > before { shown.append(step) }
        }
        return shown
    }

    @Test func aReminderLeftAloneIsShownFourTimesFifteenMinutesApartReplacingItsPopUp() throws {
        let harness = try EngineHarness()
        let id = addRepeating(harness)
        #expect(shownMinutes(harness) == [120, 135, 150, 165])
        let requests = harness.notifier.requests
        let ids = harness.notifier.acceptedIds
        #expect(requests.map(\.replacesId) == [0, ids[0], ids[1], ids[2]])
        #expect(harness.history(id).filter { $0 == "fired" }.count == 4)
    }

    @Test func doneStopsTheRepeatsThroughARestart() throws {
        let harness = try EngineHarness()
        let id = addRepeating(harness)
        #expect(shownMinutes(harness, through: 135) == [120, 135])
        _ = harness.perform("Done", ["id": .string(id)])
        #expect(shownMinutes(harness, from: 136, through: 150) == [])
        try harness.restart()
        #expect(shownMinutes(harness, from: 151, through: 240) == [])
    }

    @Test func anUndoneDoneDoesNotBringTheRepeatsBackBeforeOrAfterARestart() throws {
        let harness = try EngineHarness()
        let id = addRepeating(harness)
        #expect(shownMinutes(harness, through: 120) == [120])
        _ = harness.perform("Done", ["id": .string(id)])
        _ = harness.perform("Undo", ["id": .string(id)])
        #expect(shownMinutes(harness, from: 121, through: 150) == [])
        try harness.restart()
        #expect(shownMinutes(harness, from: 151, through: 239) == [])
    }

    /// Found by EngineModelTests (a fresh seed, 150 steps): a pop-up shown again on a new server
    /// (`reshown`) started its series again, so every server restart gave more repeats.
    @Test func aServerRestartNeitherLosesNorMultipliesTheRepeats() throws {
        let harness = try EngineHarness()
        _ = addRepeating(harness)
        #expect(shownMinutes(harness, through: 125) == [120])
        harness.notifier.vanish()
        harness.settle()
        harness.notifier.appear()
        harness.settle()
        #expect(shownMinutes(harness, from: 126, through: 240) == [135, 150, 165])
    }

    /// Found by EngineModelTests (seed 11, 150 steps): a repeat that came due while no server was
    /// there, then a snooze, and the repeat was shown when a server appeared.
    @Test func aRepeatWaitingForAServerIsNotShownAfterASnooze() throws {
        let harness = try EngineHarness()
        let id = addRepeating(harness)
        #expect(shownMinutes(harness, through: 120) == [120])
        harness.notifier.vanish()
        harness.settle()
        _ = shownMinutes(harness, from: 121, through: 136)  // repeat 1 waits for a server
        _ = harness.perform("Snooze", ["id": .string(id), "duration": .string("1h")])
        harness.notifier.appear()
        harness.settle()
        // The first pop-up, on screen when the server went, is shown again ("reshown"); no repeat.
        #expect(harness.history(id).filter { $0 == "fired" }.count == 1)
        _ = shownMinutes(harness, from: 137, through: 196)
        #expect(harness.history(id).filter { $0 == "fired" }.count == 2)  // the snooze's end
    }

    @Test func closingThePopUpStopsTheRepeatsButTheServersExpiryDoesNot() throws {
        let harness = try EngineHarness()
        let id = addRepeating(harness)
        #expect(shownMinutes(harness, through: 120) == [120])
        harness.emit(.closed(id: try #require(harness.notifier.acceptedIds.last), reason: 1))
        #expect(shownMinutes(harness, from: 121, through: 135) == [135])
        harness.emit(.closed(id: try #require(harness.notifier.acceptedIds.last), reason: 2))
        #expect(shownMinutes(harness, from: 136, through: 200) == [])
        try harness.restart()
        #expect(shownMinutes(harness, from: 201, through: 240) == [])
        #expect(harness.history(id).filter { $0 == "fired" || $0 == "dismissed" } == ["fired", "fired", "dismissed"])
    }

    @Test func aSnoozeStopsTheSeriesAndItsEndStartsANewOne() throws {
        let harness = try EngineHarness()
        let id = addRepeating(harness, times: 1)
        #expect(shownMinutes(harness, through: 125) == [120])
        _ = harness.perform("Snooze", ["id": .string(id), "duration": .string("1h")])
        #expect(shownMinutes(harness, from: 126, through: 240) == [185, 200])
    }

    @Test func repeatsStopBeforeTheDueTime() throws {
        let harness = try EngineHarness()
        _ = addRepeating(harness, expiresIn: 150 * minute, lead: "30m", times: 10)
        #expect(shownMinutes(harness, through: 160) == [120, 135])
    }

    @Test func aRestartShowsTheRepeatsMissedMeanwhileOnceAndGoesOnFromThere() throws {
        let harness = try EngineHarness()
        _ = addRepeating(harness)
        #expect(shownMinutes(harness, through: 120) == [120])
        harness.clock.set(EngineHarness.start + 152 * minute)
        try harness.restart()
        // The two repeats due meanwhile are one late pop-up, the first repeat; two more follow.
        #expect(shownMinutes(harness, from: 152, through: 240) == [152, 167, 182])
    }

    @Test func aRepeatInQuietHoursWaitsForTheirEnd() throws {
        // Quiet from 13:15 to 13:40 UTC; the start is 11:06:40, so the lead fires at 13:06:40.
        let quiet = QuietHours(start: LocalTime(hour: 13, minute: 15), end: LocalTime(hour: 13, minute: 40))
        let harness = try EngineHarness(configuration: Configuration(timeZone: "UTC", quietHours: quiet))
        _ = addRepeating(harness, times: 2)
        let shown = shownMinutes(harness)
        #expect(shown.first == 120)
        // 13:21:40 falls in quiet hours: held to 13:40, a partial minute after minute 153.
        #expect(shown.dropFirst().first == 154)
        #expect(shown.count == 3)
    }

    /// `explain`'s last step: the repeat planned, then why none comes.
    func repeatStep(_ harness: EngineHarness, _ id: String) -> (lead: String, fireAt: String?, result: String)? {
        guard case .success(let reply) = harness.perform("Explain", ["id": .string(id)]),
            case .array(let steps)? = reply["steps"], case .object(let last)? = steps.last,
            case .string(let lead)? = last["lead"], case .string(let result)? = last["result"]
        else { return nil }
        if case .string(let fireAt)? = last["fireAt"] { return (lead, fireAt, result) }
        return (lead, nil, result)
    }

    @Test func explainSaysTheNextRepeatAndWhyNoneComes() throws {
        let harness = try EngineHarness()
        let id = addRepeating(harness, times: 1)
        #expect(repeatStep(harness, id)?.lead == "2h")  // nothing shown yet: the leads only
        _ = shownMinutes(harness, through: 120)
        let planned = try #require(repeatStep(harness, id))
        #expect(planned.lead == "repeat 1" && planned.result == "kept")
        #expect(planned.fireAt == Timestamp.format(EngineHarness.start + 135 * minute, in: .utc))
        _ = shownMinutes(harness, from: 121, through: 140)
        #expect(repeatStep(harness, id)?.result == "stopped: 1 repeat shown")
    }

    @Test func anEditChangesOrClearsAnItemsRepeat() throws {
        let harness = try EngineHarness()
        let id = addRepeating(harness, times: 1)
        _ = harness.perform("Edit", ["id": .string(id), "changes": .object(["repeatTimes": .integer(2)])])
        #expect(shownMinutes(harness, through: 135) == [120, 135])
        _ = harness.perform("Edit", ["id": .string(id), "changes": .object(["repeatEvery": .null])])
        #expect(shownMinutes(harness, from: 136, through: 239) == [])
        let refused = harness.perform("Edit", ["id": .string(id), "changes": .object(["repeatTimes": .integer(101)])])
        #expect("\(refused)".contains("repeatTimes: 101 is not between 1 and 100"), "\(refused)")
    }

    @Test func aRepeatOfAReminderShownInAGroupLeavesTheGroup() throws {
        let harness = try EngineHarness()
        let id = addRepeating(harness, times: 1)
        _ = harness.addCoupon(expiresIn: 4 * 3600, leads: ["2h"], title: "Bagels")
        _ = harness.addCoupon(expiresIn: 4 * 3600, leads: ["2h"], title: "Tacos")
        #expect(shownMinutes(harness, through: 120) == [120])
        let group = try #require(harness.notifier.acceptedIds.first)
        #expect(shownMinutes(harness, from: 121, through: 140) == [135])
        let requests = harness.notifier.requests.dropFirst()
        // The group again in place without the coupon, then the coupon's repeat on its own.
        #expect(requests.map(\.replacesId) == [group, 0])
        #expect(requests.first?.summary.hasPrefix("2 reminders:") == true)
        #expect(requests.first.map { $0.summary.contains("Bagels") && !$0.summary.contains("Coupon") } == true)
        #expect(requests.last?.summary.contains("Coupon") == true)
        #expect(harness.history(id).filter { $0 == "fired" }.count == 2)
    }

    @Test func theConfigsRepeatIsOffByDefaultAndAnItemCanTurnItsOwnOff() throws {
        #expect(Configuration.defaults.repeatEvery == nil)
        var configuration = Configuration(timeZone: "UTC", quietHours: nil)
        configuration.repeatEvery = CalendarDuration(15, .minutes)
        configuration.repeatTimes = 1
        let harness = try EngineHarness(configuration: configuration)
        _ = harness.addCoupon(expiresIn: 4 * 3600, leads: ["2h"])
        #expect(shownMinutes(harness, through: 150) == [120, 135])
        let item = Item(
            title: "Off", schedule: .coupon(Coupon(expires: .date(LocalDate(uncheckedYear: 2026, month: 12, day: 1)))),
            repeatEvery: CalendarDuration(0, .minutes))
        #expect(RepeatRule.of(item, configuration) == nil)
    }
}
