import FoundationEssentials
import ReminderCore

#if canImport(Glibc)
    import Glibc
#endif

/// Why the password could not be had, in words naming the source and what to do.
public struct PasswordError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
}

/// Fetches the account's password from its configured source, each time a sync needs it (so a
/// changed password needs no restart, and none is kept in the config).
public enum PasswordLookup {
    public static func password(for settings: SyncSettings) throws(PasswordError) -> String {
        switch settings.password {
        case .command(let command): return try PasswordCommand.run(command)
        case .file(let path): return try passwordFile(path)
        case .secretService: return try SecretService.password(username: settings.username)
        }
    }

    /// Reads a file only its owner can read: anything looser (group or others may read or write)
    /// is refused with the mode found and the chmod that fixes it.
    static func passwordFile(_ configured: String) throws(PasswordError) -> String {
        let path = expandingHome(configured)
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw PasswordError(description: "sync.passwordFile \(path): \(String(cString: strerror(errno)))")
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw PasswordError(
                description:
                    "sync.passwordFile \(path) has mode \(String(mode, radix: 8, uppercase: false).leftPadded(4)); "
                    + "it must be readable by you alone: chmod 600 \(path)")
        }
        guard info.st_uid == getuid() else {
            throw PasswordError(description: "sync.passwordFile \(path) belongs to another user (uid \(info.st_uid))")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PasswordError(description: "sync.passwordFile \(path) cannot be read")
        }
        let password = firstLine(data)
        guard !password.isEmpty else { throw PasswordError(description: "sync.passwordFile \(path) is empty") }
        return password
    }

    /// The password is the first line; its line ending is not part of it.
    static func firstLine(_ data: Data) -> String {
        let text = String(decoding: data, as: UTF8.self)
        // "\r\n" is one Character, and a newline like "\n".
        return String(
            text.split(maxSplits: 1, omittingEmptySubsequences: false, whereSeparator: \.isNewline).first ?? "")
    }

    private static func expandingHome(_ path: String) -> String {
        guard path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] else { return path }
        return home + path.dropFirst()
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
