internal import CSystemd
import ReminderPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// SIGTERM and SIGINT as a file descriptor (signalfd), so the loop's one poll() sees them beside
/// reminderd's socket and a pass can ask between two requests whether to stop. The signals are
/// blocked, so none interrupts a request halfway: the current request is finished, then the
/// process exits 0. (No handler, no flag written from signal context, no thread.)
final class ProcessSignals {
    let descriptor: Int32

    init() throws(ServiceError) {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        // Blocked before any thread exists (libcurl's resolver threads inherit the mask).
        guard pthread_sigmask(SIG_BLOCK, &set, nil) == 0 else { throw .system("pthread_sigmask", errno) }
        descriptor = signalfd(-1, &set, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        guard descriptor >= 0 else { throw .system("signalfd", errno) }
    }

    deinit { close(descriptor) }

    /// A stop signal arrived (and stays pending: asking again answers the same).
    var stopRequested: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return retryingOnEINTR { poll(&entry, 1, 0) } > 0
    }
}

/// Milliseconds of CLOCK_BOOTTIME, which goes on during suspend, so the time until the next
/// pass counts from the last one in real time.
func bootClockMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_BOOTTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}

/// What keeps reminderd-sync from running at all.
public enum ServiceError: Error, CustomStringConvertible {
    case system(String, Int32)
    /// No HTTP library (libcurl): the service cannot work until it is installed.
    case noHTTP(String)

    public var description: String {
        switch self {
        case .system(let call, let code): return "\(call) failed: \(errnoDescription(code))"
        case .noHTTP(let words): return words
        }
    }
}
