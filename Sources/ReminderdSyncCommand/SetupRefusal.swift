import ReminderCore
import ReminderJSON
import ReminderPlatform

#if canImport(Glibc)
    import Glibc
#endif

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
