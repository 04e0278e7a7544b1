/// What the OS-facing helpers refuse, naming the file or zone and the reason.
public enum ReminderPlatformError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadableFile(path: String, reason: String)
    case unknownZone(name: String, reason: String)
    /// `REMINDERD_TEST_CLOCK_SHIFT` (a test-only setting) has a value that is not a shift.
    case invalidTestClockShift(value: String, reason: String)

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason): return "\(path): \(reason)"
        case .unknownZone(let name, let reason): return "time zone \"\(name)\": \(reason)"
        case .invalidTestClockShift(let value, let reason):
            return "\(TestClock.variable)=\"\(value)\" (a test-only setting): \(reason)"
        }
    }
}
