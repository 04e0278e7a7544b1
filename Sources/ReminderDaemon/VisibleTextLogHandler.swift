import Logging
import ReminderCore

/// A log handler (reminderd's stderr one, when stderr is a terminal or a file rather than the
/// journal) whose messages and metadata have their controls shown visibly: the daemon's log
/// lines quote titles and CalDAV servers' answers, and an ESC or BEL in one must not act on the
/// terminal that shows the log.
public struct VisibleTextLogHandler: LogHandler {
    var wrapped: any LogHandler

    public init(_ wrapped: any LogHandler) { self.wrapped = wrapped }

    public var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    public var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = Logger.Message(stringLiteral: ForeignText.forLog(event.message.description))
        event.metadata = event.metadata?.mapValues { .string(ForeignText.forLog($0.description)) }
        wrapped.log(event: event)
    }
}
