import ReminderJSON

/// A command's refusal: one line for the user and the exit code that goes with it (1 refused,
/// 2 usage). Shared by reminderctl and `reminderd-sync setup`, which `reminderctl sync setup` runs
/// on its behalf, so both refuse and exit alike.
public struct Refusal: Error {
    public let message: String
    public var exitCode: Int32 = 1

    public init(message: String, exitCode: Int32 = 1) {
        self.message = message
        self.exitCode = exitCode
    }

    /// A bad option value: exit code 2, like any other usage error.
    public static func usage(_ message: String) -> Refusal { Refusal(message: message, exitCode: 2) }
}

/// The config file's keys as written (to rewrite it keeping those a command does not set), or
/// `nil` when there is no file yet; a file that cannot be read is refused in words.
public func readConfigDocument(_ path: String) throws -> [String: JSONValue]? {
    do throws(ConfigFileError) { return try ConfigFile.readDocument(path) } catch {
        throw Refusal(message: error.message)
    }
}

/// Writes the config whole or not at all, owner-only (`ConfigFile.writeDocument`).
public func writeConfigFile(_ document: [String: JSONValue], to path: String) throws {
    do throws(ConfigFileError) { try ConfigFile.writeDocument(document, to: path) } catch {
        throw Refusal(message: error.message)
    }
}

extension StringProtocol {
    /// Without the whitespace around it (an answer typed on the terminal, an option's value).
    public func trimmingCharacters() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
