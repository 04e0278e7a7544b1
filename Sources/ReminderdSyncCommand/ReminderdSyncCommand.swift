import ArgumentParser
import ReminderCore
import ReminderPlatform
import ReminderProtocol
import ReminderSyncService

#if canImport(Glibc)
    import Glibc
#endif

/// `reminderd-sync`: syncs reminderd's items with a CalDAV task list; `reminderd-sync setup`
/// (what `reminderctl sync setup` runs) checks and saves the account.
struct ReminderdSyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reminderd-sync",
        abstract: "Syncs reminderd's items with a CalDAV task list (the config's \"sync\" account).",
        discussion: """
            Usually started by systemd --user (reminderd-sync.service) after reminderd. Reads the \
            "sync" section of the config file, written by `reminderctl sync setup` (which runs \
            `reminderd-sync setup`); takes the password from sync.passwordCommand, \
            sync.passwordFile or the Secret Service; finds the \
            task list on the server (it does not create one: setup does); and talks to reminderd on \
            its socket ($REMINDERD_SOCKET, the config's socketPath, or $XDG_RUNTIME_DIR/reminderd.sock), \
            retrying until reminderd answers.

            An http:// sync.url on another machine (not localhost, 127.0.0.0/8 or [::1]) is refused \
            (exit 78): the password would go in clear on every request. "allowPlainHttp": true in \
            the "sync" section accepts it; a warning is then logged at each start.

            A pass runs at start, when reminderd has changes (2 s after the latest), on \
            `reminderctl sync now`, right before a pop-up (pull only), and every ~10 minutes; after \
            a network error or a 5xx it retries in 30 s, doubling to 30 min. What failed is in \
            `reminderctl sync status` and on stderr (the journal).

            Exit status: 0 when stopped by SIGTERM or SIGINT (or --once succeeded, or \
            --check-config found an account); 1 when --once failed; 69 when --once cannot reach \
            reminderd; 75 when another reminderd-sync already syncs for the same reminderd (it holds \
            the lock file next to reminderd's socket, named with its PID in the message); 78 when the \
            config has no usable "sync" section or libcurl is missing.
            """,
        version: ReminderVersion.current,
        subcommands: [AccountSetup.self])

    @Option(help: "Config file (default: $XDG_CONFIG_HOME/reminderd/config.json).")
    var config: String?

    @Flag(help: "Run one pass, then exit: 0 when it succeeded, 1 when not (the reason on stderr).")
    var once = false

    @Flag(help: "Check the config's \"sync\" section and exit: 0 when it has an account, 78 when not.")
    var checkConfig = false

    func run() throws {
        let journal = Journal()
        let path = config ?? ConfigFile.defaultPath()
        let configuration: Configuration
        switch ConfigFile.load(explicitPath: config) {
        case .success(let loaded): configuration = loaded
        case .failure(let error):
            throw unusable(error.description, socketPath: SocketPath.resolve(configured: nil), journal)
        }
        let socketPath = SocketPath.resolve(configured: configuration.socketPath)
        guard let settings = configuration.sync else {
            let exists = ConfigFile.defaultPathIfPresent() != nil || config != nil
            throw unusable(
                "\(path) \(exists ? "has no \"sync\" section" : "does not exist"): no account to sync with; "
                    + "set one up with: reminderctl sync setup", socketPath: socketPath, journal)
        }
        if let refusal = settings.plainHTTPRefusal {
            throw unusable("\(path): sync.url \(refusal)", socketPath: socketPath, journal)
        }
        if checkConfig { return }
        do throws(InstanceLock.Failure) { try InstanceLock.take(forSocket: socketPath) } catch {
            journal.log(.error, error.description)
            if case .heldElsewhere = error { throw ExitCode(InstanceLock.heldElsewhereStatus) }
            throw ExitCode(1)
        }
        // Once per start, where the journal keeps it: the user accepted this, but should not forget it.
        if let host = settings.clearTextHost { journal.log(.warning, SyncSettings.clearTextWarning(host: host)) }
        let service: SyncService
        do {
            service = try SyncService(settings: settings, socketPath: socketPath, journal: journal)
        } catch .noHTTP(let words) {
            // As unusable as a config without "sync": restarting does not help until it is installed.
            throw unusable(words, socketPath: socketPath, journal)
        } catch {
            journal.log(.error, error.description)
            throw ExitCode(1)
        }
        let status = once ? service.runOnce() : service.run()
        if status != 0 { throw ExitCode(status) }
    }

    /// Says why the config is unusable, on stderr and (unless only checking) to reminderd, and
    /// gives the exit status that keeps systemd from restarting a process that cannot work.
    private func unusable(_ words: String, socketPath: String, _ journal: Journal) -> ExitCode {
        journal.log(.error, words)
        if !checkConfig { VarlinkDaemonLink.reportUnusable(words, to: socketPath) }
        return ExitCode(78)
    }
}

/// `setup` parsed on its own: its `--config` is the file to write, which, parsed below
/// `ReminderdSyncCommand`, the loop's own `--config` would take instead.
struct SetupInvocation: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reminderd-sync", subcommands: [AccountSetup.self])
}

extension ReminderdSyncCommand {
    /// The sync loop's exit statuses as before; `setup`'s as `reminderctl`'s commands give them
    /// (a refusal 1 with "name: reason" on stderr, a usage error 2), since `reminderctl sync
    /// setup` is that command run on its behalf.
    static func mainWithSetup() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let setup = arguments.first == AccountSetup.configuration.commandName
        do {
            var command = try setup ? SetupInvocation.parseAsRoot(arguments) : parseAsRoot(arguments)
            // After the loop's flags the loop would have taken setup's --config: refused, not guessed.
            if !setup, command is AccountSetup {
                throw Refusal.usage("setup comes first: reminderd-sync setup [options]")
            }
            try command.run()
        } catch let refusal as Refusal {
            printError("\(invokedName()): \(refusal.message)")
            Glibc.exit(refusal.exitCode)
        } catch {
            if setup, exitCode(for: error) == .validationFailure {
                printError(SetupInvocation.fullMessage(for: error))
                Glibc.exit(2)
            }
            if setup { SetupInvocation.exit(withError: error) }
            exit(withError: error)
        }
    }
}

/// reminderd-sync's entry point: its own executable's (`swift build`'s `reminderd-sync`) and the
/// shipped `reminderd`'s when started under the name `reminderd-sync` (see Sources/reminderd/main.swift).
public enum ReminderdSync {
    public static func main() { ReminderdSyncCommand.mainWithSetup() }
}
