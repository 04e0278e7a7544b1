import ReminderCore
import ReminderJSON
import ReminderPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking varlink client over a Unix stream socket: one call at a time, as `reminderctl`
/// needs. Requests are held to the daemon's 1 MiB limit; replies may be far larger (`List` and
/// `Export` of 100k items).
public final class VarlinkClient {
    private let fd: Int32
    private var framing = VarlinkFraming(limit: VarlinkFraming.maximumReplySize)

    /// Connects to `path`; `timeoutSeconds` bounds every later send and receive.
    public init(path: String, timeoutSeconds: Int = 30) throws(ReminderProtocolError) {
        let socketFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketFD >= 0 else { throw .unreachable(path: path, reason: errnoDescription()) }
        guard let address = UnixSocketAddress(path: path) else {
            close(socketFD)
            throw .unreachable(path: path, reason: "path too long for a Unix socket")
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socketFD, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = address.withSocketAddress { generic, length in
            retryingOnEINTR { connect(socketFD, generic, length) }
        }
        guard connected == 0 else {
            let reason = errnoDescription()
            close(socketFD)
            throw .unreachable(path: path, reason: reason)
        }
        fd = socketFD
    }

    deinit { close(fd) }

    /// The connection's socket, for a caller that waits on it with poll() (reminderd-sync holds
    /// a `SyncWait` call open and polls until its answer arrives).
    public var fileDescriptor: Int32 { fd }

    /// Sends a call and waits for its reply.
    public func call(_ method: String, _ parameters: [String: JSONValue] = [:]) throws(ReminderProtocolError)
        -> VarlinkReply
    {
        let request = VarlinkCall(method: method, parameters: parameters).bytes
        // Refused here with the limit named: the daemon would close the connection mid-send.
        guard request.count - 1 <= VarlinkFraming.maximumMessageSize else {
            throw .requestTooLarge(size: request.count - 1, limit: VarlinkFraming.maximumMessageSize)
        }
        try send(request)
        return try VarlinkReply(bytes: receive())
    }

    /// Writes raw bytes (tests use this to send malformed messages).
    public func send(_ bytes: [UInt8]) throws(ReminderProtocolError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { raw in
                retryingOnEINTR { Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL)) }
            }
            guard written > 0 else { throw .connectionLost(reason: errnoDescription()) }
            offset += written
        }
    }

    /// Reads until one whole message has arrived.
    public func receive() throws(ReminderProtocolError) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let message = try framing.nextMessage() { return message }
            let count = chunk.withUnsafeMutableBytes { raw in
                retryingOnEINTR { recv(fd, raw.baseAddress, raw.count, 0) }
            }
            if count == 0 { throw .connectionLost(reason: "the daemon closed the connection") }
            if count < 0 {
                let timedOut = errno == EAGAIN || errno == EWOULDBLOCK
                throw .connectionLost(reason: timedOut ? "no reply in time" : errnoDescription())
            }
            framing.append(chunk[0..<count])
        }
    }
}
