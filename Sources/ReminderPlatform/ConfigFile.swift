import ReminderCore
import ReminderJSON

#if canImport(Glibc)
    import Glibc
#endif

/// The config file: `--config PATH`, else `$XDG_CONFIG_HOME/reminderd/config.json`
/// (`~/.config/reminderd/config.json`); the built-in defaults when that file does not exist.
public enum ConfigFile {
    public static func defaultPath() -> String {
        xdgDirectory("XDG_CONFIG_HOME", else: ".config") + "/reminderd/config.json"
    }

    /// The default config file's path when that file exists.
    public static func defaultPathIfPresent() -> String? {
        access(defaultPath(), F_OK) == 0 ? defaultPath() : nil
    }

    /// Reads and validates the config; on failure a message with a line for each mistake, naming
    /// the file, the line and column, the key and the reason (`ConfigCheck`). A missing default
    /// file means the defaults; a missing `--config` file is an error.
    public static func load(explicitPath: String?) -> Result<Configuration, ConfigFileError> {
        let path = explicitPath ?? defaultPath()
        if explicitPath == nil, access(path, F_OK) != 0 { return .success(.defaults) }
        do {
            let bytes = try FileReader.read(path)
            let document = try JSONValue.parse(bytes, source: path)
            let problems = ConfigCheck.problems(document, bytes: bytes, path: path, zones: .shared)
            if !problems.isEmpty {
                return .failure(ConfigFileError(path: path, message: problems.joined(separator: "\n")))
            }
            return .success(try Configuration(json: document))
        } catch let error as ReminderPlatformError {
            return .failure(ConfigFileError(path: path, message: error.description))
        } catch let error as ReminderCoreError {
            let message = error.field == path ? error.description : "\(path): \(error)"
            return .failure(ConfigFileError(path: path, message: message))
        } catch {
            return .failure(ConfigFileError(path: path, message: "\(path): \(error)"))
        }
    }
}

/// A config that cannot be used: the file and what is wrong with it.
public struct ConfigFileError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let message: String
    public var description: String { message }
}
