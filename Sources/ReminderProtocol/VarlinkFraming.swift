/// Splits a byte stream into varlink messages: JSON documents each ended by a NUL byte.
public struct VarlinkFraming: Sendable {
    /// The largest request the daemon accepts (CONTRACT §6: 1 MiB).
    public static let maximumMessageSize = 1 << 20
    /// The largest reply a client accepts: a reply lists every item (100k items with notes run
    /// to tens of MiB), and it comes from the user's own daemon.
    public static let maximumReplySize = 1 << 30

    /// The largest message this framing accepts.
    public let limit: Int
    private var buffer: [UInt8] = []
    /// Where the search for the next NUL resumes, so a message arriving in many small reads is
    /// scanned once.
    private var scanned = 0

    public init(limit: Int = VarlinkFraming.maximumMessageSize) {
        self.limit = limit
    }

    /// Bytes received but not yet part of a whole message.
    public var pendingByteCount: Int { buffer.count }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next whole message without its NUL, or nil when more bytes are needed. Throws once the
    /// unterminated rest exceeds the limit.
    public mutating func nextMessage() throws(ReminderProtocolError) -> [UInt8]? {
        if let end = buffer[scanned...].firstIndex(of: 0) {
            guard end <= limit else { throw .messageTooLarge(limit: limit) }
            let message = Array(buffer[..<end])
            if end + 1 == buffer.count {
                // Emptied: a large buffer goes back to malloc instead of idling with the connection.
                buffer.removeAll(keepingCapacity: buffer.capacity <= 65_536)
            } else {
                buffer.removeFirst(end + 1)
            }
            scanned = 0
            return message
        }
        scanned = buffer.count
        guard buffer.count <= limit else { throw .messageTooLarge(limit: limit) }
        return nil
    }
}
