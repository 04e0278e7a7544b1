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
        guard (0...3660).contains(days) else { throw Refusal.usage(_t("--days must be between %1$d and %2$d").filled("0", "3660")) }
        guard let rows = try output.call(.upcoming(.init(days: days)), as: UpcomingReply.self)?.reminders else { return }
        if rows.isEmpty {
            let none = _n("No reminders in the next %1$d days.", "No reminders in the next %1$d days.", days)
            return print(none.filled(String(days)))
        }
        var table = TextTable(
            headers: [_t("WHEN"), _t("ITEM"), _t("TITLE"), _t("CARD"), _t("AMOUNT"), _t("LEAD"), _t("DUE")],
            flexible: [(2, 2), (3, 1)])
        for row in rows {
            // Another app's task has no card: its column says where it comes from.
            let card = row.taskList ? _t("task list") : shown(row.card ?? "")
            table.add([
                Output.when(row.fireAt), shown(row.item), shown(row.title), card,
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
        guard let reply = try output.call(.explain(.init(id: id)), as: ExplainReply.self) else { return }
        if let snoozed = reply.snoozedUntil {
            print(_t("Snoozed until %1$s: no reminder before then").filled(Output.sentence(snoozed)))
        }
        guard let first = reply.steps.first else { return print(_t("Nothing is due for this item.")) }
        var table = TextTable(headers: [
            _t("LEAD"), _t("RULE"), _t("COMPUTED"), _t("DST GAP"), _t("QUIET HOURS"), _t("FIRES"), _t("RESULT"),
        ])
        for step in reply.steps {
            table.add([
                step.lead, step.translatedRule, Output.when(step.computed), step.dstGap ? _t("yes") : _t("no"),
                Explain.quietHoursWords(step.quietHours), Output.when(step.fireAt),
                HumanTime.inText(step.translatedResult),
            ])
        }
        print(_t("Due %1$s%2$s").filled(Output.sentence(first.due), Explain.periodWords(id: id)))
        print(table.render(), terminator: "")
    }

    /// The quiet hours cell in the terminal's language: the daemon writes one of three phrases
    /// (`QuerySnapshot.steps`); another, from a newer daemon, is shown as it came.
    static func quietHoursWords(_ cell: String) -> String {
        switch cell {
        case "not affected": _t("not affected")
        case "moved to the end of quiet hours": _t("moved to the end of quiet hours")
        case "moved to a minute before quiet hours": _t("moved to a minute before quiet hours")
        default: cell
        }
    }

    /// Why a benefit is due when it is: its period, a calendar one or one counted from its
    /// `periodStart` (a card anniversary, whose credit is due the day before the next one).
    /// Empty for the other kinds, or when the item cannot be read.
    static func periodWords(id: String) -> String {
        guard let item = try? DaemonClient.call(.get(.init(id: id)), as: ItemReply.self).item, item.kind == .benefit,
            let period = item.period
        else { return "" }
        guard let start = item.periodStart else {
            // TRANSLATORS: %1$s is the period as the item stores it: monthly, quarterly, semiannual or annual.
            return _t(": the last day of its %1$s calendar period").filled("\(period)")
        }
        return _t(": the last day of its %1$s period counted from %2$s, the day before the next one starts").filled("\(period)", "\(start)")
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
        guard (1...100_000).contains(limit) else { throw Refusal.usage(_t("--limit must be between %1$d and %2$d").filled("1", "100000")) }
        // A natural date (today, yesterday, mon) is resolved here as every other date option's.
        var since = self.since
        if let typed = since,
            let resolved = try ResolvedDate.resolve(typed, option: "--since", today: try DaemonClient.today())
        {
            since = resolved.date.description
        }
        guard
            let entries = try output.call(.history(.init(limit: limit, since: since, item: item)), as: HistoryReply.self)?
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
        let words = days < 0 ? _n("%1$d day overdue", "%1$d days overdue", Int(-days)).filled(String(-days)) : Output.days(days)
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
        if reason.hasPrefix("paid") { return _t("paid") }
        if reason.hasPrefix("rebought") { return _t("rebought") }
        return _t("used")
    }

    func render() -> String {
        var out = ""
        // The labels' column: 15 as ever, wider for a language's longer label.
        let labels = [_t("Benefits"), _t("Done recently"), _t("Subscriptions"), _t("Coupons")]
        let width = max(15, (labels.map { DisplayWidth.of($0) }.max() ?? 0) + 2)
        func label(_ text: String) -> String { text + String(repeating: " ", count: width - DisplayWidth.of(text)) }
        let cardCount = summary.benefitCards
        out +=
            label(labels[0])
            + _n(
                "%1$s available across %2$d card this period", "%1$s available across %2$d cards this period", Int(cardCount)
            ).filled(money(summary.benefitsAvailable) + others(summary.benefitsAvailableOther), String(cardCount)) + "\n"
        let expiring = summary.expiring
        out += (expiring.isEmpty ? _t("Due within 7 days: nothing") : _t("Due within 7 days")) + "\n"
        var table = TextTable(columns: 4)
        for entry in expiring.prefix(5) {
            let card = entry.card.map { " (\(shown($0)))" } ?? ""
            let value = entry.value.map { money($0, entry.currency) } ?? ""
            table.add(["  " + urgency(entry.daysLeft ?? 0), shown(entry.title) + card, entry.kind, value])
        }
        out += table.render()
        if expiring.count > 5 {
            out += "  " + _n("and %1$d more: reminderctl list", "and %1$d more: reminderctl list", expiring.count - 5)
                .filled(String(expiring.count - 5)) + "\n"
        }
        if !summary.usedRecently.isEmpty {
            out +=
                label(labels[1])
                + summary.usedRecently.map {
                    // TRANSLATORS: one thing done recently in reminderctl summary: "Netflix paid Sun 2026-11-29 09:00".
                    _t("%1$s %2$s %3$s").filled(shown($0.title), SummaryView.verb($0.reason), Output.sentence($0.at))
                }
                .joined(separator: ", ") + "\n"
        }
        let renewing = summary.renewingThisWeek
        out += label(labels[2]) + _t("%1$s a month").filled(money(summary.monthlyTotal) + others(summary.monthlyOther))
        out +=
            renewing.isEmpty
            ? "\n"
            : _t("; renewing this week: %1$s").filled(renewing.map { shown($0.title) }.joined(separator: ", ")) + "\n"
        let today = summary.couponsToday
        let week = summary.couponsThisWeek
        if !today.isEmpty || !week.isEmpty {
            var parts: [String] = []
            if !today.isEmpty {
                parts.append(
                    Colour.paint("‼ " + _t("today: "), "1;31", colour) + today.map { shown($0.title) }.joined(separator: ", "))
            }
            if !week.isEmpty { parts.append(_t("this week: ") + week.map { shown($0.title) }.joined(separator: ", ")) }
            out += label(labels[3]) + parts.joined(separator: " · ") + "\n"
        }
        if !summary.cards.isEmpty {
            out += _t("Card fees") + "\n"
            var feeTable = TextTable(columns: 3)
            for card in summary.cards {
                var line = _t("%1$s redeemed").filled(money(card.redeemed, card.currency))
                if let fee = card.fee {
                    line += _t(" − %1$s fee").filled(money(fee, card.currency))
                    if let net = card.net {
                        line +=
                            net.hasPrefix("-")
                            ? _t(": redeem %1$s more to break even").filled(money(String(net.dropFirst()), card.currency))
                            : " = +\(money(net, card.currency))"
                    }
                }
                // "fee due in 3 days", but "fee 3 days overdue" (not "fee due 3 days overdue").
                let feeWhen = card.daysUntilFee < 0 ? _t("fee %1$s") : _t("fee due %1$s")
                feeTable.add(["  " + shown(card.card), line, feeWhen.filled(urgency(card.daysUntilFee).trimmingCharacters())])
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
            ?? _t("none on the session bus (reminders wait for one)")
        let next = Output.sentence(status.nextReminder)
        var lines = [
            (_t("Version"), status.version), (_t("Uptime"), _t("%1$d s").filled(String(status.uptimeSeconds))),
            (_t("Items"), "\(status.items)"), (_t("Next reminder"), next.isEmpty ? _t("no reminder pending") : next),
            (_t("Notification server"), serverText),
            (_t("Paused"), Status.paused(status)),
            (_t("Time zone"), shown(status.timeZone)), (_t("Store"), shown(status.store)),
        ]
        if status.inTurn > 0 {
            let count = _n(
                "%1$d reminder of a grouped pop-up, shown in turn", "%1$d reminders of a grouped pop-up, shown in turn",
                Int(status.inTurn))
            lines.insert((_t("One at a time"), count.filled(String(status.inTurn))), at: 4)
        }
        let sync = SyncWording.current()?.statusLine.map { (_t("Sync"), $0) }
        let shownLines = lines + (sync.map { [$0] } ?? [])
        // Values start in column 22 as ever; further right when a language's label is longer.
        let labels = shownLines.map { _t("%1$s:").filled($0.0) }
        let width = max(21, (labels.map { DisplayWidth.of($0) }.max() ?? 0) + 1)
        for (label, line) in zip(labels, shownLines) {
            print(label + String(repeating: " ", count: width - DisplayWidth.of(label)) + line.1)
        }
    }

    /// reminderd's own pause, or what else is holding reminders back: the desktop's
    /// do-not-disturb (the daemon holds them and sends one digest when it ends).
    static func paused(_ status: StatusReply) -> String {
        if let paused = status.paused {
            let until =
                paused == "until resumed"
                ? _t("until you run: reminderctl resume") : _t("until %1$s").filled(Output.sentence(paused))
            if status.held == 0 {
                return _t("%1$s; every pop-up is held (none yet), shown as one digest when the pause ends").filled(until)
            }
            return _n(
                "%1$s; every pop-up is held (%2$d so far), shown as one digest when the pause ends",
                "%1$s; every pop-up is held (%2$d so far), shown as one digest when the pause ends", Int(status.held)
            ).filled(until, String(status.held))
        }
        let held = status.held
        guard held > 0 else { return _t("no") }
        let reason = status.heldReason ?? ""
        let holder = reason.isEmpty ? _t("the desktop's do-not-disturb") : shown(reason)
        return _n(
            "no, but %1$d reminder is held by %2$s; they come as one digest when it ends",
            "no, but %1$d reminders are held by %2$s; they come as one digest when it ends", Int(held)
        ).filled(String(held), holder)
    }
}
