/// Why an iCalendar text could not be read: the (unfolded) line it starts on, counted from 1 in
/// the text as received, and what is wrong there in words.
public struct ICalendarError: Error, Hashable, Sendable, CustomStringConvertible {
    public let line: Int
    public let reason: String

    public init(line: Int, _ reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { "line \(line): \(reason)" }
}
