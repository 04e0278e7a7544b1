import ArgumentParser
import CivilTime
import ReminderCore
import ReminderPlatform
import ReminderProtocol

/// `reminderctl report`: the money story over time — what was redeemed each month (a bar a
/// month), on each card, each card's year against its fee, what subscriptions cost, and what
/// expired unused. The daemon computes it (`Report`); this renders it.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract:
            "Value over time: redeemed per month and card, each card's year against its fee, subscriptions, what expired unused.",
        discussion: """
            A redemption counts in the month it was marked done; value lost counts in the month its \
            period or coupon was due.

            Examples:
              reminderctl report                      the last 12 months, every card
              reminderctl report --months 3 --card "amex gold"
              reminderctl report --json
            """)
    @Option(help: "How many months, ending with this one (1-120).") var months: Int = 12
    @Option(help: "One card: its name or the start of it (case aside).", completion: .custom(Completions.cardNames))
    var card: String?
    @OptionGroup var output: OutputOptions

    func run() throws {
        guard (1...120).contains(months) else { throw Refusal.usage(_t("--months must be between %1$d and %2$d").filled("1", "120")) }
        guard let reply = try output.call(.report(.init(months: months, card: card)), as: ReportReply.self) else { return }
        let view = ReportView(report: reply.report, width: TextTable.terminalWidth(), unicode: ReportView.unicodeLocale)
        print(view.render(), terminator: "")
    }
}

/// The human form of a `ValueReport`: a table of months with a bar each, fitted to `width`
/// (72 columns when not on a terminal), then the cards, the subscriptions and the losses.
struct ReportView {
    let report: ValueReport
    let width: Int?
    /// Block bars (`█`); `#` when the locale is not UTF-8, where a block would print as `?`.
    let unicode: Bool

    /// Whether the locale (`LC_ALL`, else `LC_CTYPE`, else `LANG`) is UTF-8.
    static var unicodeLocale: Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environmentVariable($0) }.first { !$0.isEmpty }
        let name = (locale ?? "").lowercased()
        return name.contains("utf-8") || name.contains("utf8")
    }

    /// "Nov 2026" in the terminal's language (`DateText.monthAndYear`).
    static func name(_ month: LocalDate) -> String { DateText.monthAndYear(month) }

    func money(_ amount: Money, _ currency: String? = nil) -> String {
        amount.formatted(currency: currency ?? report.currency, in: TerminalLocale.money)
    }

    /// A bar of `amount` against `most`, at most `room` wide: nothing for nothing, at least one
    /// block for any value.
    func bar(_ amount: Money, of most: Money, room: Int) -> String {
        guard amount > .zero, most > .zero, room > 0 else { return "" }
        // In floating point: amount × room could pass Int64 with the largest totals.
        let length = max(1, Int((Double(amount.tenThousandths) / Double(most.tenThousandths) * Double(room)).rounded()))
        return String(repeating: unicode ? "█" : "#", count: min(room, length))
    }

    /// `rows` with the cells of `columns` padded on the left to the column's width: amounts
    /// read best right-aligned, and a table pads on the right.
    static func rightAligned(_ rows: [[String]], columns: ClosedRange<Int>) -> [[String]] {
        var rows = rows
        for column in columns {
            let width = rows.map { DisplayWidth.of($0[column]) }.max() ?? 0
            for index in rows.indices {
                let cell = rows[index][column]
                rows[index][column] = String(repeating: " ", count: width - DisplayWidth.of(cell)) + cell
            }
        }
        return rows
    }

    /// The room left for bars beside `cells` (each row's cells; columns two apart), between 10 and 50.
    func room(beside rows: [[String]]) -> Int {
        var widths: [Int] = []
        for row in rows {
            for (column, cell) in row.enumerated() {
                if column == widths.count { widths.append(0) }
                widths[column] = max(widths[column], DisplayWidth.of(cell))
            }
        }
        let used = widths.reduce(0, +) + 2 * widths.count
        return max(10, min(50, (width ?? 72) - used))
    }

    func render() -> String {
        guard let first = report.months.first, let last = report.months.last else { return "" }
        let span =
            first == last
            ? ReportView.name(first.month)
            : "\(ReportView.name(first.month)) \(unicode ? "–" : "-") \(ReportView.name(last.month))"
        var out =
            (report.cardFilter.map {
                _t("Redeemed on %1$s by month, %2$s (amounts in %3$s)").filled(
                    $0.map(shown).joined(separator: ", "), span, report.currency)
            } ?? _t("Redeemed by month, %1$s (amounts in %2$s)").filled(span, report.currency)) + "\n"

        let most = report.months.map(\.redeemed).max() ?? .zero
        let runs = ReportView.runs(report.months)
        var room = 10
        if runs.count == 1, runs[0].empty {
            // Not one figure in the whole span: one line says so, not a table of $0 rows.
            out += _t("%1$s: nothing redeemed or lost").filled(span) + "\n"
        } else {
            // A run of months with nothing in them is one row, its span in the month column.
            var rows: [[String]] = runs.map { run in
                let (month, last) = (run.months[0], run.months[run.months.count - 1])
                let name =
                    run.months.count == 1
                    ? ReportView.name(month.month)
                    : "\(ReportView.name(month.month)) \(unicode ? "–" : "-") \(ReportView.name(last.month))"
                return [name, money(month.redeemed), money(month.lost), money(month.subscriptions)]
            }
            let total = report.months.reduce((Money.zero, Money.zero, Money.zero)) {
                ($0.0 + $1.redeemed, $0.1 + $1.lost, $0.2 + $1.subscriptions)
            }
            rows.append([_t("Total"), money(total.0), money(total.1), money(total.2)])
            let aligned = ReportView.rightAligned(
                [[_t("MONTH"), _t("REDEEMED"), _t("LOST"), _t("SUBSCRIPTIONS")]] + rows, columns: 1...3)
            let headers = aligned[0]
            rows = Array(aligned.dropFirst())
            room = self.room(beside: aligned)
            var table = TextTable(headers: headers + [""])
            for (index, row) in rows.enumerated() {
                let amount = index < runs.count ? runs[index].months[0].redeemed : .zero
                table.add(row + [bar(amount, of: most, room: room)])
            }
            out += table.render(maxWidth: nil)
        }

        if report.cards.isEmpty {
            out += "\n" + _t("No cards yet. Add one with: reminderctl add card ID --fee-due DATE (ids: reminderctl cards)") + "\n"
        }
        // Card bars on the months' scale, so that a card's month reads against the total's.
        let scale = max(most, report.months.flatMap(\.cards).map(\.amount).max() ?? .zero)
        for card in report.cards { out += "\n" + render(card, room: room, most: scale) }

        if !report.subscriptions.isEmpty {
            out += "\n" + _t("Subscriptions: %1$s a month").filled(money(report.subscriptionsMonthly)) + "\n"
            var subscriptions = TextTable(columns: 4)
            subscriptions.flexible = [(0, 2), (3, 1)]
            for subscription in report.subscriptions {
                subscriptions.add([
                    "  " + shown(subscription.title), money(subscription.amount, subscription.currency),
                    _t("every %1$s").filled(subscription.every), shown(subscription.card ?? ""),
                ])
            }
            out += subscriptions.render(maxWidth: width)
        }

        if !report.lost.isEmpty {
            let lost = report.lost.filter { $0.currency == report.currency }.reduce(Money.zero) { $0 + $1.lost }
            out += "\n" + _t("Expired unused: %1$s lost").filled(money(lost)) + "\n"
            var losses = TextTable(columns: 4)
            losses.flexible = [(1, 2), (2, 1)]
            for loss in report.lost {
                losses.add([
                    "  " + Output.day(loss.due), shown(loss.title), shown(loss.card ?? ""),
                    _t("%1$s of %2$s").filled(money(loss.lost, loss.currency), money(loss.amount, loss.currency)),
                ])
            }
            out += losses.render(maxWidth: width)
        }
        return out
    }

    /// The months in order, each alone unless it and its neighbours have nothing in them
    /// (nothing redeemed, lost or renewed): then they are one run, shown as one row.
    static func runs(_ months: [ValueReport.Month]) -> [(months: [ValueReport.Month], empty: Bool)] {
        var runs: [(months: [ValueReport.Month], empty: Bool)] = []
        for month in months {
            let empty = month.redeemed == .zero && month.lost == .zero && month.subscriptions == .zero
            if empty, let last = runs.last, last.empty {
                runs[runs.count - 1].months.append(month)
            } else {
                runs.append(([month], empty))
            }
        }
        return runs
    }

    /// A card's block: its total, a bar for each month it redeemed something (`most` filling
    /// `room`), its fee year.
    func render(_ card: ValueReport.Card, room: Int, most: Money) -> String {
        var out = _t("%1$s: %2$s redeemed").filled(shown(card.card), money(card.redeemed, card.currency))
        out += (card.lost > .zero ? _t(", %1$s expired unused").filled(money(card.lost, card.currency)) : "") + "\n"
        let months = report.months.compactMap { month in
            month.cards.first { $0.card == card.card }.map { (month.month, $0.amount) }
        }
        let rows = ReportView.rightAligned(
            months.map { ["  " + ReportView.name($0.0), money($0.1, card.currency)] }, columns: 1...1)
        var table = TextTable(columns: 3)
        for (row, month) in zip(rows, months) { table.add(row + [bar(month.1, of: most, room: room)]) }
        out += table.render(maxWidth: nil)
        if let yearRedeemed = card.yearRedeemed {
            let back = money(yearRedeemed, card.currency)
            var line = "  " + _t("This card year: %1$s back").filled(back)
            if let fee = card.fee, let net = card.net {
                line =
                    "  "
                    + (net < .zero
                        ? _t("This card year: %1$s back against the %2$s fee, %3$s more to break even")
                        : _t("This card year: %1$s back against the %2$s fee, %3$s ahead")).filled(
                            back, money(fee, card.currency), money(net < .zero ? .zero - net : net, card.currency))
            }
            if let due = card.feeDue { line += _t(" (fee due %1$s)").filled(Output.dateInSentence(due)) }
            out += line + "\n"
        }
        return out
    }
}
