import ArgumentParser
import CivilTime
import Glibc
import ReminderCore
import ReminderJSON
import ReminderPlatform
import ReminderProtocol

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an item (or a card's credits and fee); prints its id and next reminder.",
        discussion: """
            Examples:
              reminderctl add benefit "Uber Cash" --card "Amex Platinum" --amount 15 --period monthly
              reminderctl add subscription Netflix --amount 15.99 --every 1mo --next 2026-12-05
              reminderctl add subscription --template netflix --next 2026-12-05
              reminderctl add subscription Hulu --amount 9.99 --every 1mo --trial-ends 2026-12-20
              reminderctl add coupon "BOGO" --expires 2026-12-31 --code BOGO2026
              reminderctl add fee "Platinum fee" --card "Amex Platinum" --amount 695 --due 2027-03-15
              reminderctl add rebuy Coffee --every-days 30 --last-purchased 2026-11-01
              reminderctl add card amex-platinum --fee-due 2027-03-15 --skip equinox --skip oura
            """)

    @Argument(help: "benefit, subscription, coupon, fee, rebuy — or card.", completion: .list(Completions.addKinds))
    var kind: String
    @Argument(
        help: "What it is, 1-100 characters (for `card`: the catalog id).", completion: .custom(Completions.addTitle))
    var title: String?
    @OptionGroup var item: ItemOptions
    @Option(
        help: "Subscription: fill title, amount and interval from a template (reminderctl cards --help).",
        completion: .custom(Completions.templates))
    var template: String?
    @Flag(help: "Subscription: a free trial from today of the template's usual length (the catalog's trialDays).")
    var trial = false
    @Option(help: "Card: your name for it, shown beside the catalog's, e.g. Amex Platinum (Work).")
    var nickname: String?
    @Option(name: .customLong("fee-due"), help: "Card: the annual fee's next due date (as for --next).") var feeDue:
        String?
    @Option(
        help:
            "Card: the account anniversary (as for --next) its anniversary credits reset on; the fee date by default."
    )
    var anniversary: String?
    @Option(help: "Card: a credit id not to track (repeatable).") var skip: [String] = []
    @Flag(help: "Add it even though it is tracked already, or (a coupon) its expiry date is past.") var force = false
    @Flag(
        name: .customLong("new-card"),
        help: "The --card is a new card, though its name is a few letters from one tracked already.")
    var newCard = false
    @OptionGroup var output: OutputOptions

    func run() throws {
        let today = try DaemonClient.today()
        if kind == "card" { return try addCard(today: today) }
        if nickname != nil || feeDue != nil || anniversary != nil || !skip.isEmpty {
            throw Refusal.usage(_t("--nickname, --fee-due, --anniversary and --skip go with `add card ID`"))
        }
        let (resolved, dates) = try item.resolvedFields(today: today)
        var fields = resolved.filter { $0.value != .null }
        try ItemOptions.refusePastExpiry(fields, today: today, force: force)
        if let template {
            guard kind == "subscription" else { throw Refusal.usage(_t("--template goes with `add subscription`")) }
            let catalog = try Catalog.load()
            guard let found = catalog.subscription(id: template) else {
                throw Refusal.usage(
                    _t("no subscription template \"%1$s\"; there are %2$s")
                        .filled(template, catalog.subscriptions.map(\.id).joined(separator: ", "))
                )
            }
            fields["amount"] = fields["amount"] ?? .string(found.amount.description)
            fields["every"] = fields["every"] ?? .string(found.every.description)
            // Template prices are in US dollars unless you give your own price and currency.
            if fields["currency"] == nil && item.amount == nil { fields["currency"] = .string("USD") }
            fields["title"] = .string(title ?? found.title)
            if trial {
                guard let days = found.trialDays else {
                    throw Refusal.usage(_t("%1$s has no usual free trial in the catalog; give --trial-ends DATE").filled(template))
                }
                fields["trialEnds"] = fields["trialEnds"] ?? .string(today.adding(days: Int64(days)).description)
            }
        } else {
            guard let title else { throw Refusal.usage(_t("add: give a TITLE (or --template for a subscription)")) }
            fields["title"] = .string(title)
        }
        if trial, template == nil { throw Refusal.usage(_t("--trial goes with --template (its usual trial length)")) }
        // The first charge follows the trial's last day unless --next says otherwise.
        if case .string(let text)? = fields["trialEnds"], fields["next"] == nil,
            case .success(let trialEnds) = LocalDate.parse(text)
        {
            fields["next"] = .string(trialEnds.adding(days: 1).description)
        }
        if kind == "rebuy" { try ItemOptions.rebuyInterval(&fields) }
        fields["kind"] = .string(kind)
        for date in dates { Output.note(date.echo, json: output.json) }
        let request = ReminderRequest.add(.init(item: .object(fields), force: force, newCard: newCard))
        guard let reply = try output.call(request, as: AddReply.self) else { return }
        print(
            _t("Added %1$s: %2$s (%3$s), %4$s").filled(
                reply.id, shown(reply.item.title), kind, Output.nextReminder(reply.item)))
        Add.sayStoredDue(typed: fields["due"] ?? fields["next"], stored: reply.item.due)
        if reply.item.nextReminder == nil { Add.sayWhenNoReminder(reply.id) }
    }

    /// An item with no reminder pending: why none will come for its current occurrence and what
    /// to do (`NoReminderNote`), unless it is snoozed. Only words: the item is kept either way.
    static func sayWhenNoReminder(_ id: String) {
        guard let reply = try? DaemonClient.call(.explain(.init(id: id)), as: ExplainReply.self), reply.snoozedUntil == nil
        else { return }
        for line in NoReminderNote.lines(reply.steps, id: id, now: TestClock.process.now()) { print(line) }
    }

    /// A fee or renewal date already past is stored as the next one ahead: say so, with the
    /// date kept, rather than leave the user believing the date typed.
    static func sayStoredDue(typed: JSONValue?, stored: OffsetDateTime?) {
        guard case .string(let typed)? = typed, let stored, !stored.description.hasPrefix(typed) else { return }
        print(_t("%1$s is past; the next one is due %2$s, and that is what is stored").filled(typed, Output.dateInSentence(stored)))
    }

    /// One benefit per catalog credit and, with --fee-due, the annual fee — all or nothing. What
    /// is tracked already (the same card added before) is skipped, and said so; a card tracked in
    /// full is refused.
    func addCard(today: LocalDate) throws {
        guard let id = title else { throw Refusal.usage(_t("add card: give the card's catalog id (reminderctl cards)")) }
        if item.fields.count > 0 || template != nil {
            throw Refusal.usage(_t("add card takes --nickname, --fee-due, --anniversary and --skip only"))
        }
        let catalog = try Catalog.load()
        let card = try Catalog.card(id, in: catalog)
        let name = shown(Catalog.cardName(card, nickname: nickname))
        var feeDue = self.feeDue
        if let typed = feeDue, let resolved = try ResolvedDate.resolve(typed, option: "--fee-due", today: today) {
            feeDue = resolved.date.description
            Output.note(resolved.echo, json: output.json)
        }
        var anniversary = self.anniversary
        if let typed = anniversary,
            let resolved = try ResolvedDate.resolve(typed, option: "--anniversary", today: today)
        {
            anniversary = resolved.date.description
            Output.note(resolved.echo, json: output.json)
        }
        if let anniversary, case .failure(let error) = LocalDate.parse(anniversary) {
            throw Refusal.usage("--anniversary \(anniversary): \(error.reason)")
        }
        let wanted = try Catalog.items(
            for: card, nickname: nickname, feeDue: feeDue, anniversary: anniversary, skip: skip)
        let (items, tracked) = Catalog.untracked(wanted, existing: try Catalog.trackedItems())
        if items.isEmpty {
            throw Refusal(
                message: _n(
                    "%1$s is already tracked (%2$d item); nothing added. To start over: reminderctl remove --card \"%1$s\"",
                    "%1$s is already tracked (%2$d items); nothing added. To start over: reminderctl remove --card \"%1$s\"",
                    tracked.count
                ).filled(name, String(tracked.count)))
        }
        guard
            let ids = try output.call(.importItems(.init(items: items, state: nil, replace: false)), as: ImportReply.self)?.ids
        else {
            return
        }
        let addsFee = items.contains { $0["kind"] == .string("fee") }
        let benefits = items.count - (addsFee ? 1 : 0)
        if tracked.isEmpty {
            print(
                _n("Tracking %1$d benefit worth %2$s/year on %3$s", "Tracking %1$d benefits worth %2$s/year on %3$s", benefits)
                    .filled(String(benefits), usd(Catalog.trackedValue(card, skip: skip)), name))
        } else {
            let skipped = tracked.map { shown(Output.string($0["title"])) }.joined(separator: ", ")
            print(
                _n(
                    "%1$s was tracked already: added %2$d missing benefit, skipped %3$d already there (%4$s)",
                    "%1$s was tracked already: added %2$d missing benefits, skipped %3$d already there (%4$s)", benefits
                ).filled(name, String(benefits), String(tracked.count), skipped))
        }
        if addsFee, let feeDue, let feeId = ids.last {
            // The daemon keeps the next fee date ahead: a past one moves on a year. Say what is stored.
            let stored = try DaemonClient.call(.get(.init(id: feeId)), as: ItemReply.self).item.due
            print(_t("and its %1$s annual fee, due %2$s").filled(usd(card.annualFee), Output.dateInSentence(stored)))
            Add.sayStoredDue(typed: .string(feeDue), stored: stored)
        }
        if !addsFee, feeDue != nil {
            print(_t("Its annual fee is tracked already; change its date with: reminderctl edit ID --due YYYY-MM-DD"))
        }
        let calendarYear = Catalog.anniversaryUnknown(card, feeDue: feeDue, anniversary: anniversary, skip: skip)
        if !calendarYear.isEmpty {
            print(
                _n(
                    "%1$s resets on the card's anniversary; with no --anniversary or --fee-due it is tracked per calendar year. Set the date with: reminderctl edit ID --period-start YYYY-MM-DD",
                    "%1$s reset on the card's anniversary; with no --anniversary or --fee-due they are tracked per calendar year. Set the date with: reminderctl edit ID --period-start YYYY-MM-DD",
                    calendarYear.count
                ).filled(calendarYear.joined(separator: ", ")))
        }
        if let note = Catalog.checkedNote(card, today: today) { print(note) }
        // By title, each with its id: a name to act on (`reminderctl done "uber cash"`) beside the id.
        for (id, added) in zip(ids, items) { print("  \(id)  \(shown(Output.string(added["title"])))") }
    }
}

struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change an item's fields; its reminders are rescheduled at once.",
        discussion: "Example: reminderctl edit ufhq --amount 17.99 --lead 3d,0d   (an empty value clears a field)")

    @Argument(
        help: "Item id, title, or the unique start of either (case and accents aside).",
        completion: .custom(Completions.itemIds))
    var id: String
    @Option(help: "New title.") var title: String?
    @OptionGroup var item: ItemOptions
    @Flag(help: "Set a coupon's expiry even though the date is past.") var force = false
    @Flag(
        name: .customLong("new-card"),
        help: "The --card is a new card, though its name is a few letters from one tracked already.")
    var newCard = false
    @OptionGroup var output: OutputOptions

    func run() throws {
        let today = try DaemonClient.today()
        var (changes, dates) = try item.resolvedFields(today: today)
        if let title { changes["title"] = .string(title) }
        guard !changes.isEmpty else {
            throw Refusal.usage(_t("edit: give at least one field to change, e.g. --amount 17.99"))
        }
        try ItemOptions.refusePastExpiry(changes, today: today, force: force)
        for date in dates { Output.note(date.echo, json: output.json) }
        guard
            let edited = try output.call(
                .edit(.init(id: id, changes: .object(changes), newCard: newCard)), as: ItemReply.self)?.item
        else { return }
        print(_t("Changed %1$s: %2$s, %3$s").filled(edited.id, shown(edited.title), Output.nextReminder(edited)))
        if edited.nextReminder == nil { Add.sayWhenNoReminder(edited.id) }
    }
}

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Delete an item (or every item of a card) and cancel its reminders.",
        discussion: "Examples: reminderctl remove ufhq   ·   reminderctl remove --card \"Amex Platinum\" --yes")
    @Argument(
        help: "Item id, title, or the unique start of either (case and accents aside).",
        completion: .custom(Completions.itemIds))
    var id: String?
    @Option(
        help: "Remove the card's credits and fee (this card name), after a confirmation.",
        completion: .custom(Completions.cardNames))
    var card: String?
    @Flag(help: "With --card: do not ask.") var yes = false
    @OptionGroup var output: OutputOptions

    func run() throws {
        if let card { return try removeCard(card) }
        guard let id else { throw Refusal.usage(_t("remove: give an item id, or --card NAME")) }
        guard let reply = try output.call(.remove(.init(id: id)), as: RemoveReply.self) else { return }
        print(Remove.removed(reply))
    }

    /// Removes the card's own items — its credits and its annual fee. Subscriptions or coupons
    /// merely paid with the card are not the card's: they are listed and asked about separately
    /// (kept under --yes, and when not on a terminal).
    func removeCard(_ name: String) throws {
        let items = try DaemonClient.call(.list(.init(kind: nil, all: true)), as: ListReply.self).items
        let onCard = items.filter { $0.card?.lowercased() == name.lowercased() }
        guard !onCard.isEmpty else { throw Refusal(message: _t("no items have the card \"%1$s\"").filled(shown(name))) }
        let own = onCard.filter { $0.kind == .benefit || $0.kind == .fee }
        let paidWith = onCard.filter { !($0.kind == .benefit || $0.kind == .fee) }
        var doomed = own
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                throw Refusal(
                    message:
                        _t("remove --card asks before removing and this is not a terminal; add --yes to remove without asking")
                )
            }
            if !own.isEmpty {
                for item in own { print(Remove.line(item)) }
                let question = _n(
                    "Remove these %1$d credits and fees of %2$s?", "Remove these %1$d credits and fees of %2$s?", own.count)
                guard confirm(question.filled(String(own.count), shown(name))) else {
                    return print(_t("Nothing removed."))
                }
            }
            if !paidWith.isEmpty {
                for item in paidWith { print(Remove.line(item)) }
                if confirm(_t("These are paid with %1$s but are not its own; remove them too?").filled(shown(name))) {
                    doomed += paidWith
                }
            }
        }
        var removed: [String] = []
        for item in doomed {
            removed.append(try DaemonClient.call(.remove(.init(id: item.id)), as: RemoveReply.self).id)
        }
        let kept = paidWith.filter { item in !doomed.contains { $0.id == item.id } }
        if output.json {
            return print(
                Output.json(
                    .object([
                        "ids": .array(removed.map { .string($0) }), "kept": .array(kept.map { .string($0.id) }),
                    ])))
        }
        print(_n("Removed %1$d item of %2$s", "Removed %1$d items of %2$s", removed.count).filled(String(removed.count), shown(name)))
        if !kept.isEmpty {
            let listed = kept.map { "\(shown($0.title)) (\($0.id))" }.joined(separator: ", ")
            print(
                _n(
                    "Kept %1$d paid with it: %2$s; remove one with: reminderctl remove ID",
                    "Kept %1$d paid with it: %2$s; remove one with: reminderctl remove ID", kept.count
                ).filled(String(kept.count), listed))
        }
    }

    /// "Removed Uber Cash (benefit, Amex Platinum), k4s8" — what went, not only its id.
    static func removed(_ reply: RemoveReply) -> String {
        guard let item = reply.item else { return _t("Removed %1$s").filled(shown(reply.id)) }
        let what = [item.kindName, item.card ?? ""].filter { !$0.isEmpty }.map(shown).joined(separator: ", ")
        return _t("Removed %1$s (%2$s), %3$s").filled(shown(item.title), what, shown(reply.id))
    }

    static func line(_ item: ItemView) -> String {
        "  \(item.id)  \(item.kindName)  \(shown(item.title))"
    }
}

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Items, what is due first at the top: card, amount, status, due date, next reminder.",
        discussion: "Examples: reminderctl list --kind benefit   ·   reminderctl list --card \"Amex Platinum\"")
    @Option(help: ArgumentHelp("Only this kind.", valueName: "kind"), completion: .list(Completions.kinds))
    var kind: String?
    @Option(help: "Only the items of this card (its name, case aside).", completion: .custom(Completions.cardNames))
    var card: String?
    @Flag(help: "Include used and expired coupons.") var all = false
    @OptionGroup var output: OutputOptions

    func run() throws {
        let listed = try DaemonClient.call(.list(.init(kind: kind, all: all)), as: ListReply.self).items
        var items = listed
        if let card {
            items = items.filter { $0.card?.lowercased() == card.lowercased() }
            if items.isEmpty { throw Refusal(message: List.noCard(card, among: listed)) }
        }
        if output.json { return print(Output.json(.object(["items": .array(items.map(\.json))]))) }
        if items.isEmpty { return print(_t("No items. Add one with: reminderctl add KIND TITLE …")) }
        print(List.table(List.dueFirst(items)), terminator: "")
    }

    /// The human form. Nine columns on a 100-column terminal: the dates without their weekday,
    /// the title and the card cut to fit.
    static func table(_ items: [ItemView], maxWidth: Int? = TextTable.terminalWidth()) -> String {
        var table = TextTable(
            headers: [
                _t("ID"), _t("KIND"), _t("TITLE"), _t("CARD"), _t("AMOUNT"), _t("STATUS"), _t("DUE"), _t("WHEN"),
                _t("NEXT REMINDER"),
            ],
            flexible: [(2, 2), (3, 1)])
        for item in items {
            table.add([
                shown(item.id), item.taskList ? _t("task list") : item.kindName, shown(item.title),
                shown(item.card ?? ""), Output.amount(item),
                shown(Output.status(item)), Output.day(item.due), item.daysLeft.map(Output.days) ?? "",
                Output.compact(item.nextReminder),
            ])
        }
        return table.render(maxWidth: maxWidth)
    }

    /// "no items have the card "Amex Plat"; the cards are Amex Gold, Amex Platinum".
    static func noCard(_ card: String, among items: [ItemView]) -> String {
        let names = Set(items.compactMap(\.card).filter { !$0.isEmpty }).sorted()
        let none = _t("no items have the card \"%1$s\"").filled(shown(card))
        return none + (names.isEmpty ? "" : _t("; the cards are %1$s").filled(names.map(shown).joined(separator: ", ")))
    }
}

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "One item in full.", discussion: "Example: reminderctl show ufhq   ·   reminderctl show ufhq --json")
    @Argument(
        help: "Item id, title, or the unique start of either (case and accents aside).",
        completion: .custom(Completions.itemIds))
    var id: String
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard let reply = try output.call(.get(.init(id: id)), as: ItemReply.self) else { return }
        print(ItemCard.render(reply.item), terminator: "")
    }
}

extension String {
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
