import ArgumentParser
import ReminderCore
import ReminderPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// `reminderctl`: the command-line face of reminderd (CONTRACT §5).
@main
struct Reminderctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reminderctl",
        abstract: "Reminders of money-relevant deadlines: card benefits, subscriptions, coupons, fees, rebuys.",
        version: ReminderVersion.current,
        subcommands: [
            Add.self, List.self, Show.self, Edit.self, Remove.self, Done.self, Undo.self, Snooze.self, Upcoming.self,
            Explain.self, History.self, Summary.self, Report.self, Status.self, Pause.self, Resume.self, Reload.self,
            Import.self, Export.self, Plan.self, Cards.self, Wallet.self, Setup.self, Sync.self, TryIt.self,
        ]
    )

    /// Runs the command with CONTRACT §5's exit codes: 0 ok, 1 refused, 2 usage, 69 daemon not
    /// reachable, 76 a reply it cannot read. (swift-argument-parser alone would use 64 for usage errors.)
    static func main() {
        Translation.bindCatalogs()
        Translation.choose(localeName: Translation.environmentLocaleName())
        do {
            // Test-only; refused here, so that no command reads an unshifted clock instead.
            if case .failure(let error) = TestClock.environment { throw Refusal.usage("\(error)") }
            try refuseNegativeValues(Array(CommandLine.arguments.dropFirst()))
            try refuseUnknownCommand(Array(CommandLine.arguments.dropFirst()))
            var command = try parseAsRoot()
            try command.run()
        } catch let refusal as Refusal {
            printError("reminderctl: \(refusal.message)")
            Glibc.exit(refusal.exitCode)
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                printError(fullMessage(for: error))
                Glibc.exit(2)
            }
            exit(withError: error)
        }
    }
}

/// `pause -1h` would otherwise read as the short flags `-1` and `-h` and print the help with
/// exit 0, as if it had worked. No value of reminderctl is negative, so a word that starts with
/// `-` and a digit is refused as a usage error that says why.
func refuseNegativeValues(_ arguments: [String]) throws {
    for argument in arguments.prefix(while: { $0 != "--" }) {
        guard argument.count > 1, argument.hasPrefix("-"), argument.dropFirst().first?.isNumber == true else {
            continue
        }
        throw Refusal.usage(
            _t("\"%1$s\": durations, amounts and counts cannot be negative; give e.g. %2$s")
                .filled(argument, String(argument.dropFirst())))
    }
}

/// `reminderctl lsit` or `reminderctl ad coupon`: argument-parser would blame the last word it
/// could not place ("coupon"), or print the whole help. The first word is the command: one that
/// is none is refused naming it, with the nearest commands.
func refuseUnknownCommand(_ arguments: [String]) throws {
    guard let word = arguments.first, !word.hasPrefix("-") else { return }
    let commands = Reminderctl.configuration.subcommands.map { $0._commandName } + ["help"]
    guard !commands.contains(word) else { return }
    throw Refusal.usage(unknownCommand(word, among: commands))
}

/// "no command \"lsit\"; did you mean list?" — the commands a typo away, or that start with
/// what was typed; else where to see them all.
func unknownCommand(_ word: String, among commands: [String]) -> String {
    let typed = word.lowercased()
    let near = commands.filter { NameFolding.isNear(typed, $0) || (typed.count >= 2 && $0.hasPrefix(typed)) }
        .sorted { NameFolding.distance(typed, $0) < NameFolding.distance(typed, $1) }
    let hint =
        near.isEmpty
        ? _t("see the commands with: reminderctl --help")
        : _t("did you mean %1$s?").filled(near.prefix(3).joined(separator: _t(" or ")))
    return _t("no command \"%1$s\"; %2$s").filled(shown(word), hint)
}

extension Refusal {
    /// A reply reminderd did send that this tool cannot read: exit code 76 (sysexits' EX_PROTOCOL),
    /// not 69 — the daemon is reachable, and starting it again would not help.
    static func unreadableReply(_ reason: String) -> Refusal {
        Refusal(
            message: _t(
                "reminderd answered, but its reply cannot be read: %1$s\nhint: reminderd and reminderctl may be of different versions; restart reminderd after an upgrade"
            ).filled(reason),
            exitCode: 76)
    }
}

func printError(_ text: String) {
    var line = text
    if !line.hasSuffix("\n") { line += "\n" }
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}
