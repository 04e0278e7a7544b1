#if canImport(Glibc)
    import Glibc
#endif

/// The wall clock as reminderd and reminderctl read it, shifted for tests only.
///
/// `REMINDERD_TEST_CLOCK_SHIFT=SECONDS` (test-only; unset or empty in real use) makes both act as
/// if the wall clock were SECONDS ahead (behind when negative): the end-to-end tests run the
/// suite "on a month's last day at 23:30" without setting the machine's clock. It is not
/// libfaketime: that shifts what a process reads, but not the kernel timers Dispatch arms at
/// wall-clock deadlines, so the daemon's reminders would fire at the real instants. Here the
/// engine reads `now()` and its timer is armed at `realInstant(ofShifted:)`.
public struct TestClock: Sendable, Equatable {
    /// The environment variable's name.
    public static let variable = "REMINDERD_TEST_CLOCK_SHIFT"
    /// The largest shift either way, a hundred years: enough for any test, and far from overflow.
    public static let limit: Int64 = 100 * 366 * 86_400

    /// Seconds added to the real wall clock.
    public let shift: Int64

    public init(shift: Int64) { self.shift = shift }

    /// Reads the variable's value: nil or empty is no shift; otherwise a whole number of seconds,
    /// optionally signed, within `limit`. Anything else is refused, naming the variable and value.
    public static func parse(_ text: String?) -> Result<TestClock, ReminderPlatformError> {
        guard let text, !text.isEmpty else { return .success(TestClock(shift: 0)) }
        guard let seconds = Int64(text) else {
            return .failure(
                .invalidTestClockShift(value: text, reason: "not a whole number of seconds (e.g. 3600 or -86400)"))
        }
        guard abs(seconds) <= limit else {
            return .failure(.invalidTestClockShift(value: text, reason: "more than 100 years either way"))
        }
        return .success(TestClock(shift: seconds))
    }

    /// This process's shift, read once from the environment. The programs check it at start and
    /// refuse to run with an invalid value, so `process` can be used anywhere after that.
    public static let environment: Result<TestClock, ReminderPlatformError> = parse(environmentVariable(variable))

    /// The process's clock: the environment's shift, or none when the value was refused (which
    /// the program did at start).
    public static var process: TestClock { (try? environment.get()) ?? TestClock(shift: 0) }

    /// Now on the shifted wall clock, in Unix seconds.
    public func now() -> Int64 { Int64(time(nil)) + shift }

    /// The real wall-clock instant at which the shifted clock reads `shifted`: where a kernel
    /// timer must be armed for a deadline computed on the shifted clock.
    public func realInstant(ofShifted shifted: Int64) -> Int64 {
        let (real, overflow) = shifted.subtractingReportingOverflow(shift)
        return overflow ? (shift > 0 ? .min : .max) : real
    }
}
