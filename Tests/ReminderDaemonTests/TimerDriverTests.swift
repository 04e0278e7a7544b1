import Dispatch
import Glibc
import ReminderPlatform
import Testing

@testable import ReminderDaemon

/// The timer driver arms the kernel's wall-clock timer at the real instant the engine's
/// (possibly shifted) clock reaches a deadline: a reminder due at shifted 23:31 fires 60 s after
/// shifted 23:30, not when the real clock reads 23:31.
@Suite(.serialized) struct TimerDriverTests {
    /// Arms `driver` for `deadline` and returns the seconds (monotonic) until it fired, or nil
    /// when it did not within `wait` seconds.
    func secondsUntilFired(shift: Int64, deadlineFromNow seconds: Int64, wait: Double) -> Double? {
        let queue = DispatchQueue(label: "test.timer-driver")
        let fired = DispatchSemaphore(value: 0)
        let clock = TestClock(shift: shift)
        let driver = TimerDriver(queue: queue, clock: clock) { fired.signal() }
        let start = DispatchTime.now()
        queue.sync { driver.arm(clock.now() + seconds) }
        defer { queue.sync { driver.arm(nil) } }
        guard fired.wait(timeout: .now() + wait) == .success else { return nil }
        return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    @Test func aDeadlineOnAClockAheadFiresWhenThatClockReachesIt() throws {
        // Armed at the real instant, this would wait an hour.
        let elapsed = try #require(secondsUntilFired(shift: 3600, deadlineFromNow: 2, wait: 4))
        #expect(elapsed >= 0.9)
    }

    @Test func aDeadlineOnAClockBehindDoesNotFireEarly() throws {
        // Armed at the real instant, this would be an hour past and fire at once.
        let elapsed = try #require(secondsUntilFired(shift: -3600, deadlineFromNow: 2, wait: 4))
        #expect(elapsed >= 0.9)
    }

    @Test func noShiftIsTheRealClock() throws {
        let elapsed = try #require(secondsUntilFired(shift: 0, deadlineFromNow: 1, wait: 3))
        #expect(elapsed <= 2.5)
    }
}
