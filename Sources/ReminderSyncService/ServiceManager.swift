import ReminderPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// The service manager: `READY=1`, `STATUS=` and `STOPPING=1` over `NOTIFY_SOCKET` (nothing
/// without it), sent as sd_notify(3) would but never waiting. libsystemd's send blocks while the
/// manager's socket is full (a manager that does not read it), and a reminderd-sync blocked there
/// served nothing and did not stop on SIGTERM, which it reads only in its poll(). (reminderd
/// sends from a queue of its own instead, ManagerNotifier; this process has no other thread.)
/// A state that cannot be sent at once is dropped with one line, once until one goes through
/// again (a `STATUS=` follows every pass): a manager that missed READY=1 times the start out,
/// which says more than a hung process would.
struct ServiceManager {
    let journal: Journal
    private var failing = false

    init(journal: Journal) { self.journal = journal }

    mutating func notify(_ state: String) {
        guard let path = getenv("NOTIFY_SOCKET").map({ String(cString: $0) }), !path.isEmpty else { return }
        var failure: String?
        if let address = UnixSocketAddress(notifySocket: path) {
            failure = Self.send(state, to: address).map {
                "\(errnoDescription($0))\($0 == EAGAIN ? " (the service manager is not reading)" : "")"
            }
        } else {
            failure = "not a Unix socket path that fits"
        }
        if let failure, !failing {
            journal.log(
                .warning, "\(state) not sent to \(path): \(failure); dropped, as are the next until one is sent")
        }
        failing = failure != nil
    }

    /// Nil when `state` went out as one datagram, else the errno.
    private static func send(_ state: String, to address: UnixSocketAddress) -> Int32? {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        let sent = address.withSocketAddress { target, length in
            Array(state.utf8).withUnsafeBytes { raw in
                retryingOnEINTR {
                    sendto(descriptor, raw.baseAddress, raw.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), target, length)
                }
            }
        }
        return sent < 0 ? errno : nil
    }
}
