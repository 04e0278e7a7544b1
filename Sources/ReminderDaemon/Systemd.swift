internal import CSystemd
import Glibc
import Logging
import ReminderCore
import ReminderPlatform

/// The service manager's side of things: readiness and status (`sd_notify`), sockets passed by
/// socket activation (`sd_listen_fds`), the watchdog interval, and whether stderr is the journal.
public enum Systemd {
    public enum Failure: Error, CustomStringConvertible {
        case notify(state: String, errno: Int32)
        public var description: String {
            switch self {
            case .notify(let state, let code): return "sd_notify(\(state)) failed: \(errnoDescription(code))"
            }
        }
    }

    /// Sends `state` (`READY=1`, `STATUS=…`) when `NOTIFY_SOCKET` is set; does nothing otherwise.
    public static func notify(_ state: String) throws {
        let result = sd_notify(0, state)
        if result < 0 { throw Failure.notify(state: state, errno: -result) }
    }

    /// File descriptors passed by socket activation (from 3 on), closed-on-exec.
    public static func listenFileDescriptors() -> [Int32] {
        let count = sd_listen_fds(1)
        guard count > 0 else { return [] }
        return (0..<count).map { SD_LISTEN_FDS_START + $0 }
    }

    /// The watchdog interval in microseconds when `WatchdogSec=` is set for this process.
    public static func watchdogMicroseconds() -> UInt64? {
        var usec: UInt64 = 0
        return sd_watchdog_enabled(0, &usec) > 0 && usec > 0 ? usec : nil
    }

    /// True when stderr is connected to the journal (`JOURNAL_STREAM` names it).
    public static var stderrIsJournal: Bool { ReminderPlatform.stderrIsJournal() }

    /// Writes one structured entry to the journal: `FIELD=value` strings.
    static func journal(_ fields: [String]) {
        // C copies of the fields, so the iovecs point at memory that outlives the call.
        let copies = fields.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let vectors = copies.map { iovec(iov_base: UnsafeMutableRawPointer($0), iov_len: $0.map { strlen($0) } ?? 0) }
        _ = sd_journal_sendv(vectors, Int32(vectors.count))
    }
}

/// swift-log to the journal, with metadata as structured fields (`ITEM_ID=`, `OCCURRENCE=`).
/// Messages quote titles and servers' answers: their controls are shown visibly (ForeignText).
public struct JournalLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String

    public init(label: String) { self.label = label }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let priority: Int
        switch event.level {
        case .trace, .debug: priority = 7
        case .info: priority = 6
        case .notice: priority = 5
        case .warning: priority = 4
        case .error: priority = 3
        case .critical: priority = 2
        }
        var fields = [
            "MESSAGE=\(ForeignText.forLog(event.message.description))", "PRIORITY=\(priority)",
            "SYSLOG_IDENTIFIER=reminderd",
            "CODE_FILE=\(event.file)", "CODE_LINE=\(event.line)", "CODE_FUNC=\(event.function)",
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            let name = key.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }
            fields.append("\(String(name))=\(ForeignText.forLog(value.description))")
        }
        Systemd.journal(fields)
    }
}
