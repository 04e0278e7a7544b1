import ArgumentParser
import Glibc
import ReminderCore
import ReminderPlatform

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add an item (or a card's credits and fee); prints its id and next reminder.",
        discussion: """
            Examples:
              reminderctl add benefit "Uber Cash" --card "Amex Platinum" --amount 15 --period monthly
              reminderctl add subscription Netflix --amount 15.99 --every 1mo --next 2026-12-05
              reminderctl add subscription --template netflix --next 2026-12-05
              reminderctl add coupon "BOGO" --expires 2026-12-31 --code BOGO2026
              reminderctl add fee "Platinum fee" --card "Amex Platinum" --amount 695 --due 2027-03-15
              reminderctl add rebuy Coffee --every-days 30 --last-purchased 2026-11-01
              reminderctl add card amex-platinum --fee-due 2027-03-15 --skip equinox --skip oura
            """)

    @Argument(help: "benefit, subscription, coupon, fee, rebuy — or card.") var kind: String
    @Argument(help: "What it is, 1-100 characters (for `card`: the catalog id).") var title: String?
    @OptionGroup var item: ItemOptions
    @Option(help: "Subscription: fill title, amount and interval from a template (reminderctl cards --help).")
    var template: String?
    @Option(help: "Card: the name to show instead of the catalog's.") var nickname: String?
    @Option(name: .customLong("fee-due"), help: "Card: the annual fee's next due date, YYYY-MM-DD.") var feeDue: String?
    @Option(help: "Card: a credit id not to track (repeatable).") var skip: [String] = []
    @OptionGroup var output: OutputOptions

    func run() throws {
        if kind == "card" { return try addCard() }
        if nickname != nil || feeDue != nil || !skip.isEmpty {
            throw Refusal.usage("--nickname, --fee-due and --skip go with `add card ID`")
        }
        var fields = item.fields.filter { $0.value != .null }
        if let template {
            guard kind == "subscription" else { throw Refusal.usage("--template goes with `add subscription`") }
            let catalog = try Catalog.load()
            guard let found = catalog.subscription(id: template) else {
                throw Refusal.usage(
                    "no subscription template \"\(template)\"; there are \(catalog.subscriptions.map(\.id).joined(separator: ", "))"
                )
            }
            fields["amount"] = fields["amount"] ?? .string(found.amount.description)
            fields["every"] = fields["every"] ?? .string(found.every.description)
            // Template prices are in US dollars unless you give your own price and currency.
            if fields["currency"] == nil && item.amount == nil { fields["currency"] = .string("USD") }
            fields["title"] = .string(title ?? found.title)
        } else {
            guard let title else { throw Refusal.usage("add: give a TITLE (or --template for a subscription)") }
            fields["title"] = .string(title)
        }
        fields["kind"] = .string(kind)
        guard let reply = try output.call("Add", ["item": .object(fields)]) else { return }
        let added = reply["item"] ?? .null
        let next = Output.when(added["nextReminder"])
        print(
            "Added \(Output.string(reply["id"])): \(Output.string(added["title"])) (\(kind)), next reminder \(next.isEmpty ? "none pending" : next)"
        )
    }

    /// One benefit per catalog credit and, with --fee-due, the annual fee — all or nothing. What
    /// is tracked already (the same card added before) is skipped, and said so; a card tracked in
    /// full is refused.
    func addCard() throws {
        guard let id = title else { throw Refusal.usage("add card: give the card's catalog id (reminderctl cards)") }
        if item.fields.count > 0 || template != nil {
            throw Refusal.usage("add card takes --nickname, --fee-due and --skip only")
        }
        let card = try Catalog.card(id, in: Catalog.load())
        let name = nickname ?? card.name
        let wanted = try Catalog.items(for: card, nickname: nickname, feeDue: feeDue, skip: skip)
        let (items, tracked) = Catalog.untracked(wanted, existing: try Catalog.trackedItems())
        if items.isEmpty {
            throw Refusal(
                message:
                    "\(name) is already tracked (\(tracked.count) item\(tracked.count == 1 ? "" : "s")); nothing added. "
                    + "To start over: reminderctl remove --card \"\(name)\"")
        }
        guard let reply = try output.call("Import", ["items": .array(items)]) else { return }
        let ids = reply["ids"]?.elements.map { Output.string($0) } ?? []
        let addsFee = items.contains { $0["kind"] == .string("fee") }
        let benefits = items.count - (addsFee ? 1 : 0)
        if tracked.isEmpty {
            print(
                "Tracking \(benefits) benefit\(benefits == 1 ? "" : "s") worth \(usd(Catalog.trackedValue(card, skip: skip)))/year on \(name)"
            )
        } else {
            print(
                "\(name) was tracked already: added \(benefits) missing benefit\(benefits == 1 ? "" : "s"), skipped \(tracked.count) already there (\(tracked.map { Output.string($0["title"]) }.joined(separator: ", ")))"
            )
        }
        if addsFee, let feeDue { print("and its \(usd(card.annualFee)) annual fee, due \(feeDue)") }
        if !addsFee, feeDue != nil {
            print("Its annual fee is tracked already; change its date with: reminderctl edit ID --due YYYY-MM-DD")
        }
        print("Ids: \(ids.joined(separator: " "))")
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
        abstract: "Delete an item (or every item of a card) and cancel its reminders.",
        discussion: "Examples: reminderctl remove ufhq   ·   reminderctl remove --card \"Amex Platinum\" --yes")
    @Argument(help: "Item id or unique prefix.") var id: String?
    @Option(help: "Remove every item whose card is this name, after a confirmation.") var card: String?
    @Flag(help: "With --card: do not ask.") var yes = false
    @OptionGroup var output: OutputOptions

    func run() throws {
        if let card { return try removeCard(card) }
        guard let id else { throw Refusal.usage("remove: give an item id, or --card NAME") }
        guard let reply = try output.call("Remove", ["id": .string(id)]) else { return }
        print("Removed \(Output.string(reply["id"]))")
    }

    func removeCard(_ name: String) throws {
        let items = try DaemonClient.call("List", ["all": .bool(true)])["items"]?.elements ?? []
        let matching = items.filter { Output.string($0["card"]).lowercased() == name.lowercased() }
        guard !matching.isEmpty else { throw Refusal(message: "no items have the card \"\(name)\"") }
        if !yes {
            for item in matching {
                print("  \(Output.string(item["id"]))  \(Output.string(item["kind"]))  \(Output.string(item["title"]))")
            }
            guard confirm("Remove these \(matching.count) items of \(name)?") else {
                throw Refusal(message: "nothing removed (add --yes to remove without asking)")
            }
        }
        var removed: [JSONValue] = []
        for item in matching {
            removed.append(try DaemonClient.call("Remove", ["id": item["id"] ?? .null])["id"] ?? .null)
        }
        if output.json { return print(Output.json(.object(["ids": .array(removed)]))) }
        print("Removed \(removed.count) items of \(name)")
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
        abstract: "Add the items of a JSON file, all or none.",
        discussion: """
            Example: reminderctl import items.json
            A file over 1 MiB (the daemon's limit for one request) goes in batches, each all or
            none, after every item is checked. If the daemon refuses a batch, the items before it
            stay imported and are listed; nothing of that batch or after it is added.
            """)
    @Argument(help: "A JSON array of items (the export format).") var file: String
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard case .array(let items) = try readJSON(file) else {
            throw Refusal(message: "\(file): expected a JSON array of items")
        }
        let ids = try ImportBatches.run(items, file: file)
        if output.json { return print(Output.json(.object(["ids": .array(ids.map { .string($0) })]))) }
        print(
            "Imported \(ids.count) item\(ids.count == 1 ? "" : "s")\(ids.isEmpty ? "" : ": " + ids.joined(separator: " "))"
        )
    }
}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print every item as JSON (the import format), or as an iCalendar file.",
        discussion: """
            Examples:
              reminderctl export > items.json
              reminderctl export --ics --days 365 > reminders.ics
            With --ics: a repeating item is one event with a recurrence rule (RRULE) and one
            alarm per lead time; where, in the next --days days, reminderd would remind at other
            times (quiet hours, a DST gap, a reminder before the item was added), that occurrence
            gets its own alarms at exactly the times reminderd (and `plan`) computes. A coupon
            or a rebuy item is one event. Done is not taken into account, as with `plan`.
            """)
    @Flag(help: "Write RFC 5545 iCalendar instead of JSON.") var ics = false
    @Option(help: "With --ics: how many days ahead (default 365).") var days: Int = 365
    @OptionGroup var output: OutputOptions

    func run() throws {
        let reply = try DaemonClient.call("Export")
        guard ics else { return print(Output.json(reply["items"] ?? .array([]))) }
        guard (1...3660).contains(days) else { throw Refusal.usage("--days must be between 1 and 3660") }
        let configuration = try ConfigLoader.load(path: ConfigFile.defaultPathIfPresent())
        let zone: TimeZoneRules
        do { zone = try ZoneDatabase.shared.zone(configured: configuration.timeZone) } catch {
            throw Refusal(message: "timeZone: \(error)")
        }
        var items: [Item] = []
        for (index, element) in (reply["items"]?.elements ?? []).enumerated() {
            do { items.append(try Item(json: element, path: "items[\(index)]", context: .init(zone: zone))) } catch {
                throw Refusal(message: "\(error)")
            }
        }
        let now = Int64(time(nil))
        let planner = Planner(configuration: configuration, zone: zone)
        print(
            CalendarExport.ics(items: items, planner: planner, from: now, to: now + Int64(days) * 86_400),
            terminator: "")
    }
}

extension String {
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
