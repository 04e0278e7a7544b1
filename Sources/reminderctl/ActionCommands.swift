import ArgumentParser
import ReminderCore
import ReminderJSON
import ReminderPlatform

struct Done: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Mark the current occurrence done: used, rebought or acknowledged.",
        discussion: """
            Examples: reminderctl done ufhq   ·   reminderctl done ufhq --amount 7.50 (part of a benefit)
            When the current occurrence is done already, nothing changes; --early acknowledges the
            next one ahead of time. Each Done can be undone, newest first, with reminderctl undo.
            """)
    @Argument(help: "Item id or unique prefix.", completion: .custom(Completions.itemIds)) var id: String
    @Option(help: "For a benefit: the part used, as a decimal.") var amount: String?
    @Flag(help: "When the current occurrence is done already, mark the next one done early.") var early = false
    @OptionGroup var output: OutputOptions

    func run() throws {
        var parameters: [String: JSONValue] = ["id": .string(id)]
        if let amount { parameters["amount"] = .string(amount) }
        if early { parameters["early"] = .bool(true) }
        guard let reply = try output.call(.done, parameters) else { return }
        let item = reply["item"] ?? .null
        if case .string(let used)? = item["amountUsed"], case .string(let total)? = item["amount"],
            case .success(let usedAmount) = Money.parse(used), case .success(let totalAmount) = Money.parse(total)
        {
            let configured = (try? ConfigFile.load(explicitPath: nil).get())?.currency ?? "USD"
            let currency = item["currency"].map { Output.string($0) } ?? configured
            print(
                "Recorded \(usedAmount.formatted(currency: currency)) of \(totalAmount.formatted(currency: currency)) \(Output.string(item["title"])) used; reminders go on for the remaining \((totalAmount - usedAmount).formatted(currency: currency))"
            )
            return
        }
        print("Done: \(Output.string(item["title"])) is \(Output.string(item["status"]))\(nextText(item))")
    }
}

struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Restore an item as it was before its latest Done; again for each earlier one.",
        discussion: "Example: reminderctl undo ufhq")
    @Argument(help: "Item id or unique prefix.", completion: .custom(Completions.itemIds)) var id: String
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard let reply = try output.call(.undo, ["id": .string(id)]) else { return }
        let item = reply["item"] ?? .null
        print("Undone: \(Output.string(item["title"])) is \(Output.string(item["status"])) again\(nextText(item))")
    }
}

struct Snooze: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remind again after a while (quiet hours applied, never past the due time).",
        discussion: "Example: reminderctl snooze ufhq 1h")
    @Argument(help: "Item id or unique prefix.", completion: .custom(Completions.itemIds)) var id: String
    @Argument(help: "How long: 30m, 1h, 1d, 1w.", completion: .list(Completions.durations)) var duration: String
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard let reply = try output.call(.snooze, ["id": .string(id), "duration": .string(duration)]) else { return }
        var line = "Snoozed until \(Output.when(reply["until"]))"
        if case .string(let why)? = reply["shortened"] { line += " (shortened: \(why))" }
        print(line)
    }
}

struct Pause: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hold pop-ups (do not disturb); held ones come as one digest on resume.",
        discussion: "Examples: reminderctl pause 2h   ·   reminderctl pause (until resume)")
    @Argument(help: "How long, e.g. 2h; until `resume` when omitted.", completion: .list(Completions.durations))
    var duration: String?
    @OptionGroup var output: OutputOptions

    func run() throws {
        var parameters: [String: JSONValue] = [:]
        if let duration { parameters["duration"] = .string(duration) }
        guard let reply = try output.call(.pause, parameters) else { return }
        print(
            duration == nil ? "Paused until you run: reminderctl resume" : "Paused until \(Output.when(reply["until"]))"
        )
    }
}

struct Resume: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "End do-not-disturb.", discussion: "Example: reminderctl resume")
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard try output.call(.resume) != nil else { return }
        print("Resumed")
    }
}

struct Reload: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-read the config file (a bad one is refused and the old one kept).",
        discussion: "Example: reminderctl reload")
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard try output.call(.reload) != nil else { return }
        print("Config reloaded")
    }
}

/// ", next reminder Tue 2026-11-24 09:00", or nothing.
func nextText(_ item: JSONValue) -> String {
    let next = Output.when(item["nextReminder"])
    return next.isEmpty ? "" : ", next reminder \(next)"
}
