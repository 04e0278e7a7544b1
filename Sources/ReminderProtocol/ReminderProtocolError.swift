/// What the varlink layer refuses or fails at, with enough context to say so in one line.
public enum ReminderProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A message grew past its framing's limit without its NUL terminator.
    case messageTooLarge(limit: Int)
    /// A request to send is larger than the daemon accepts (`VarlinkFraming.maximumMessageSize`).
    case requestTooLarge(size: Int, limit: Int)
    /// A message that is not a varlink call or reply.
    case malformedMessage(reason: String)
    /// The daemon's socket could not be reached.
    case unreachable(path: String, reason: String)
    /// The connection failed or closed mid-call.
    case connectionLost(reason: String)

    public var description: String {
        switch self {
        case .messageTooLarge(let limit): return "message larger than the limit of \(limit) bytes"
        case .requestTooLarge(let size, let limit):
            return "request of \(size) bytes is larger than the daemon's limit of \(limit) bytes (1 MiB)"
        case .malformedMessage(let reason): return "malformed message: \(reason)"
        case .unreachable(let path, let reason): return "cannot reach reminderd at \(path): \(reason)"
        case .connectionLost(let reason): return "connection to reminderd lost: \(reason)"
        }
    }
}
