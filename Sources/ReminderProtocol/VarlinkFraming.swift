/// Splits a byte stream into varlink messages: JSON documents each ended by a NUL byte.
public struct VarlinkFraming: Sendable {
    /// The largest message accepted (SPEC §6: 1 MiB).
    public static let maximumMessageSize = 1 << 20

    private var buffer: [UInt8] = []
    /// Where the search for the next NUL resumes, so a message arriving in many small reads is
    /// scanned once.
    private var scanned = 0

    public init() {}

    /// Bytes received but not yet part of a whole message.
    public var pendingByteCount: Int { buffer.count }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next whole message without its NUL, or nil when more bytes are needed. Throws once the
    /// unterminated rest exceeds the limit.
    public mutating func nextMessage() throws(ReminderProtocolError) -> [UInt8]? {
        if let end = buffer[scanned...].firstIndex(of: 0) {
            guard end <= VarlinkFraming.maximumMessageSize else {
                throw .messageTooLarge(limit: VarlinkFraming.maximumMessageSize)
            }
            let message = Array(buffer[..<end])
            buffer.removeFirst(end + 1)
            scanned = 0
            return message
        }
        scanned = buffer.count
        guard buffer.count <= VarlinkFraming.maximumMessageSize else {
            throw .messageTooLarge(limit: VarlinkFraming.maximumMessageSize)
        }
        return nil
    }
}
