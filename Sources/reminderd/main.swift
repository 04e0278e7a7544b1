import ReminderdSyncCommand

/// One executable for reminderd and reminderd-sync, so the package carries the Swift runtime and
/// FoundationEssentials (~13 MB stripped) twice, not three times (issue 21); the package installs
/// /usr/bin/reminderd-sync as a link to /usr/bin/reminderd. The name it was started under picks
/// the command: `reminderd-sync`, or `reminderctl` — the name `reminderctl sync setup` gives
/// reminderd-sync when it hands over (execv, so that refusals read "reminderctl: …"); any other
/// name is reminderd. reminderctl stays on its own: it starts for every command, and would
/// otherwise load the daemon's and the CalDAV client's libraries each time.
enum InvokedAs {
    static let syncNames: Set<Substring> = ["reminderd-sync", "reminderctl"]

    static var sync: Bool {
        guard let first = CommandLine.arguments.first, let name = first.split(separator: "/").last else { return false }
        return syncNames.contains(name)
    }
}

if InvokedAs.sync {
    ReminderdSync.main()
} else {
    ReminderdCommand.main()
}
