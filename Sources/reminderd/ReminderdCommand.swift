import ArgumentParser
import Glibc
import Logging
import ReminderCore
import ReminderDaemon

/// `reminderd`: the per-user reminder daemon.
struct ReminderdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reminderd",
        abstract: "Reminds you of money-relevant deadlines with desktop pop-ups.",
        discussion: "Usually started by systemd --user (reminderd.service); controlled with reminderctl.",
        version: ReminderVersion.current)

    @Option(help: "Config file (default: $XDG_CONFIG_HOME/reminderd/config.json; built-in defaults if absent).")
    var config: String?

    @Option(help: "SQLite store (default: $XDG_DATA_HOME/reminderd/reminderd.sqlite).")
    var store: String?

    @Option(
        help: "Socket path (default: $REMINDERD_SOCKET, the config's socketPath, or $XDG_RUNTIME_DIR/reminderd.sock).")
    var socket: String?

    func run() throws {
        MallocTuning.configure()  // before any thread starts
        let journal = Systemd.stderrIsJournal
        LoggingSystem.bootstrap { label in
            if journal { return JournalLogHandler(label: label) }
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return VisibleTextLogHandler(handler)
        }
        do {
            let daemon = try Daemon(
                options: DaemonOptions(configPath: config, storePath: store, socketPath: socket),
                logger: Logger(label: "reminderd"))
            try daemon.run()
        } catch {
            Logger(label: "reminderd").critical("\(error)")
        }
        throw ExitCode(1)
    }
}
