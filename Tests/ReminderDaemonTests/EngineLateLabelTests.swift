import CivilTime
import ReminderCore
import Testing

@testable import ReminderDaemon

/// A pop-up shown after its time says truly why, from what happened where the delay was decided:
/// reminderd was not running, the computer slept (or its clock jumped), no notification server
/// or one that refused, the desktop's do-not-disturb, `reminderctl pause`, quiet hours. The
/// harness starts on Wed 2026-11-18 11:06:40 UTC; `dueInTwoHours`'s reminder is at 12:06:40.
@Suite struct EngineLateLabelTests {
    /// A coupon due at +2 h (13:06) with one reminder at +1 h (12:06).
    func dueInTwoHours(_ harness: EngineHarness) -> String {
        harness.addCoupon(expiresIn: 2 * 3600, leads: ["1h"])
    }

    /// The last pop-up's body.
    func lastBody(_ harness: EngineHarness) -> String { harness.notifier.requests.last?.body ?? "(no pop-up)" }

    @Test func aReminderDueWhileReminderdWasStoppedSaysItWasNotRunning() throws {
        let harness = try EngineHarness()
        _ = dueInTwoHours(harness)
        harness.clock.set(EngineHarness.start + 3700)
        try harness.restart()
        harness.advance(to: 3700)
        #expect(lastBody(harness).hasSuffix("\nLate: reminderd was not running at 12:06"), "\(lastBody(harness))")
    }

    @Test func aReminderTheTimerRanLateSaysTheComputerSleptOrItsClockJumped() throws {
        let harness = try EngineHarness()
        _ = dueInTwoHours(harness)
        harness.advance(to: 3600 + 1800)  // the timer's first run since 11:06, at 12:36
        #expect(
            lastBody(harness).hasSuffix("\nLate: the computer was asleep or its clock jumped at 12:06"),
            "\(lastBody(harness))")
    }

    @Test func aReminderThatWaitedForANotificationServerSaysUntilWhen() throws {
        let harness = try EngineHarness(notifier: RecordingNotifier(capabilities: nil))
        _ = dueInTwoHours(harness)
        harness.advance(to: 3600)
        #expect(harness.notifier.requests.isEmpty)
        harness.clock.set(EngineHarness.start + 3600 + 42 * 60)  // 12:48:40
        harness.notifier.appear()
        harness.settle()
        #expect(
            lastBody(harness).hasSuffix("\nLate: no notification server from 12:06 until 12:48"),
            "\(lastBody(harness))")
    }

    @Test func aReminderTheServerRefusedSaysSoOnceItIsAMinuteLate() throws {
        let harness = try EngineHarness()
        _ = dueInTwoHours(harness)
        harness.notifier.answer = .fail(.refused(reason: "too many pop-ups"))
        for second in [3600, 3610, 3630, 3670] as [Int64] { harness.advance(to: second) }  // retries back off
        harness.notifier.answer = .accept
        harness.advance(to: 3750)  // 12:09:10
        #expect(
            lastBody(harness).hasSuffix("\nLate: the notification server refused it from 12:06 until 12:09"),
            "\(lastBody(harness))")
    }

    @Test func aReminderRetriedWithinAMinuteIsNotCalledLate() throws {
        let harness = try EngineHarness()
        _ = dueInTwoHours(harness)
        harness.notifier.answer = .fail(.refused(reason: "busy"))
        harness.advance(to: 3600)
        harness.notifier.answer = .accept
        harness.advance(to: 3610)
        #expect(harness.notifier.requests.count == 2)
        #expect(!lastBody(harness).contains("Late"), "\(lastBody(harness))")
    }

    @Test func aReminderHeldByTheDesktopsDoNotDisturbSaysSince() throws {
        let harness = try EngineHarness()
        _ = dueInTwoHours(harness)
        harness.notifier.answer = .fail(.inhibited(reason: "dunst is paused"))
        harness.advance(to: 3600)
        harness.notifier.answer = .accept
        harness.clock.set(EngineHarness.start + 3600 + 1800)
        harness.emit(.doNotDisturbChanged)
        harness.settle()
        #expect(harness.notifier.requests.count == 2)
        #expect(lastBody(harness).hasSuffix("\nHeld by Do Not Disturb since 12:06"), "\(lastBody(harness))")
    }

    @Test func aReminderHeldByReminderdsPauseSaysSince() throws {
        let harness = try EngineHarness()
        // Due in three days, reminded Thu 11:06: not urgent, so the pause holds it.
        _ = harness.addCoupon(expiresIn: 3 * 86_400, leads: ["48h"])
        _ = harness.perform("Pause")
        harness.advance(to: 86_400)
        #expect(harness.notifier.requests.isEmpty)
        harness.clock.set(EngineHarness.start + 86_400 + 1800)
        _ = harness.perform("Resume")
        harness.settle()
        #expect(lastBody(harness).hasSuffix("\nHeld by your pause since 11:06"), "\(lastBody(harness))")
    }

    @Test func theDigestOfRemindersHeldByThePauseSaysSo() throws {
        let harness = try EngineHarness()
        _ = harness.perform("Pause")
        for title in ["One", "Two"] { _ = harness.addCoupon(expiresIn: 3 * 86_400, leads: ["48h"], title: title) }
        harness.advance(to: 86_400)
        harness.clock.set(EngineHarness.start + 86_400 + 1800)
        _ = harness.perform("Resume")
        harness.settle()
        #expect(harness.notifier.requests.map(\.body) == ["2 reminders held by your pause since 11:06: One, Two"])
    }

    @Test func theDigestOfRemindersHeldByDoNotDisturbSaysSo() throws {
        let harness = try EngineHarness()
        harness.notifier.answer = .fail(.inhibited(reason: "dunst is paused"))
        for title in ["One", "Two"] { _ = harness.addCoupon(expiresIn: 3 * 86_400, leads: ["48h"], title: title) }
        harness.advance(to: 86_400)
        harness.notifier.answer = .accept
        harness.clock.set(EngineHarness.start + 86_400 + 1800)
        harness.emit(.doNotDisturbChanged)
        harness.settle()
        #expect(
            harness.notifier.requests.last?.body == "2 reminders held by Do Not Disturb since 11:06: One, Two",
            "\(lastBody(harness))")
    }

    @Test func aReminderMovedOutOfQuietHoursSaysSo() throws {
        let quiet = QuietHours(start: LocalTime(hour: 22, minute: 0), end: LocalTime(hour: 8, minute: 0))
        let harness = try EngineHarness(configuration: Configuration(timeZone: "UTC", quietHours: quiet))
        // Due Thu 08:30: its 2 h reminder, 06:30, is quiet and moves to 08:00.
        let due = LocalDateTime(date: LocalDate(uncheckedYear: 2026, month: 11, day: 19), time: LocalTime(hour: 8, minute: 30))
        let secondsToDue = ZonedDue.seconds(from: EngineHarness.start, to: due)
        _ = harness.addCoupon(expiresIn: secondsToDue, leads: ["2h"])
        harness.advance(to: secondsToDue - 1801)
        #expect(harness.notifier.requests.isEmpty)
        harness.advance(to: secondsToDue - 1800)
        #expect(lastBody(harness).hasSuffix("\nMoved out of quiet hours (22:00–08:00)"), "\(lastBody(harness))")
    }

    @Test func aReminderTheServerDidNotAnswerSaysSoNotThatTheComputerSlept() throws {
        let harness = try EngineHarness()
        _ = dueInTwoHours(harness)
        harness.notifier.answer = .stall
        harness.advance(to: 3600)
        harness.notifier.answer = .accept
        harness.notifier.completeStalled(.fail(.timedOut(reason: "Timeout was reached")))  // at 12:06
        harness.settle()
        harness.clock.set(EngineHarness.start + 3600 + 24 * 60)  // 12:30:40: a new server
        harness.notifier.vanish()
        harness.settle()
        harness.notifier.appear()
        harness.settle()
        #expect(harness.notifier.requests.count == 2)
        #expect(
            lastBody(harness).hasSuffix("\nLate: the notification server did not answer from 12:06 until 12:30"),
            "\(lastBody(harness))")
    }

    /// Dated from when the reminder was sent, not from when the silence ended: a server that
    /// never answered and went away 75 s later was silent from 12:06, not "from 12:07 until 12:07".
    @Test func aServerThatNeverAnsweredIsDatedFromWhenTheReminderWasSent() throws {
        let harness = try EngineHarness()
        _ = dueInTwoHours(harness)
        harness.notifier.answer = .stall
        harness.advance(to: 3600)  // sent at 12:06:40
        harness.clock.set(EngineHarness.start + 3600 + 75)  // 12:07:55: the server goes, the call fails
        harness.notifier.answer = .accept
        harness.notifier.completeStalled(.fail(.timedOut(reason: "the name lost its owner")))
        harness.settle()
        harness.clock.set(EngineHarness.start + 3600 + 24 * 60)  // 12:30:40: a working server
        harness.notifier.vanish()
        harness.settle()
        harness.notifier.appear()
        harness.settle()
        #expect(
            lastBody(harness).hasSuffix("\nLate: the notification server did not answer from 12:06 until 12:30"),
            "\(lastBody(harness))")
    }

    @Test func aReminderThatWaitedForAServerThenWasPausedNamesBothNotTheFirstUntilTheEnd() throws {
        let harness = try EngineHarness(notifier: RecordingNotifier(capabilities: nil))
        // Due in three days, reminded Thu 11:06: not urgent, so the pause holds it.
        _ = harness.addCoupon(expiresIn: 3 * 86_400, leads: ["48h"])
        harness.advance(to: 86_400)  // no server: it waits from 11:06
        harness.clock.set(EngineHarness.start + 86_400 + 1800)  // 11:36: paused, then a server comes
        _ = harness.perform("Pause")
        harness.notifier.appear()
        harness.settle()
        #expect(harness.notifier.requests.isEmpty)
        harness.clock.set(EngineHarness.start + 86_400 + 3600)  // 12:06
        _ = harness.perform("Resume")
        harness.settle()
        #expect(
            lastBody(harness).hasSuffix(
                "\nLate: no notification server from 11:06, then held by your pause from 11:36 until 12:06"),
            "\(lastBody(harness))")
    }

    @Test func aReminderMovedOutOfQuietHoursAndShownHoursLaterSaysItIsLateToo() throws {
        let quiet = QuietHours(start: LocalTime(hour: 22, minute: 0), end: LocalTime(hour: 8, minute: 0))
        let harness = try EngineHarness(configuration: Configuration(timeZone: "UTC", quietHours: quiet))
        // Due Thu 12:00: its 5 h reminder, 07:00, is quiet and moves to 08:00.
        let due = LocalDateTime(
            date: LocalDate(uncheckedYear: 2026, month: 11, day: 19), time: LocalTime(hour: 12, minute: 0))
        let secondsToDue = ZonedDue.seconds(from: EngineHarness.start, to: due)
        _ = harness.addCoupon(expiresIn: secondsToDue, leads: ["5h"])
        harness.advance(to: secondsToDue - 4 * 3600 - 1)
        #expect(harness.notifier.requests.isEmpty)
        harness.advance(to: secondsToDue - 3600)  // the timer's first run since, at 11:00: it slept
        #expect(
            lastBody(harness).hasSuffix(
                "\nMoved out of quiet hours (22:00–08:00); late: the computer was asleep or its clock jumped at 08:00"),
            "\(lastBody(harness))")
    }

    @Test func aReminderHandedToTheServerWhenReminderdDiedSaysSoNotThatItWasNotRunning() throws {
        let harness = try EngineHarness()
        _ = dueInTwoHours(harness)
        harness.notifier.answer = .stall
        harness.advance(to: 3600)  // handed over at 12:06, while reminderd ran
        harness.clock.set(EngineHarness.start + 3660)  // killed before the answer; back a minute later
        try harness.restart()
        harness.advance(to: 3660)
        #expect(
            lastBody(harness).hasSuffix(
                "\nLate: reminderd stopped before the notification server confirmed its 12:06 pop-up"),
            "\(lastBody(harness))")
    }
}

/// Seconds from a UTC instant to a UTC wall time.
private enum ZonedDue {
    static func seconds(from start: Int64, to dateTime: LocalDateTime) -> Int64 {
        TimeZoneRules.utc.resolve(dateTime).instant - start
    }
}
