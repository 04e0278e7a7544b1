import ArgumentParser
import ReminderCore
import ReminderPlatform
import SyncSetupOptions

#if canImport(Glibc)
    import Glibc
#endif

/// `reminderctl sync`: the CalDAV account (`setup`), and the state of the process that syncs
/// (`reminderd-sync`), asked through reminderd (`now`, `status`).
struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync your devices through a CalDAV server: set up the account, sync now, see the state.",
        subcommands: [SyncSetup.self, SyncNow.self, SyncStatusCommand.self])
}

/// `reminderctl sync setup`: parses its options here (the help and usage errors are reminderctl's),
/// then becomes `reminderd-sync setup` with them (execv: the same process, terminal and exit
/// status). Checking the account needs the CalDAV client — libcurl, libsecret, its XML reader —
/// which reminderd-sync links anyway and reminderctl, run for every other command, does not.
struct SyncSetup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup", abstract: SyncSetupOptions.abstract, discussion: SyncSetupOptions.discussion)

    @OptionGroup var options: SyncSetupOptions

    func run() throws {
        let program = try SyncSetup.reminderdSync()
        // argv[0] "reminderctl": its refusals then read "reminderctl: …", as this command's always did.
        let argv = ["reminderctl", "setup"] + options.arguments
        var pointers = argv.map { strdup($0) } + [nil]
        fflush(nil)
        execv(program, &pointers)
        let reason = errnoDescription()
        for pointer in pointers { free(pointer) }
        throw Refusal(message: _t("cannot run %1$s for sync setup: %2$s").filled(program, reason))
    }

    /// reminderd-sync next to this reminderctl (through /proc/self/exe, so an install in
    /// ~/.local/bin or a build directory finds its own), else the first on PATH; a refusal naming
    /// where it looked when there is none.
    static func reminderdSync() throws -> String {
        let beside = executablePath().flatMap { own in own.lastIndex(of: "/").map { String(own[..<$0]) } }
        let path = environmentVariable("PATH") ?? ""
        let directories = [beside].compactMap { $0 } + path.split(separator: ":").map { $0.isEmpty ? "." : String($0) }
        if let found = directories.map({ $0 + "/reminderd-sync" }).first(where: { access($0, X_OK) == 0 }) {
            return found
        }
        let looked = [
            beside.map { _t("%1$s (next to reminderctl)").filled($0) },
            _t("PATH (%1$s)").filled(path.isEmpty ? _t("empty") : path),
        ]
        throw Refusal(
            message: _t(
                "sync setup runs reminderd-sync setup, and no reminderd-sync was found in %1$s; install it beside reminderctl: the reminderd package has it, and so does scripts/install.sh"
            ).filled(looked.compactMap { $0 }.joined(separator: _t(" or "))))
    }

    /// This program's file, read from /proc/self/exe; nil when that cannot be read.
    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let count = readlink("/proc/self/exe", &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
