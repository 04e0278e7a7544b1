import ArgumentParser
import ReminderCore
import ReminderJSON
import ReminderPlatform
import ReminderProtocol

/// `reminderctl wallet [CARD]`: the cards you hold, like a wallet's card stack — for each card,
/// what is left to use this period, what runs out within a week, what was used, and the annual
/// fee against what the card gave back this card year. The card with value about to run out
/// comes first, then the one with the most left.
struct Wallet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wallet",
        abstract: "Your cards: value left this period, what expires soon, what was used, the fee's return.",
        discussion: """
            Examples:
              reminderctl wallet                   every card you hold, most urgent first
              reminderctl wallet "amex plat"       one card (by name or the start of its name)
            """)
    @Argument(help: "A card's name, or the start of it (case aside).", completion: .custom(Completions.cardNames))
    var card: String?
    @OptionGroup var output: OutputOptions

    func run() throws {
        let items = try DaemonClient.call(.list(.init(kind: nil, all: true)), as: ListReply.self).items
        let feeReturns = try DaemonClient.call(.summary, as: SummaryReply.self).cards
        var cards = WalletCard.stack(items: items, feeReturns: feeReturns)
        if let card {
            let wanted = card.lowercased()
            let exact = cards.filter { $0.name.lowercased() == wanted }
            cards = exact.isEmpty ? cards.filter { $0.name.lowercased().hasPrefix(wanted) } : exact
            if cards.isEmpty { throw Refusal(message: List.noCard(card, among: items)) }
        }
        if output.json { return print(Output.json(.object(["cards": .array(cards.map(\.json))]))) }
        if cards.isEmpty {
            return print(
                _t("No cards yet. Add one with: reminderctl add card ID --fee-due DATE (ids: reminderctl cards)"))
        }
        print(cards.map { $0.render(colour: Colour.enabled) }.joined(separator: "\n"), terminator: "")
    }
}

/// One card of the wallet, gathered from the items on it and the summary's fee return.
struct WalletCard {
    struct Credit {
        let id: String
        let title: String
        let left: Money
        let amount: Money
        let period: String
        let status: String
        let daysLeft: Int64?
    }

    let name: String
    let currency: String
    var credits: [Credit] = []
    var usedThisPeriod = Money.zero
    /// The fee item's amount and due time, and the summary's redeemed/net for the card.
    var fee: ItemView?
    var feeReturn: SummaryReply.FeeReturn?

    var available: Money { credits.reduce(Money.zero) { $0 + $1.left } }
    var expiring: [Credit] { credits.filter { $0.left > .zero && ($0.daysLeft ?? .max) <= 7 } }
    var soonest: Int64 { expiring.compactMap(\.daysLeft).min() ?? .max }

    /// Every card named by a benefit or a fee, most urgent (value expiring soonest) first, then
    /// most value left, then by name.
    static func stack(items: [ItemView], feeReturns: [SummaryReply.FeeReturn]) -> [WalletCard] {
        var cards: [String: WalletCard] = [:]
        for item in items {
            guard let name = item.card, !name.isEmpty, item.kind == .benefit || item.kind == .fee else { continue }
            var card = cards[name] ?? WalletCard(name: name, currency: item.currency ?? "")
            if item.kind == .fee {
                card.fee = item
            } else if let amount = item.amountThisPeriod ?? item.amount {
                // What is left is the daemon's figure (`Benefit.amountLeft`, as summary and the
                // menu count it); what is used is the rest of the period's amount.
                let left = item.amountLeft ?? amount
                card.usedThisPeriod = card.usedThisPeriod + (amount - left)
                card.credits.append(
                    Credit(
                        id: item.id, title: item.title, left: left, amount: amount, period: item.period?.rawValue ?? "",
                        status: item.status.rawValue, daysLeft: item.daysLeft))
            }
            cards[name] = card
        }
        for entry in feeReturns where cards[entry.card] != nil { cards[entry.card]?.feeReturn = entry }
        return cards.values.sorted {
            ($0.soonest, Money.zero - $0.available, $0.name) < ($1.soonest, Money.zero - $1.available, $1.name)
        }
    }

    func money(_ amount: Money) -> String { amount.formatted(currency: currency, in: TerminalLocale.money) }

    func money(_ text: String?) -> String {
        guard let text else { return "" }
        return Output.money(text, currency: currency) ?? text
    }

    func render(colour: Bool) -> String {
        var out = Colour.paint(shown(name), "1", colour) + _t(" — %1$s left this period").filled(money(available))
        out += (usedThisPeriod > .zero ? _t(", %1$s used").filled(money(usedThisPeriod)) : "") + "\n"
        if !expiring.isEmpty {
            let parts = expiring.sorted { ($0.daysLeft ?? 0) < ($1.daysLeft ?? 0) }.map { credit in
                "\(shown(credit.title)) \(money(credit.left)) (\(WalletCard.days(credit.daysLeft ?? 0)))"
            }
            out +=
                "  " + Colour.paint(_t("Expires within 7 days:"), "31", colour) + " " + parts.joined(separator: ", ")
                + "\n"
        }
        var table = TextTable(headers: ["  " + _t("LEFT"), _t("OF"), _t("CREDIT"), _t("PERIOD"), _t("STATUS"), _t("RESETS")], flexible: [(2, 1)])
        // What is left first, soonest to reset first; what is used up below.
        func order(_ credit: Credit) -> (Int, Int64) { (credit.left > .zero ? 0 : 1, credit.daysLeft ?? .max) }
        for credit in credits.sorted(by: { order($0) < order($1) }) {
            table.add([
                "  " + money(credit.left), money(credit.amount), shown(credit.title), shown(credit.period), credit.status,
                credit.daysLeft.map(WalletCard.days) ?? "",
            ])
        }
        if !credits.isEmpty { out += table.render() }
        out += "  " + feeLine() + "\n"
        return out
    }

    /// "Annual fee $695 due Mon 2027-03-15 (in 113 days); $235 back this card year, $460 more to
    /// break even".
    func feeLine() -> String {
        guard let fee else {
            return _t("No annual fee tracked (add it: reminderctl add fee …, or add card ID --fee-due DATE)")
        }
        var line = _t("Annual fee %1$s due %2$s").filled(fee.amount.map(money) ?? "", Output.dateInSentence(fee.due))
        if let days = fee.daysLeft { line += " (\(WalletCard.days(days)))" }
        if let feeReturn {
            line += _t("; %1$s back this card year").filled(money(feeReturn.redeemed))
            if let net = feeReturn.net {
                line +=
                    net.hasPrefix("-")
                    ? _t(", %1$s more to break even").filled(money(String(net.dropFirst())))
                    : _t(", %1$s ahead of the fee").filled(money(net))
            }
        }
        return line
    }

    static func days(_ days: Int64) -> String {
        days <= 0 ? _t("today") : days == 1 ? _t("tomorrow") : _n("in %1$d days", "in %1$d days", Int(days)).filled(String(days))
    }

    var json: JSONValue {
        var fields: [String: JSONValue] = [
            "card": .string(name), "currency": .string(currency), "available": .string(available.description),
            "usedThisPeriod": .string(usedThisPeriod.description),
            "expiringWithin7Days": .array(expiring.map { .string($0.id) }),
            "credits": .array(
                credits.map { credit in
                    .object([
                        "item": .string(credit.id), "title": .string(credit.title),
                        "left": .string(credit.left.description), "amount": .string(credit.amount.description),
                        "period": .string(credit.period), "status": .string(credit.status),
                        "daysLeft": credit.daysLeft.map { .integer($0) } ?? .null,
                    ])
                }),
            "fee": .null,
        ]
        if let fee {
            fields["fee"] = .object([
                "item": .string(fee.id), "amount": .optional(fee.amount), "due": .optional(fee.due),
                "daysLeft": fee.daysLeft.map { .integer($0) } ?? .null, "redeemed": .optional(feeReturn?.redeemed),
                "net": .optional(feeReturn?.net),
            ])
        }
        return .object(fields)
    }
}

extension Result {
    var value: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}
