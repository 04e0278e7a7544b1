import ArgumentParser
import ReminderCore
import ReminderPlatform
import ReminderProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// `reminderctl sync now`: asks reminderd for a pass of the connected reminderd-sync and waits
/// for its end. reminderd answers when reminderd-sync reports the pass (`SyncReport`), so this
/// waits as long as a pass may take over the network.
struct SyncNow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now",
        abstract: "Sync at once and wait for the pass to end.",
        discussion: """
            Exits 0 when the pass succeeded, 1 with the reason when it did not (a wrong password, \
            no network, a server error) or when reminderd-sync is not running.

            Example: reminderctl sync now
            """)
    @OptionGroup var output: OutputOptions

    /// A first join of a large list over a slow link takes minutes; longer than this, something
    /// is stuck and the person is better told so than left waiting.
    static let passSeconds = 600

    func run() throws {
        guard output.json else { return print(try pass()) }
        // A script reads one object either way; the exit code still says which.
        do {
            _ = try pass()
            print(Output.json(.object(["ok": .bool(true)])))
        } catch let refusal as Refusal {
            print(Output.json(.object(["ok": .bool(false), "error": .string(refusal.message)])))
            throw ExitCode(refusal.exitCode)
        }
    }

    /// The pass, asked of the daemon and waited for; the line to print after it succeeded, or a
    /// refusal saying why it did not and what helps.
    func pass() throws -> String {
        let state = SyncWording.current()
        // Without an account there is nothing to start or to retry: only setup helps.
        if let state, state.account == nil { throw Refusal(message: SyncWording.notSetUp) }
        switch try DaemonClient.reply(.syncNow, timeoutSeconds: SyncNow.passSeconds) {
        case .success:
            return (SyncWording.current() ?? state)?.doneLine ?? _t("Synced.")
        case .failure(let error) where error.name == ReminderInterface.ErrorName.syncFailed:
            // The daemon's reason may already name the command that helps.
            let message = ErrorWording.message(error)
            let hint = message.contains("systemctl") ? nil : SyncWording.current()?.hint
            throw Refusal(message: message + (hint.map { "\n" + _t("hint: %1$s").filled($0) } ?? ""))
        case .failure(let error):
            throw Refusal(message: ErrorWording.message(error))
        case .streamed: preconditionFailure("a reply read from the socket is never a streamed one")
        }
    }
}

/// `reminderctl sync status`: the account, the last sync, what waits, conflicts, the last error.
struct SyncStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Sync's state: account, last sync, changes waiting, conflicts, the last error.",
        discussion: "Example: reminderctl sync status")
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard let reply = try output.call(.syncStatus, as: SyncStatusReply.self) else { return }
        let settings = SyncWording.configuredSettings()
        let words = SyncWording(
            reply: reply, now: TestClock.process.now(), configured: SyncWording.configuredAccount(),
            server: settings?.url, clearTextHost: settings?.allowPlainHTTP == true ? settings?.clearTextHost : nil)
        // Values start in column 22 as ever; further right when a language's label is longer.
        let labels = words.lines.map { _t("%1$s:").filled($0.0) }
        let width = max(21, (labels.map { DisplayWidth.of($0) }.max() ?? 0) + 1)
        for (label, line) in zip(labels, words.lines) {
            print(label + String(repeating: " ", count: width - DisplayWidth.of(label)) + line.1)
        }
    }
}

extension SyncWording {
    /// Sync's state from the running daemon; nil from one that cannot say (an older version
    /// without `SyncStatus`): the words around a command are left out, the command still works.
    static func current() -> SyncWording? {
        guard case .success(let parameters)? = try? DaemonClient.reply(.syncStatus),
            let reply = try? SyncStatusReply(parameters: parameters)
        else { return nil }
        return SyncWording(reply: reply, now: TestClock.process.now(), configured: configuredAccount())
    }
}
