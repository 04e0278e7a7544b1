import ReminderPlatform
import ReminderStore

/// Why the daemon could not start: which part failed, and the error that says where (`reminderd`
/// prints the description and exits 1).
public enum DaemonError: Error, CustomStringConvertible {
    /// The config file could not be read or is invalid.
    case config(ConfigFileError)
    /// The time zone is unknown: the config's `timeZone`, or with none there the environment's
    /// `TZ` (nil when that is unset too).
    case timeZone(environmentTZ: String?, ReminderPlatformError)
    /// Another daemon holds the store's lock, or the lock file cannot be made.
    case storeLock(any Error)
    /// The store cannot be opened.
    case store(ReminderStoreError)
    /// The engine could not read or set up the store; `diskFull` says so when the disk is.
    case engineStart(diskFull: String?, ReminderStoreError)
    /// The socket at `path` cannot be listened on.
    case socket(path: String, any Error)
    /// `REMINDERD_TEST_CLOCK_SHIFT` (test-only) is set to something that is not a shift.
    case testClock(ReminderPlatformError)

    public var description: String {
        switch self {
        case .config(let error):
            return "config: \(error)"
        case .timeZone(let tz?, let error):
            return "TZ=\"\(tz)\" (the environment's time zone; the config names none): \(error)"
        case .timeZone(nil, let error):
            return "config: timeZone: \(error)"
        case .storeLock(let error):
            return "\(error)"
        case .store(let error):
            return "\(error)"
        case .engineStart(let diskFull, let error):
            return diskFull.map { "\($0): \(error)" } ?? "\(error)"
        case .socket(_, let error):
            return "\(error)"
        case .testClock(let error):
            return "\(error)"
        }
    }
}
