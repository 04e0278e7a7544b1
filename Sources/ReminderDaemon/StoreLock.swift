import Glibc
import ReminderPlatform

/// One daemon per store: an exclusive `flock` on `<store>.lock`, held (by the open descriptor)
/// for the daemon's life and released by the kernel however it ends, even `kill -9`. The file
/// holds the owner's pid, so a second daemon — on another socket, or started while the first
/// is stopped with SIGSTOP — can say which one runs instead of showing every reminder twice.
final class StoreLock: Sendable {
    let path: String
    private let fd: Int32

    /// Takes the lock, or fails with a message naming the daemon that holds it. The descriptor
    /// is set only once it holds the lock: a failed init whose properties were all set runs
    /// `deinit`, which must not close a descriptor closed already (by then another thread may
    /// have been given its number: a store's SQLite file, which the second close would shut).
    init(storePath: String) throws(StoreLockError) {
        path = storePath + ".lock"
        fd = try StoreLock.take(path, storePath: storePath)
    }

    /// The open, locked descriptor of `path`, holding this process's pid; on failure it is
    /// closed here, once.
    private static func take(_ path: String, storePath: String) throws(StoreLockError) -> Int32 {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !directory.isEmpty {
            do { try makePrivateDirectories(directory) } catch {
                throw StoreLockError(message: "cannot create \(directory): \(error.description)")
            }
        }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StoreLockError(message: "cannot open the lock file \(path): \(errnoDescription())")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno == EWOULDBLOCK ? nil : errnoDescription()
            let owner = StoreLock.readPid(fd)
            close(fd)
            if let reason { throw StoreLockError(message: "cannot lock \(path): \(reason)") }
            throw StoreLockError(
                message:
                    "another reminderd\(owner.map { " (pid \($0))" } ?? "") is already running on the store \(storePath); "
                    + "stop it first, or give this one its own --store")
        }
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) != 0 || pwrite(fd, pid, pid.count, 0) != pid.count {
            // The lock holds regardless; only the name in a later refusal is missing.
            _ = ftruncate(fd, 0)
        }
        return fd
    }

    private static func readPid(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[..<count], as: UTF8.self).filter { $0.isNumber })
    }

    deinit { close(fd) }
}

struct StoreLockError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
