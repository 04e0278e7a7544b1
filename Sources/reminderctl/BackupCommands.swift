import ArgumentParser
import ReminderCore
import ReminderJSON
import ReminderPlatform
import ReminderProtocol

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the items of a JSON file or restore a backup, all or none.",
        discussion: """
            Examples:
              reminderctl import items.json            a JSON array of items
              reminderctl import backup.json           a backup from reminderctl export: the items
                                                       with their Done, snoozes and fee return
              reminderctl import --replace backup.json restore over the items it has already
            A backup's state is restored in the same transaction as its items.
            A file over 1 MiB (the daemon's limit for one request) goes in batches, each all or
            none, after every item is checked. If the daemon refuses a batch, the items before it
            stay imported and are listed; nothing of that batch or after it is added.
            """)
    @Argument(help: "A backup (reminderctl export) or a JSON array of items.", completion: .file(extensions: ["json"]))
    var file: String
    @Flag(help: "Restore over items of the same ids (their state is replaced by the file's).") var replace = false
    @OptionGroup var output: OutputOptions

    func run() throws {
        let (items, state) = try ItemsFile.parts(readJSON(file), path: file)
        let ids = try ImportBatches.run(items, state: state, replace: replace, file: file)
        if output.json { return print(Output.json(.object(["ids": .array(ids.map { .string($0) })]))) }
        guard !ids.isEmpty else { return print(_t("Imported 0 items")) }
        print(_n("Imported %1$d item: %2$s", "Imported %1$d items: %2$s", ids.count).filled(String(ids.count), ids.joined(separator: " ")))
    }
}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print a backup of every item and its state as JSON (the import format), or iCalendar.",
        discussion: """
            Examples:
              reminderctl export > backup.json             items, Done and snoozes, fee return, undo
              reminderctl export --history > backup.json   and the history
              reminderctl export --items-only > items.json a plain JSON array of the items
              reminderctl export --ics --days 365 > reminders.ics
            reminderctl import backup.json restores a backup exactly (into an empty daemon, or
            with --replace over the same items).
            With --ics: a repeating item is one event with a recurrence rule (RRULE) and one
            alarm per lead time; where, in the next --days days, reminderd would remind at other
            times (quiet hours, a DST gap, a reminder before the item was added), that occurrence
            gets its own alarms at exactly the times reminderd (and `plan`) computes. A coupon
            or a rebuy item is one event. Done is not taken into account, as with `plan`. The
            running reminderd writes it, in its own time zone and with its own settings.
            """)
    @Flag(help: "Write RFC 5545 iCalendar instead of JSON.") var ics = false
    @Option(help: "With --ics: how many days ahead (default 365).") var days: Int = 365
    @Flag(help: "Include the history in the backup.") var history = false
    @Flag(name: .customLong("items-only"), help: "Only the items, as a JSON array (no Done state).") var itemsOnly =
        false
    @OptionGroup var output: OutputOptions

    func run() throws {
        if ics {
            guard (1...3660).contains(days) else { throw Refusal.usage(_t("--days must be between %1$d and %2$d").filled("1", "3660")) }
            // The daemon writes it: its zone, reminder time, lead times and quiet hours decide the alarms.
            let calendar = try DaemonClient.call(.calendar(.init(days: days)), as: CalendarReply.self)
            return TerminalOutput.data(calendar.ics)
        }
        let backup = try DaemonClient.call(.export(.init(history: history)), as: ExportReply.self)
        if itemsOnly { return print(Output.json(.array(backup.items))) }
        print(Output.json(.object(["items": .array(backup.items), "state": backup.state])))
    }
}
