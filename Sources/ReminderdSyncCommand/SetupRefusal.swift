import ReminderCore
import ReminderJSON
import ReminderPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// A refusal of `reminderd-sync setup`: one line for the user and the exit code, as
/// `reminderctl`'s commands give them (1 refused, 2 usage), since `reminderctl sync setup` is
/// this command run on its behalf.
struct Refusal: Error {
    let message: String
    var exitCode: Int32 = 1

    /// A bad option value: exit code 2, like any other usage error.
    static func usage(_ message: String) -> Refusal { Refusal(message: message, exitCode: 2) }
}

/// The name refusals start with: the one this process was started as, so that
/// `reminderctl sync setup` (which passes "reminderctl" as argv[0]) says "reminderctl: …" as
/// before, and `reminderd-sync setup` run by hand says "reminderd-sync: …".
func invokedName() -> String {
    let name = CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "") } ?? ""
    return name.isEmpty ? "reminderd-sync" : name
}

func printError(_ text: String) {
    var line = text
    if !line.hasSuffix("\n") { line += "\n" }
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}

/// Another's text (a server's display name, a URL) as the terminal may show it.
func shown(_ text: String) -> String { ForeignText.forTerminal(text) }

/// The config file's keys as written, or `nil` when there is no file yet.
func readConfigDocument(_ path: String) throws -> [String: JSONValue]? {
    do throws(ConfigFileError) { return try ConfigFile.readDocument(path) } catch {
        throw Refusal(message: error.message)
    }
}

/// Writes the config whole or not at all, owner-only (`ConfigFile.writeDocument`).
func writeConfigFile(_ document: [String: JSONValue], to path: String) throws {
    do throws(ConfigFileError) { try ConfigFile.writeDocument(document, to: path) } catch {
        throw Refusal(message: error.message)
    }
}

extension ConfigFile {
    /// The config file at `path`, read and checked by the loader the daemon uses; refused with
    /// the file, the key and the reason.
    static func refusing(_ path: String) throws -> Configuration {
        switch load(explicitPath: path) {
        case .success(let configuration): return configuration
        case .failure(let error): throw Refusal(message: error.message)
        }
    }
}

extension String {
    /// Without the whitespace around it (an answer typed on the terminal).
    func trimmingCharacters() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
