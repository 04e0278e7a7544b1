import ArgumentParser
import ReminderCore
import ReminderJSON
import ReminderPlatform
import ReminderProtocol

/// `--json`, taken by every command.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print the daemon's reply as JSON.")
    var json = false

    /// Calls the daemon; under `--json` prints the reply and returns nil, otherwise returns it
    /// for the command's human form.
    func call(_ request: ReminderRequest) throws -> [String: JSONValue]? {
        let reply = try DaemonClient.call(request)
        if json {
            print(Output.json(.object(reply)))
            return nil
        }
        return reply
    }

    /// `call`, with the reply read as `Reply`.
    func call<Reply: ReminderReply>(_ request: ReminderRequest, as: Reply.Type) throws -> Reply? {
        guard let reply = try call(request) else { return nil }
        return try Output.read { try Reply(parameters: reply) }
    }
}

/// The §2 fields as options, for `add` and `edit`.
struct ItemOptions: ParsableArguments {
    @Option(help: "Card name (benefit, subscription, fee).") var card: String?
    @Option(help: "Amount as a decimal, e.g. 15.99.", transform: TerminalLocale.amount) var amount: String?
    @Option(help: "ISO 4217 currency, e.g. EUR (the config's by default).") var currency: String?
    @Option(help: "Benefit period: monthly, quarterly, semiannual or annual.") var period: String?
    @Option(
        name: .customLong("period-start"),
        help: "Benefit: count periods from this date (a card anniversary), not the calendar (as for --next).")
    var periodStart: String?
    @Option(help: "Subscription interval, e.g. 1mo, 1y, 1w.") var every: String?
    @Option(help: "Next renewal date: YYYY-MM-DD, today, tomorrow, +3d, +2w, fri, next fri, dec 5.") var next: String?
    @Option(
        name: .customLong("trial-ends"),
        help: "Subscription: the free trial's last day (as for --next); renewals start after it (\"\" clears).")
    var trialEnds: String?
    @Option(help: "Coupon expiry: a date (as for --next) or YYYY-MM-DDTHH:MM.") var expires: String?
    @Option(help: "Coupon code.") var code: String?
    @Option(help: "Coupon value as a decimal.", transform: TerminalLocale.amount) var value: String?
    @Option(help: "Category (coupon, rebuy).") var category: String?
    @Option(help: "Fee due date (as for --next).") var due: String?
    @Option(name: .customLong("every-days"), help: "Rebuy interval in days, 1-365.") var everyDays: Int?
    @Option(name: .customLong("last-purchased"), help: "Rebuy: last bought (as for --next).") var lastPurchased: String?
    @Option(help: "Notes, up to 500 characters.") var notes: String?
    @Option(help: "Lead times overriding the config's, e.g. 7d,1d or 2h.") var lead: String?
    @Option(
        name: .customLong("repeat-every"),
        help: "Show a reminder left alone again every DURATION until acknowledged: 1m to 24h, e.g. 15m (0m: never).")
    var repeatEvery: String?
    @Option(name: .customLong("repeat-times"), help: "At most this many repeats, 1-100 (default 3).") var repeatTimes: Int?
    @Option(
        name: .customLong("amount-in"),
        help: "Benefit: a month's own amount, MONTH=AMOUNT (dec=35 or 12=35; repeatable; \"\" clears).")
    var amountIn: [String] = []

    /// The given options as §2 fields; an empty value clears the field (for `edit`).
    var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        func put(_ key: String, _ text: String?) {
            if let text { fields[key] = text.isEmpty ? .null : .string(text) }
        }
        put("card", card)
        put("amount", amount)
        put("currency", currency)
        put("period", period)
        put("periodStart", periodStart)
        put("every", every)
        put("next", next)
        put("trialEnds", trialEnds)
        put("expires", expires)
        put("code", code)
        put("value", value)
        put("category", category)
        put("due", due)
        if let everyDays { fields["everyDays"] = .integer(Int64(everyDays)) }
        put("lastPurchased", lastPurchased)
        put("notes", notes)
        put("repeatEvery", repeatEvery)
        if let repeatTimes { fields["repeatTimes"] = .integer(Int64(repeatTimes)) }
        if let lead {
            fields["lead"] =
                lead.isEmpty ? .null : .array(lead.split(separator: ",").map { .string($0.trimmingCharacters()) })
        }
        return fields
    }
}

extension ItemOptions {
    /// `--amount-in dec=35 --amount-in 6=20` as the `amountIn` field (`{"12": "35", "6": "20"}`;
    /// the daemon checks the amounts, each taken as `--amount` is: `dec=12,50` in de_DE); JSON null
    /// for `--amount-in ""` (clear), nil when not given.
    func amountsByMonth() throws -> JSONValue? {
        guard !amountIn.isEmpty else { return nil }
        if amountIn == [""] { return .null }
        var months: [String: JSONValue] = [:]
        for entry in amountIn {
            let parts = entry.split(separator: "=", maxSplits: 1).map { String($0).lowercased() }
            let number = parts.first.flatMap { Int($0) }.flatMap { (1...12).contains($0) ? $0 : nil }
            guard parts.count == 2, let month = number ?? NaturalDate.month(parts[0]) else {
                throw Refusal.usage(_t("--amount-in \"%1$s\": expected MONTH=AMOUNT, like dec=35 or 12=35").filled(entry))
            }
            months[String(month)] = .string(try TerminalLocale.amount(parts[1]))
        }
        return .object(months)
    }
}

extension ItemOptions {
    /// A rebuy's interval said as a subscription's is (`--every 2w`, `--every 30d`) becomes its
    /// `everyDays` (14, 30); a rebuy without an interval or a last purchase is refused in the
    /// options' words, not the fields' ("everyDays: missing").
    static func rebuyInterval(_ fields: inout [String: JSONValue]) throws {
        if fields["lastPurchased"] == nil {
            throw Refusal.usage(_t("add rebuy: say when you last bought it: --last-purchased today (or a date)"))
        }
        guard case .string(let every)? = fields["every"] else {
            if fields["everyDays"] == nil {
                throw Refusal.usage(_t("add rebuy: say how often you rebuy it: --every-days 30, or --every 2w"))
            }
            return
        }
        guard fields["everyDays"] == nil else { throw Refusal.usage(_t("give --every or --every-days, not both")) }
        let unit = every.last.map { $0 == "w" ? 7 : $0 == "d" ? 1 : 0 } ?? 0
        guard unit > 0, let count = Int(every.dropLast()), (1...365).contains(count * unit) else {
            throw Refusal.usage(_t("--every \"%1$s\": a rebuy's interval is days or weeks, 1 to 365 days (30d, 2w)").filled(every))
        }
        fields["every"] = nil
        fields["everyDays"] = .integer(Int64(count * unit))
    }
}
