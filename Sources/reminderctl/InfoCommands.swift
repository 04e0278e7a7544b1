import ArgumentParser
import Glibc
import ReminderCore
import ReminderJSON
import ReminderPlatform
import ReminderProtocol

struct Upcoming: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upcoming",
        abstract: "Pending reminders in time order.", discussion: "Example: reminderctl upcoming --days 30")
    @Option(help: "How many days ahead (default 7).") var days: Int = 7
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard (0...3660).contains(days) else { throw Refusal.usage("--days must be between 0 and 3660") }
        guard let rows = try output.call(.upcoming(days: days), as: UpcomingReply.self)?.reminders else { return }
        if rows.isEmpty {
            let none = _n("No reminders in the next %1$d days.", "No reminders in the next %1$d days.", days)
            return print(none.filled(String(days)))
        }
        var table = TextTable(
            headers: [_t("WHEN"), _t("ITEM"), _t("TITLE"), _t("CARD"), _t("AMOUNT"), _t("LEAD"), _t("DUE")],
            flexible: [(2, 2), (3, 1)])
        for row in rows {
            table.add([
                Output.when(row.fireAt), shown(row.item), shown(row.title), shown(row.card ?? ""),
                Output.amount(row.amount ?? row.value, currency: row.currency), row.lead, Output.day(row.due),
            ])
        }
        print(table.render(), terminator: "")
    }
}

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Why each fire time of an item is what it is.", discussion: "Example: reminderctl explain ufhq")
    @Argument(
        help: "Item id, title, or the unique start of either (case and accents aside).",
        completion: .custom(Completions.itemIds))
    var id: String
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard let reply = try output.call(.explain(id: id), as: ExplainReply.self) else { return }
        if let snoozed = reply.snoozedUntil {
            print(_t("Snoozed until %1$s: no reminder before then").filled(Output.sentence(snoozed)))
        }
        guard let first = reply.steps.first else { return print(_t("Nothing is due for this item.")) }
        var table = TextTable(headers: [
            _t("LEAD"), _t("RULE"), _t("COMPUTED"), _t("DST GAP"), _t("QUIET HOURS"), _t("FIRES"), _t("RESULT"),
        ])
        for step in reply.steps {
            table.add([
                step.lead, step.rule, Output.when(step.computed), step.dstGap ? "yes" : "no", step.quietHours,
                Output.when(step.fireAt), HumanTime.inText(step.result),
            ])
        }
        print("Due \(Output.sentence(first.due))\(Explain.periodWords(id: id))")
        print(table.render(), terminator: "")
    }

    /// Why a benefit is due when it is: its period, a calendar one or one counted from its
    /// `periodStart` (a card anniversary, whose credit is due the day before the next one).
    /// Empty for the other kinds, or when the item cannot be read.
    static func periodWords(id: String) -> String {
        guard let item = try? DaemonClient.call(.get(id: id), as: ItemReply.self).item, item.kind == .benefit,
            let period = item.period
        else { return "" }
        guard let start = item.periodStart else {
            return ": the last day of its \(period) calendar period"
        }
        return ": the last day of its \(period) period counted from \(start), the day before the next one starts"
    }
}

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "What happened: fired, reshown, done, undone, snoozed, dismissed, missed, held.",
        discussion: "Examples: reminderctl history --limit 20   ·   reminderctl history --since 2026-11-01 --item k4s8")
    @Option(help: "How many entries (default 50).") var limit: Int = 50
    @Option(help: "Only entries since this date (as for add --next: today, mon, dec 5…) or time (RFC 3339).")
    var since: String?
    @Option(
        help: "Only this item (id, title, or the unique start of either).", completion: .custom(Completions.itemIds))
    var item: String?
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard (1...100_000).contains(limit) else { throw Refusal.usage("--limit must be between 1 and 100000") }
        // A natural date (today, yesterday, mon) is resolved here as every other date option's.
        var since = self.since
        if let typed = since,
            let resolved = try ResolvedDate.resolve(typed, option: "--since", today: try DaemonClient.today())
        {
            since = resolved.date.description
        }
        guard
            let entries = try output.call(.history(limit: limit, since: since, item: item), as: HistoryReply.self)?
                .entries
        else { return }
        if entries.isEmpty { return print(_t("No history yet.")) }
        print(History.table(entries), terminator: "")
    }

    static func table(_ entries: [HistoryReply.Entry], maxWidth: Int? = TextTable.terminalWidth()) -> String {
        var table = TextTable(
            headers: [_t("WHEN"), _t("EVENT"), _t("ITEM"), _t("TITLE"), _t("REASON")], flexible: [(3, 2), (4, 1)])
        for entry in entries {
            // The title and the reason may quote another device or a CalDAV server: shown, never raw.
            table.add([
                Output.when(entry.at), shown(entry.event), shown(entry.item), shown(entry.title),
                shown(HumanTime.inText(entry.reason)),
            ])
        }
        return table.render(maxWidth: maxWidth)
    }
}

struct Summary: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract:
            "Dashboard: benefit value left, what is due this week, subscriptions, coupons, each card's fee return.",
        discussion: "Example: reminderctl summary   (colour only on a terminal, never with NO_COLOR set)")
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard let summary = try output.call(.summary, as: SummaryReply.self) else { return }
        print(SummaryView(summary: summary, colour: Colour.enabled).render(), terminator: "")
    }
}

/// The human form of `summary`: urgency shown by colour and by a mark and words, so it reads
/// the same without colour.
struct SummaryView {
    let summary: SummaryReply
    let colour: Bool

    /// An amount in `currency` (the summary's own by default); negative ones with a minus sign.
    func money(_ text: String?, _ currency: String? = nil) -> String {
        guard let text else { return "" }
        return Output.money(text, currency: currency ?? summary.currency) ?? text
    }

    /// " (+ $127)" for totals in other currencies.
    func others(_ totals: [String: String]) -> String {
        guard !totals.isEmpty else { return "" }
        return " (+ " + totals.keys.sorted().map { money(totals[$0], $0) }.joined(separator: " + ") + ")"
    }

    /// "‼ 13 days overdue", "‼ today", "! in 2 days", "• in 5 days", "  in 12 days", coloured by
    /// urgency: what `list` shows overdue is overdue here too, not "today".
    func urgency(_ days: Int64) -> String {
        let words = days < 0 ? "\(-days) day\(days == -1 ? "" : "s") overdue" : Output.days(days)
        switch days {
        case ...0: return Colour.paint("‼ \(words)", "1;31", colour)
        case 1...3: return Colour.paint("! \(words)", "31", colour)
        case 4...7: return Colour.paint("• \(words)", "38;5;208", colour)
        default: return "  \(words)"
        }
    }

    /// The kind's word a Done's history reason starts with ("paid, for the occurrence due …",
    /// "rebought on …", "used"): "paid", "rebought", "used".
    static func verb(_ reason: String) -> String {
        for word in ["paid", "rebought"] where reason.hasPrefix(word) { return word }
        return "used"
    }

    func render() -> String {
        var out = ""
        let cardCount = summary.benefitCards
        out +=
            "Benefits       \(money(summary.benefitsAvailable))\(others(summary.benefitsAvailableOther)) available across \(cardCount) card\(cardCount == 1 ? "" : "s") this period\n"
        let expiring = summary.expiring
        out += "Due within 7 days\(expiring.isEmpty ? ": nothing" : "")\n"
        var table = TextTable(columns: 4)
        for entry in expiring.prefix(5) {
            let card = entry.card.map { " (\(shown($0)))" } ?? ""
            let value = entry.value.map { money($0, entry.currency) } ?? ""
            table.add(["  " + urgency(entry.daysLeft ?? 0), shown(entry.title) + card, entry.kind, value])
        }
        out += table.render()
        if expiring.count > 5 { out += "  and \(expiring.count - 5) more: reminderctl list\n" }
        if !summary.usedRecently.isEmpty {
            out +=
                "Done recently  "
                + summary.usedRecently.map { "\(shown($0.title)) \(SummaryView.verb($0.reason)) \(Output.sentence($0.at))" }
                .joined(separator: ", ") + "\n"
        }
        let renewing = summary.renewingThisWeek
        out += "Subscriptions  \(money(summary.monthlyTotal))\(others(summary.monthlyOther)) a month"
        out +=
            renewing.isEmpty
            ? "\n"
            : "; renewing this week: " + renewing.map { shown($0.title) }.joined(separator: ", ") + "\n"
        let today = summary.couponsToday
        let week = summary.couponsThisWeek
        if !today.isEmpty || !week.isEmpty {
            var parts: [String] = []
            if !today.isEmpty {
                parts.append(Colour.paint("‼ today: ", "1;31", colour) + today.map { shown($0.title) }.joined(separator: ", "))
            }
            if !week.isEmpty { parts.append("this week: " + week.map { shown($0.title) }.joined(separator: ", ")) }
            out += "Coupons        " + parts.joined(separator: " · ") + "\n"
        }
        if !summary.cards.isEmpty {
            out += "Card fees\n"
            var feeTable = TextTable(columns: 3)
            for card in summary.cards {
                var line = "\(money(card.redeemed, card.currency)) redeemed"
                if let fee = card.fee {
                    line += " − \(money(fee, card.currency)) fee"
                    if let net = card.net {
                        line +=
                            net.hasPrefix("-")
                            ? ": redeem \(money(String(net.dropFirst()), card.currency)) more to break even"
                            : " = +\(money(net, card.currency))"
                    }
                }
                feeTable.add(["  " + shown(card.card), line, "fee due " + urgency(card.daysUntilFee).trimmingCharacters()])
            }
            out += feeTable.render()
        }
        return out
    }
}

/// ANSI colour, only on a terminal and never when NO_COLOR is set (no-color.org).
enum Colour {
    static var enabled: Bool {
        isatty(STDOUT_FILENO) == 1 && environmentVariable("NO_COLOR") == nil && environmentVariable("TERM") != "dumb"
    }

    static func paint(_ text: String, _ code: String, _ on: Bool) -> String {
        on ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Daemon version, uptime, items, next reminder, notification server, pause.",
        discussion: "Example: reminderctl status")
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard let status = try output.call(.status, as: StatusReply.self) else { return }
        let serverText =
            status.notificationServer.map {
                shown("\($0.name) \($0.version) (\($0.capabilities.joined(separator: ", ")))")
            }
            ?? "none on the session bus (reminders wait for one)"
        let next = Output.sentence(status.nextReminder)
        var lines = [
            ("Version", status.version), ("Uptime", "\(status.uptimeSeconds) s"),
            ("Items", "\(status.items)"), ("Next reminder", next.isEmpty ? "no reminder pending" : next),
            ("Notification server", serverText),
            ("Paused", Status.paused(status)),
            ("Time zone", shown(status.timeZone)), ("Store", shown(status.store)),
        ]
        if status.inTurn > 0 {
            let count = "\(status.inTurn) reminder\(status.inTurn == 1 ? "" : "s")"
            lines.insert(("One at a time", "\(count) of a grouped pop-up, shown in turn"), at: 4)
        }
        for (label, value) in lines { print("\(label + ":")".padding(21) + value) }
        if let sync = SyncWording.current()?.statusLine { print("Sync:".padding(21) + sync) }
    }

    /// reminderd's own pause, or what else is holding reminders back: the desktop's
    /// do-not-disturb (the daemon holds them and sends one digest when it ends).
    static func paused(_ status: StatusReply) -> String {
        if let paused = status.paused {
            let until = paused == "until resumed" ? "until you run: reminderctl resume" : "until \(Output.sentence(paused))"
            let held = status.held == 0 ? "none yet" : "\(status.held) so far"
            return "\(until); every pop-up is held (\(held)), shown as one digest when the pause ends"
        }
        let held = status.held
        guard held > 0 else { return "no" }
        let reason = status.heldReason ?? ""
        return
            "no, but \(held) reminder\(held == 1 ? " is" : "s are") held by \(reason.isEmpty ? "the desktop's do-not-disturb" : shown(reason)); they come as one digest when it ends"
    }
}
