import Logging
import ReminderCore
import Synchronization
import Testing

@testable import ReminderDaemon

/// reminderd's log lines quote titles and CalDAV servers' answers; on stderr (a terminal, or a
/// file someone will `cat`) their controls are shown visibly, not acted on.
@Suite struct VisibleTextLogHandlerTests {
    /// Keeps what it is given.
    final class Captured: Sendable {
        let lines = Mutex<[String]>([])
    }

    struct Capturing: LogHandler {
        let captured: Captured
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let fields = (event.metadata ?? [:]).map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
            captured.lines.withLock { $0.append("\(event.message) \(fields)") }
        }
    }

    @Test func aServersControlsAreShownNotSent() {
        let captured = Captured()
        let logger = Logger(label: "reminderd") { _ in VisibleTextLogHandler(Capturing(captured: captured)) }
        logger.warning(
            "sync: skipped /t/1.ics: X-REMINDERD-AMOUNT \"\u{1B}]52;c;ZXZpbA==\u{07}\u{202E}\"",
            metadata: ["title": "a\u{9B}2Jb\nc"])
        let line = captured.lines.withLock { $0.first } ?? ""
        #expect(!line.unicodeScalars.contains(where: ForeignText.isControl), "\(line.debugDescription)")
        #expect(line.contains("\\u{1B}]52;c;ZXZpbA==\\u{07}\u{202E}\"\u{202C}"))
        #expect(line.contains("title=a\\u{9B}2Jb\\u{0A}c"))
    }
}
