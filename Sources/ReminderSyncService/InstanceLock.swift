import ReminderPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// One reminderd-sync per reminderd: an exclusive flock on `<socket>.sync.lock`, next to
/// reminderd's socket, held until the process exits (the kernel drops it then, however the
/// process ends). Two would both push the same outbox rows and race each other's If-Match.
/// The holder writes its PID into the file so the one refused can name it.
public enum InstanceLock {
    /// The exit status of a reminderd-sync refused because another holds the lock (EX_TEMPFAIL).
    public static let heldElsewhereStatus: Int32 = 75

    public enum Failure: Error, CustomStringConvertible {
        case heldElsewhere(path: String, socketPath: String, pid: String?)
        case system(path: String, call: String, code: Int32)

        public var description: String {
            switch self {
            case .heldElsewhere(let path, let socketPath, let pid):
                return "another reminderd-sync\(pid.map { " (PID \($0))" } ?? "") already syncs for the reminderd "
                    + "at \(socketPath): it holds \(path)"
            case .system(let path, let call, let code):
                return "cannot take the lock \(path): \(call) failed: \(errnoDescription(code))"
            }
        }
    }

    public static func path(forSocket socketPath: String) -> String { socketPath + ".sync.lock" }

    /// Takes the lock for the reminderd at `socketPath`, for the rest of the process's life.
    public static func take(forSocket socketPath: String) throws(Failure) {
        let path = path(forSocket: socketPath)
        // O_CLOEXEC: a passwordCommand's program must not inherit (and so outlive us holding) the lock.
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .system(path: path, call: "open", code: errno) }
        guard retryingOnEINTR({ flock(descriptor, LOCK_EX | LOCK_NB) }) == 0 else {
            let code = errno
            defer { close(descriptor) }
            guard code == EWOULDBLOCK else { throw .system(path: path, call: "flock", code: code) }
            throw .heldElsewhere(path: path, socketPath: socketPath, pid: holder(descriptor))
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        // The descriptor stays open on purpose: closing it would release the lock.
    }

    /// The PID the holder wrote, nil when it has not written it yet.
    private static func holder(_ descriptor: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let digits = buffer[..<count].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        return digits.isEmpty ? nil : String(decoding: digits, as: UTF8.self)
    }
}
