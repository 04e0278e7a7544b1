import ArgumentParser
import ReminderCore

struct Upcoming: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Pending reminders in time order.", discussion: "Example: reminderctl upcoming --days 30")
    @Option(help: "How many days ahead (default 7).") var days: Int = 7
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard (0...3660).contains(days) else { throw Refusal.usage("--days must be between 0 and 3660") }
        guard let reply = try output.call("Upcoming", ["days": .integer(Int64(days))]) else { return }
        let rows = reply["reminders"]?.elements ?? []
        if rows.isEmpty { return print("No reminders in the next \(days) days.") }
        var table = TextTable(headers: ["WHEN", "ITEM", "TITLE", "LEAD", "DUE"])
        for row in rows {
            table.add([
                Output.when(row["fireAt"]), Output.string(row["item"]), Output.string(row["title"]),
                Output.string(row["lead"]), Output.when(row["due"]),
            ])
        }
        print(table.render(), terminator: "")
    }
}

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Why each fire time of an item is what it is.", discussion: "Example: reminderctl explain ufhq")
    @Argument(help: "Item id or unique prefix.") var id: String
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard let reply = try output.call("Explain", ["id": .string(id)]) else { return }
        let steps = reply["steps"]?.elements ?? []
        if steps.isEmpty { return print("Nothing is due for this item.") }
        var table = TextTable(headers: ["LEAD", "RULE", "COMPUTED", "DST GAP", "QUIET HOURS", "FIRES", "RESULT"])
        for step in steps {
            table.add([
                Output.string(step["lead"]), Output.string(step["rule"]), Output.when(step["computed"]),
                Output.string(step["dstGap"]),
                Output.string(step["quietHours"]), Output.when(step["fireAt"]), Output.string(step["result"]),
            ])
        }
        print("Due \(Output.when(steps.first?["due"]))")
        print(table.render(), terminator: "")
    }
}

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "What happened: fired, done, undone, snoozed, dismissed, missed, held.",
        discussion: "Examples: reminderctl history --limit 20   ·   reminderctl history --since 2026-11-01 --item k4s8")
    @Option(help: "How many entries (default 50).") var limit: Int = 50
    @Option(help: "Only entries since this date or time (2026-11-01, 2026-11-01T09:00, RFC 3339).") var since: String?
    @Option(help: "Only this item (id or unique prefix).") var item: String?
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard (1...100_000).contains(limit) else { throw Refusal.usage("--limit must be between 1 and 100000") }
        var parameters: [String: JSONValue] = ["limit": .integer(Int64(limit))]
        if let since { parameters["since"] = .string(since) }
        if let item { parameters["item"] = .string(item) }
        guard let reply = try output.call("History", parameters) else { return }
        let entries = reply["entries"]?.elements ?? []
        if entries.isEmpty { return print("No history yet.") }
        var table = TextTable(headers: ["WHEN", "EVENT", "ITEM", "TITLE", "REASON"])
        for entry in entries {
            table.add([
                Output.when(entry["at"]), Output.string(entry["event"]), Output.string(entry["item"]),
                Output.string(entry["title"]), Output.string(entry["reason"]),
            ])
        }
        print(table.render(), terminator: "")
    }
}

struct Summary: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Benefit value available, what expires this week, subscription totals.",
        discussion: "Example: reminderctl summary")
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard let reply = try output.call("Summary") else { return }
        let summary = reply["summary"] ?? .null
        let currency = Output.string(summary["currency"])
        print(
            "Benefits available this period: \(Output.string(summary["benefitsAvailable"])) \(currency) across \(Output.string(summary["cards"])) card(s)"
        )
        print("Subscriptions per month: \(Output.string(summary["subscriptionsMonthly"])) \(currency)")
        let expiring = summary["expiringThisWeek"]?.elements ?? []
        print("Expiring within 7 days: \(expiring.isEmpty ? "nothing" : "")")
        for item in expiring {
            print("  \(Output.string(item["item"]))  \(Output.string(item["title"]))  due \(Output.when(item["due"]))")
        }
    }
}

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Daemon version, uptime, items, next reminder, notification server, pause.",
        discussion: "Example: reminderctl status")
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard let reply = try output.call("Status") else { return }
        let status = reply["status"] ?? .null
        let server = status["notificationServer"]
        let serverText =
            server == nil || server == .null
            ? "none on the session bus (reminders wait for one)"
            : "\(Output.string(server?["name"])) \(Output.string(server?["version"])) (\(Output.string(server?["capabilities"])))"
        let next = Output.when(status["nextReminder"])
        let lines = [
            ("Version", Output.string(status["version"])), ("Uptime", "\(Output.string(status["uptimeSeconds"])) s"),
            ("Items", Output.string(status["items"])), ("Next reminder", next.isEmpty ? "none pending" : next),
            ("Notification server", serverText),
            ("Paused", status["paused"] == .null ? "no" : Output.when(status["paused"])),
            ("Time zone", Output.string(status["timeZone"])), ("Store", Output.string(status["store"])),
        ]
        for (label, value) in lines { print("\(label + ":")".padding(21) + value) }
    }
}
