import ReminderCore
import ReminderPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// Lines on stderr, which systemd puts in the journal. There each line starts with its syslog
/// priority (`<4>`, sd-daemon(3)), so `journalctl -p warning` finds the failures; on a terminal
/// the line starts with the program's name instead.
public struct Journal: Sendable {
    public enum Priority: Int, Sendable {
        case error = 3
        case warning = 4
        case notice = 5
        case info = 6
    }

    let toJournal: Bool

    public init() { toJournal = stderrIsJournal() }

    public func log(_ priority: Priority, _ message: String) {
        // Messages quote the server's answers: a control in one must not act on a terminal nor
        // start a forged journal line.
        let line = (toJournal ? "<\(priority.rawValue)>" : "reminderd-sync: ") + ForeignText.forLog(message) + "\n"
        let bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { raw in
                retryingOnEINTR { write(STDERR_FILENO, raw.baseAddress, raw.count) }
            }
            guard written > 0 else { return }
            offset += written
        }
    }
}
