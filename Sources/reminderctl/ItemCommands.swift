import ArgumentParser
import ReminderCore
import ReminderPlatform

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add an item; prints its id and next reminder.",
        discussion: """
            Examples:
              reminderctl add benefit "Uber Cash" --card "Amex Platinum" --amount 15 --period monthly
              reminderctl add subscription Netflix --amount 15.99 --every 1mo --next 2026-12-05
              reminderctl add coupon "BOGO" --expires 2026-12-31 --code BOGO2026
              reminderctl add fee "Platinum fee" --card "Amex Platinum" --amount 695 --due 2027-03-15
              reminderctl add rebuy Coffee --every-days 30 --last-purchased 2026-11-01
            """)

    @Argument(help: "benefit, subscription, coupon, fee or rebuy.") var kind: String
    @Argument(help: "What it is, 1-100 characters.") var title: String
    @OptionGroup var item: ItemOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        var fields = item.fields.filter { $0.value != .null }
        fields["kind"] = .string(kind)
        fields["title"] = .string(title)
        guard let reply = try output.call("Add", ["item": .object(fields)]) else { return }
        let added = reply["item"] ?? .null
        let next = added["nextReminder"].map(Output.when).flatMap { $0.isEmpty ? nil : $0 } ?? "none pending"
        print("Added \(Output.string(reply["id"])): \(title) (\(kind)), next reminder \(next)")
    }
}

struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Change an item's fields; its reminders are rescheduled at once.",
        discussion: "Example: reminderctl edit ufhq --amount 17.99 --lead 3d,0d   (an empty value clears a field)")

    @Argument(help: "Item id or unique prefix.") var id: String
    @Option(help: "New title.") var title: String?
    @OptionGroup var item: ItemOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        var changes = item.fields
        if let title { changes["title"] = .string(title) }
        guard !changes.isEmpty else {
            throw Refusal.usage("edit: give at least one field to change, e.g. --amount 17.99")
        }
        guard let reply = try output.call("Edit", ["id": .string(id), "changes": .object(changes)]) else { return }
        let edited = reply["item"] ?? .null
        print(
            "Changed \(Output.string(edited["id"])): \(Output.string(edited["title"])), next reminder \(Output.when(edited["nextReminder"]).isEmpty ? "none pending" : Output.when(edited["nextReminder"]))"
        )
    }
}

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Delete an item and cancel its reminders.", discussion: "Example: reminderctl remove ufhq")
    @Argument(help: "Item id or unique prefix.") var id: String
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard let reply = try output.call("Remove", ["id": .string(id)]) else { return }
        print("Removed \(Output.string(reply["id"]))")
    }
}

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Items with status, days left and next reminder.",
        discussion: "Example: reminderctl list --kind benefit")
    @Option(help: "Only this kind.") var kind: String?
    @Flag(help: "Include used and expired coupons.") var all = false
    @OptionGroup var output: OutputOptions

    func run() throws {
        var parameters: [String: JSONValue] = ["all": .bool(all)]
        if let kind { parameters["kind"] = .string(kind) }
        guard let reply = try output.call("List", parameters) else { return }
        let items = reply["items"]?.elements ?? []
        if items.isEmpty { return print("No items. Add one with: reminderctl add KIND TITLE …") }
        var table = TextTable(headers: ["ID", "KIND", "TITLE", "STATUS", "DUE", "DAYS", "NEXT REMINDER"])
        for item in items {
            table.add([
                Output.string(item["id"]), Output.string(item["kind"]), Output.string(item["title"]),
                Output.string(item["status"]),
                Output.when(item["due"]), Output.string(item["daysLeft"]), Output.when(item["nextReminder"]),
            ])
        }
        print(table.render(), terminator: "")
    }
}

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "One item in full.", discussion: "Example: reminderctl show ufhq")
    @Argument(help: "Item id or unique prefix.") var id: String
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard let reply = try output.call("Get", ["id": .string(id)]) else { return }
        guard case .object(let fields)? = reply["item"] else { return }
        let width = fields.keys.map(\.count).max() ?? 0
        for key in fields.keys.sorted() {
            let value =
                ["due", "nextReminder", "createdAt"].contains(key)
                ? Output.when(fields[key]) : Output.string(fields[key])
            print("\(key.padding(width)) \(value)")
        }
    }
}

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add the items of a JSON file, all or none.", discussion: "Example: reminderctl import items.json")
    @Argument(help: "A JSON array of items (the export format).") var file: String
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard case .array(let items) = try readJSON(file) else {
            throw Refusal(message: "\(file): expected a JSON array of items")
        }
        guard let reply = try output.call("Import", ["items": .array(items)]) else { return }
        let ids = reply["ids"]?.elements.map { Output.string($0) } ?? []
        print(
            "Imported \(ids.count) item\(ids.count == 1 ? "" : "s")\(ids.isEmpty ? "" : ": " + ids.joined(separator: " "))"
        )
    }
}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print every item as JSON (the import format).",
        discussion: "Example: reminderctl export > items.json")
    @OptionGroup var output: OutputOptions

    func run() throws {
        let reply = try DaemonClient.call("Export")
        print(Output.json(reply["items"] ?? .array([])))
    }
}

extension String {
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
