#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads whole files with errors that say what went wrong (a directory, no permission, missing),
/// which Foundation's `Data(contentsOf:)` reports only vaguely.
public enum FileReader {
    /// The largest file read: configs, item files and zone data are far smaller.
    public static let maximumSize = 64 << 20

    public static func read(_ path: String) throws(ReminderPlatformError) -> [UInt8] {
        let fd = retryingOnEINTR { open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw .unreadableFile(path: path, reason: errnoDescription()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadableFile(path: path, reason: errnoDescription()) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            let what = (info.st_mode & S_IFMT) == S_IFDIR ? "is a directory" : "is not a regular file"
            throw .unreadableFile(path: path, reason: "\(what), expected a file")
        }
        guard Int(info.st_size) <= maximumSize else {
            throw .unreadableFile(path: path, reason: "larger than \(maximumSize >> 20) MiB")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { buffer in
                retryingOnEINTR { Glibc.read(fd, buffer.baseAddress, buffer.count) }
            }
            if n < 0 { throw .unreadableFile(path: path, reason: errnoDescription()) }
            if n == 0 { break }
            bytes += chunk[0..<n]
            if bytes.count > maximumSize {
                throw .unreadableFile(path: path, reason: "larger than \(maximumSize >> 20) MiB")
            }
        }
        return bytes
    }
}

/// Runs a POSIX call again while it fails with EINTR.
public func retryingOnEINTR<T: SignedInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}

/// `strerror(errno)`: "No such file or directory".
public func errnoDescription(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}
