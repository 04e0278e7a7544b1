import ArgumentParser
import ReminderCore
import ReminderJSON
import ReminderProtocol

struct Done: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done",
        abstract: "Mark the current occurrence done: used, rebought or acknowledged.",
        discussion: """
            Examples: reminderctl done ufhq   ·   reminderctl done ufhq --amount 7.50 (part of a benefit)
            On a free trial: reminderctl done ID keeps the subscription, --cancelled ends it.
            When the current occurrence is done already, nothing changes; --early acknowledges the
            next one ahead of time. Each Done can be undone, newest first, with reminderctl undo.
            """)
    @Argument(
        help: "Item id, title, or the unique start of either (case and accents aside).",
        completion: .custom(Completions.itemIds))
    var id: String
    @Option(help: "For a benefit: the part used, as a decimal.", transform: TerminalLocale.usedAmount)
    var amount: Money?
    @Flag(help: "When the current occurrence is done already, mark the next one done early.") var early = false
    @Flag(help: "A subscription's free trial: you cancelled it, which ends it (plain done keeps it).")
    var cancelled = false
    @OptionGroup var output: OutputOptions

    func run() throws {
        // The item as it was, to say what a Done of a partly used benefit recorded.
        let before = output.json || early ? nil : try? DaemonClient.call(.get(.init(id: id)), as: ItemReply.self).item
        let request = ReminderRequest.done(.init(id: id, amount: amount, early: early, cancelled: cancelled))
        guard let item = try output.call(request, as: ItemReply.self)?.item else { return }
        if cancelled { return print(_t("Cancelled %1$s: no more reminders").filled(shown(item.title))) }
        // A Done of a free trial keeps the subscription: said so, not "Paid".
        if before?.more["trialEnds"] != nil, item.more["trialEnds"] == nil {
            return print(_t("Kept %1$s after its free trial").filled(shown(item.title)) + nextText(item))
        }
        print(DoneWording.recorded(before: before, after: item, asked: amount?.description) ?? DoneWording.done(item, early: early))
    }
}

struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Restore an item as it was before its latest Done; again for each earlier one.",
        discussion: "Example: reminderctl undo ufhq")
    @Argument(
        help: "Item id, title, or the unique start of either (case and accents aside).",
        completion: .custom(Completions.itemIds))
    var id: String
    @OptionGroup var output: OutputOptions

    func run() throws {
        // The item as it was, to say what the Undo restored (a partial use taken back).
        let before = output.json ? nil : try? DaemonClient.call(.get(.init(id: id)), as: ItemReply.self).item
        guard let item = try output.call(.undo(.init(id: id)), as: ItemReply.self)?.item else { return }
        print(DoneWording.undone(item, before: before))
    }
}

struct Snooze: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snooze",
        abstract: "Remind again after a while or at a time (quiet hours applied, never past the due time).",
        discussion: """
            Examples: reminderctl snooze ufhq 1h   ·   reminderctl snooze ufhq until 18:00 (tomorrow's if \
            it has passed)   ·   reminderctl snooze ufhq tomorrow (at the reminder time)
            """)
    @Argument(
        help: "Item id, title, or the unique start of either (case and accents aside).",
        completion: .custom(Completions.itemIds))
    var id: String
    @Argument(help: "How long (30m, 1h, 1d, 1w), `until HH:MM`, or `tomorrow`.", completion: .list(Completions.snoozes))
    var duration: String
    @Argument(help: "The time after `until`, HH:MM in the daemon's zone.") var time: String?
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if duration == "until" && time == nil { throw ValidationError(_t("until needs a time, e.g. until 18:00")) }
        if duration != "until" && time != nil {
            throw ValidationError(_t("only a time goes after until, e.g. until 18:00"))
        }
    }

    func run() throws {
        let request: ReminderRequest
        switch duration {
        case "until": request = .snooze(.init(id: id, until: time))
        case "tomorrow": request = .snooze(.init(id: id, until: "tomorrow"))
        default: request = .snooze(.init(id: id, duration: duration))
        }
        guard let reply = try output.call(request, as: SnoozeReply.self) else { return }
        var line = _t("Snoozed until %1$s").filled(Output.sentence(reply.until))
        // A duration's reason is why it was shortened; a time's also says it meant tomorrow.
        let label = request == .snooze(.init(id: id, duration: duration)) ? _t("shortened: ") : ""
        if let why = reply.translatedShortened { line += " (\(label)\(HumanTime.inText(why)))" }
        print(line)
    }
}

struct Pause: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause",
        abstract: "Hold every pop-up, due-today ones too (do not disturb); held ones come as one digest on resume.",
        discussion: "Examples: reminderctl pause 2h   ·   reminderctl pause (until resume)")
    @Argument(help: "How long, e.g. 2h; until `resume` when omitted.", completion: .list(Completions.durations))
    var duration: String?
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard let reply = try output.call(.pause(.init(duration: duration)), as: PauseReply.self) else { return }
        print(
            reply.until.map { _t("Paused until %1$s").filled(Output.sentence($0)) }
                ?? _t("Paused until you run: reminderctl resume"))
        print(_t("Every pop-up is held, due-today ones too; they come as one digest when the pause ends."))
    }
}

struct Resume: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "End do-not-disturb.", discussion: "Example: reminderctl resume")
    @OptionGroup var output: OutputOptions

    func run() throws {
        // Asked first, so that a resume with nothing paused says so rather than "Resumed".
        let paused = output.json ? nil : try DaemonClient.call(.status, as: StatusReply.self).paused
        guard try output.call(.resume) != nil else { return }
        print(paused == nil ? _t("Nothing is paused: reminders are shown as they come") : _t("Resumed"))
    }
}

struct Reload: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Re-read the config file (a bad one is refused and the old one kept).",
        discussion: "Example: reminderctl reload")
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard try output.call(.reload) != nil else { return }
        print(_t("Config reloaded"))
    }
}

/// ", next reminder Tue 2026-11-24 09:00", or nothing.
func nextText(_ item: ItemView) -> String {
    let next = Output.sentence(item.nextReminder)
    return next.isEmpty ? "" : _t(", next reminder %1$s").filled(next)
}
