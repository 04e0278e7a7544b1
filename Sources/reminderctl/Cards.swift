import ArgumentParser
import CivilTime
import ReminderCatalog
import ReminderCore
import ReminderJSON
import ReminderPlatform

/// `reminderctl cards [SEARCH]` and `reminderctl cards show ID`.
struct Cards: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cards",
        abstract: "The card catalog by issuer, filtered by search words; `cards show ID` for one card.",
        discussion: """
            Examples:
              reminderctl cards                 every card, by issuer
              reminderctl cards sapphire        cards whose name, issuer or id match
              reminderctl cards show amex-platinum
            Your own cards or corrections go in ~/.config/reminderd/cards.json (same format, by id).
            The cards you hold, with what is left on each this period: reminderctl wallet
            """)

    @Argument(help: "Search words, or `show ID`.", completion: .custom(Completions.cardIds)) var words: [String] = []
    @OptionGroup var output: OutputOptions

    func run() throws {
        let catalog = try Catalog.load()
        let today = SystemClock.today()
        if words.first == "show" {
            guard words.count == 2 else { throw Refusal.usage(_t("usage: reminderctl cards show ID")) }
            return try show(Catalog.card(words[1], in: catalog), catalog: catalog, today: today)
        }
        let cards = catalog.cards(matching: words.joined(separator: " "))
        if output.json { return print(Output.json(.array(cards.map(json)))) }
        if cards.isEmpty { throw Refusal(message: _t("no card matches \"%1$s\"").filled(words.joined(separator: " "))) }
        var table = TextTable(headers: ["  " + _t("ID"), _t("CARD"), _t("FEE"), _t("CREDITS A YEAR"), _t("CHECKED")])
        for card in cards {
            table.add([
                "  " + card.id, card.name, usd(card.annualFee), "\(usd(card.annualValue)) (\(card.credits.count))",
                card.oldestChecked?.description ?? _t("yours"),
            ])
        }
        // The table's rows, with each issuer's name above its cards.
        let lines = table.render().split(separator: "\n", omittingEmptySubsequences: false)
        print(lines[0])
        for (index, card) in cards.enumerated() {
            if index == 0 || cards[index - 1].issuer != card.issuer { print(card.issuer) }
            print(lines[index + 1])
        }
        print(Catalog.listingNote(cards, today: today))
    }

    func show(_ card: CardCatalog.Card, catalog: CardCatalog, today: LocalDate) {
        if output.json { return print(Output.json(json(card))) }
        print(_t("%1$s (%2$s) — annual fee %3$s").filled(card.name, card.issuer, usd(card.annualFee)))
        var table = TextTable(headers: [_t("CREDIT"), _t("TITLE"), _t("AMOUNT"), _t("PER YEAR")])
        for credit in card.credits {
            table.add([
                credit.id, credit.title,
                (credit.resets == .anniversary ? _t("%1$s %2$s from anniversary") : "%1$s %2$s")
                    .filled(usd(credit.amount), credit.period.rawValue),
                usd(credit.annualValue),
            ])
        }
        print(table.render(), terminator: "")
        let net = card.annualValue - card.annualFee
        let signed = (net >= .zero ? "+" : "−") + usd(net >= .zero ? net : .zero - net)
        print(
            _t("%1$s a year in credits for a %2$s fee (%3$s if you use them all).")
                .filled(usd(card.annualValue), usd(card.annualFee), signed))
        for credit in card.credits where credit.notes != nil || credit.checked != nil {
            // A credit checked after its card says when and where.
            let checked =
                credit.checked.map { date in
                    credit.source.map { _t(" (checked %1$s, %2$s)").filled(date.description, $0) }
                        ?? _t(" (checked %1$s)").filled(date.description)
                } ?? ""
            print("  \(credit.id): \(credit.notes ?? "")\(checked)")
        }
        let anniversary = card.credits.contains { $0.resets == .anniversary }
        print(
            (anniversary
                ? _t("Add it: reminderctl add card %1$s --fee-due YYYY-MM-DD [--anniversary YYYY-MM-DD]")
                : _t("Add it: reminderctl add card %1$s --fee-due YYYY-MM-DD")).filled(card.id))
        if let checked = card.checked {
            print(_t("Terms checked %1$s; source: %2$s").filled(checked.description, card.source ?? catalog.source))
        } else {
            print(_t("Your own card, from %1$s").filled(Catalog.userPath))
        }
        if let note = Catalog.checkedNote(card, today: today) { print(note) }
    }

    func json(_ card: CardCatalog.Card) -> JSONValue {
        .object([
            "id": .string(card.id), "issuer": .string(card.issuer), "name": .string(card.name),
            "annualFee": .string(card.annualFee.description), "annualValue": .string(card.annualValue.description),
            "checked": card.checked.map { .string($0.description) } ?? .null,
            "source": card.source.map { .string($0) } ?? .null,
            "credits": .array(
                card.credits.map { credit in
                    .object([
                        "id": .string(credit.id), "title": .string(credit.title),
                        "amount": .string(credit.amount.description),
                        "period": .string(credit.period.rawValue), "resets": .string(credit.resets.rawValue),
                        "annualValue": .string(credit.annualValue.description),
                        "amountIn": credit.amountIn.isEmpty ? .null : Benefit.amountInJSON(credit.amountIn),
                        "notes": credit.notes.map { .string($0) } ?? .null,
                        "checked": card.checked(credit).map { .string($0.description) } ?? .null,
                        "source": credit.source.map { .string($0) } ?? .null,
                    ])
                }),
        ])
    }
}

/// "$2,804": the catalog's amounts are in US dollars.
func usd(_ amount: Money) -> String { amount.formatted(currency: "USD", in: TerminalLocale.money) }
