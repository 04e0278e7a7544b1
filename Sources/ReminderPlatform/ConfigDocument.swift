import ReminderCore
import ReminderJSON

#if canImport(Glibc)
    import Glibc
#endif

/// The config file as a JSON object, for the commands that rewrite it (`reminderctl setup`,
/// `reminderd-sync setup`): each sets its keys and keeps every other key as written.
extension ConfigFile {
    /// The file's keys as written, or `nil` when there is no file yet; an unreadable file or one
    /// that is not a JSON object is refused with its path and the reason.
    public static func readDocument(_ path: String) throws(ConfigFileError) -> [String: JSONValue]? {
        guard access(path, F_OK) == 0 else { return nil }
        let document: JSONValue
        do {
            document = try JSONValue.parse(try FileReader.read(path), source: path)
        } catch let error as ReminderPlatformError {
            throw ConfigFileError(path: path, message: error.description)
        } catch let error as FieldError {
            throw ConfigFileError(path: path, message: error.description)
        } catch {
            throw ConfigFileError(path: path, message: "\(path): \(error)")
        }
        guard case .object(let fields) = document else {
            throw ConfigFileError(path: path, message: "\(path): expected a JSON object")
        }
        return fields
    }

    /// Writes the config whole or not at all (a temporary file renamed over it), owner-only, in
    /// directories only the owner can enter.
    public static func writeDocument(_ document: [String: JSONValue], to path: String) throws(ConfigFileError) {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !directory.isEmpty {
            do throws(ReminderPlatformError) { try makePrivateDirectories(directory) } catch {
                throw ConfigFileError(path: path, message: error.description)
            }
        }
        let temporary = path + ".tmp"
        let data = JSONValue.object(document).serialized(pretty: true)
        guard FileWriter.write(Array(data) + [0x0A], to: temporary), rename(temporary, path) == 0 else {
            throw ConfigFileError(path: path, message: "\(path): cannot write: \(errnoDescription())")
        }
    }
}

/// Writing a small file without Foundation's FileManager.
public enum FileWriter {
    /// Writes `bytes` to `path` (created owner-only, or truncated) and syncs it; false on any failure,
    /// with `errno` saying why.
    public static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written <= 0 { return false }
            offset += written
        }
        return fsync(fd) == 0
    }
}
