import Glibc
import ReminderPlatform
import Testing

/// `REMINDERD_TEST_CLOCK_SHIFT`'s value: a whole number of seconds either way, or refused with
/// the variable and value named; and the shifted clock's conversion back to real instants.
@Suite struct TestClockTests {
    @Test func unsetOrEmptyIsNoShift() throws {
        #expect(try TestClock.parse(nil).get() == TestClock(shift: 0))
        #expect(try TestClock.parse("").get() == TestClock(shift: 0))
    }

    @Test func wholeSecondsEitherWay() throws {
        #expect(try TestClock.parse("86400").get().shift == 86_400)
        #expect(try TestClock.parse("+3600").get().shift == 3600)
        #expect(try TestClock.parse("-59").get().shift == -59)
        #expect(try TestClock.parse(String(TestClock.limit)).get().shift == TestClock.limit)
    }

    @Test(arguments: ["abc", "1.5", "3600s", " 60", "1e3", "--5", "99999999999999999999"])
    func notANumberOfSecondsIsRefused(_ value: String) {
        let reason = "not a whole number of seconds (e.g. 3600 or -86400)"
        #expect(TestClock.parse(value) == .failure(.invalidTestClockShift(value: value, reason: reason)))
        guard case .failure(let error) = TestClock.parse(value) else { return }
        #expect("\(error)".hasPrefix("REMINDERD_TEST_CLOCK_SHIFT=\"\(value)\" (a test-only setting): "))
    }

    @Test func moreThanACenturyIsRefused() {
        let value = String(TestClock.limit + 1)
        let reason = "more than 100 years either way"
        #expect(TestClock.parse(value) == .failure(.invalidTestClockShift(value: value, reason: reason)))
        #expect(TestClock.parse("-" + value).isFailure)
    }

    @Test func nowIsTheRealClockPlusTheShift() {
        let clock = TestClock(shift: 30 * 86_400)
        let before = Int64(time(nil))
        let now = clock.now()
        let after = Int64(time(nil))
        #expect((before + 30 * 86_400...after + 30 * 86_400).contains(now))
    }

    @Test func aShiftedDeadlineIsReachedThatMuchEarlierInRealTime() {
        // 2026-11-30T23:31:00Z on a clock shifted 4 days 23.5 hours ahead of 2026-11-26T00:00:00Z.
        let shift: Int64 = 4 * 86_400 + 23 * 3600 + 1800
        let clock = TestClock(shift: shift)
        #expect(clock.realInstant(ofShifted: 1_796_081_460) == 1_796_081_460 - shift)
        #expect(TestClock(shift: -3600).realInstant(ofShifted: 1_000) == 4_600)
        #expect(TestClock(shift: 0).realInstant(ofShifted: 1_000) == 1_000)
        // The engine's "never" stays far away instead of wrapping around.
        #expect(TestClock(shift: -10).realInstant(ofShifted: .max) == .max)
        #expect(TestClock(shift: 10).realInstant(ofShifted: .min) == .min)
    }
}

extension Result {
    fileprivate var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
