import CivilTime
import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

@testable import reminderctl

/// `reminderctl report`'s human form (bars fitted to the width, `#` outside UTF-8 locales) and
/// the `Report` reply it reads, which `--json` prints.
@Suite struct ReportViewTests {
    func money(_ text: String) -> Money { try! Money.parse(text).get() }
    func month(_ text: String) -> LocalDate { try! LocalDate.parse(text + "-01").get() }

    var report: ValueReport {
        let gold = { (amount: String) in
            [ValueReport.CardAmount(card: "Amex Gold", currency: "USD", amount: money(amount))]
        }
        return ValueReport(
            currency: "USD", cardFilter: nil,
            months: [
                .init(
                    month: month("2030-01"), redeemed: money("14"), lost: money("6"), subscriptions: money("17.99"),
                    cards: gold("14")),
                .init(
                    month: month("2030-02"), redeemed: .zero, lost: money("25"), subscriptions: money("17.99"),
                    cards: []),
                .init(
                    month: month("2030-03"), redeemed: money("24"), lost: .zero, subscriptions: money("17.99"),
                    cards: gold("24")),
            ],
            cards: [
                .init(
                    card: "Amex Gold", currency: "USD", redeemed: money("38"), lost: money("26"), fee: money("325"),
                    feeDue: "2030-04-25T23:59:00-04:00", yearRedeemed: money("48"))
            ],
            subscriptions: [
                .init(
                    item: "s1", title: "Netflix", currency: "USD", every: "1mo", card: nil, amount: money("17.99"),
                    monthly: money("17.99"))
            ],
            subscriptionsMonthly: money("17.99"),
            lost: [
                .init(
                    item: "b2", title: "Dining credit", kind: "benefit", currency: "USD", card: "Amex Gold",
                    due: "2030-01-31T23:59:00-05:00", amount: money("10"), lost: money("6"))
            ])
    }

    func line(_ text: String, startingWith prefix: String) -> String {
        text.split(separator: "\n").map(String.init).first { $0.hasPrefix(prefix) } ?? ""
    }

    func bar(_ line: String) -> Int { line.filter { $0 == "█" || $0 == "#" }.count }

    @Test func eachMonthHasABarScaledToTheBestMonthAndFittedToTheWidth() {
        let text = ReportView(report: report, width: 60, unicode: true).render()
        #expect(text.hasPrefix("Redeemed by month, Jan 2030 – Mar 2030 (amounts in USD)\n"))
        let march = line(text, startingWith: "Mar 2030")
        // The best month's bar takes the room left: its line is exactly the terminal's width.
        #expect(DisplayWidth.of(march) == 60)
        #expect(march.contains("$24") && march.hasSuffix("█"))
        let longest = bar(march)
        #expect(bar(line(text, startingWith: "Jan 2030")) == (14 * longest + 12) / 24)
        #expect(bar(line(text, startingWith: "Feb 2030")) == 0)
        #expect(line(text, startingWith: "Total").contains("$38"))
        for row in text.split(separator: "\n") where bar(String(row)) > 0 {
            #expect(DisplayWidth.of(String(row)) <= 60)
        }
        // Not on a terminal: 72 columns; on a very wide one, bars of at most 50.
        #expect(
            DisplayWidth.of(
                line(ReportView(report: report, width: nil, unicode: true).render(), startingWith: "Mar 2030")) == 72)
        #expect(
            bar(line(ReportView(report: report, width: 300, unicode: true).render(), startingWith: "Mar 2030")) == 50)
    }

    /// A new user's first report: twelve months with nothing in them read as one line, and a
    /// run of empty months inside a report as one row.
    @Test func monthsWithNothingInThemAreOneLine() {
        let empty = (0..<12).map {
            ValueReport.Month(
                month: month("2025-12").adding(months: $0), redeemed: .zero, lost: .zero, subscriptions: .zero,
                cards: [])
        }
        var nothing = report
        nothing.months = empty
        let text = ReportView(report: nothing, width: 80, unicode: true).render()
        #expect(
            text.hasPrefix(
                "Redeemed by month, Dec 2025 – Nov 2026 (amounts in USD)\nDec 2025 – Nov 2026: nothing redeemed or lost\n"))
        #expect(!text.contains("MONTH") && !text.contains("Total"))

        var some = report
        some.months = Array(empty.prefix(11)) + [report.months[2]]
        some.months[11].month = month("2026-11")
        let lines = ReportView(report: some, width: 80, unicode: true).render().split(separator: "\n").map(String.init)
        #expect(lines[2].hasPrefix("Dec 2025 – Oct 2026") && lines[2].contains("$0"))
        #expect(lines[3].hasPrefix("Nov 2026") && lines[3].contains("$24"))
        #expect(lines[4].hasPrefix("Total"))
    }

    @Test func aLocaleWithoutUTF8GetsHashBars() {
        let text = ReportView(report: report, width: 60, unicode: false).render()
        #expect(!text.contains("█") && !text.contains("–"))
        #expect(line(text, startingWith: "Mar 2030").hasSuffix("#"))
        #expect(text.hasPrefix("Redeemed by month, Jan 2030 - Mar 2030"))
    }

    @Test func cardsSubscriptionsAndLossesFollowTheMonths() {
        let text = ReportView(report: report, width: 100, unicode: true).render()
        #expect(text.contains("\nAmex Gold: $38 redeemed, $26 expired unused\n"))
        #expect(line(text, startingWith: "  Mar 2030").contains("$24"))
        // A card's bars are on the months' scale: its $24 March as long as March's total.
        #expect(bar(line(text, startingWith: "  Mar 2030")) == bar(line(text, startingWith: "Mar 2030")))
        #expect(
            text.contains(
                "  This card year: $48 back against the $325 fee, $277 more to break even (fee due Thu 2030-04-25)\n"))
        #expect(text.contains("\nSubscriptions: $17.99 a month\n"))
        #expect(line(text, startingWith: "  Netflix").contains("every 1mo"))
        #expect(text.contains("\nExpired unused: $6 lost\n"))
        #expect(line(text, startingWith: "  2030-01-31").contains("$6 of $10"))
    }

    /// What `--json` prints: the reply's shape, read back to the same report.
    @Test func theReplyKeepsItsShapeAndReadsBack() throws {
        let reply = ReportReply(report: report)
        guard case .object(let fields)? = reply.parameters["report"] else {
            Issue.record("no report object")
            return
        }
        #expect(fields.keys.sorted() == ["cardFilter", "cards", "currency", "lost", "months", "subscriptions"])
        guard case .array(let months)? = fields["months"], case .object(let march)? = months.last else {
            Issue.record("no months")
            return
        }
        #expect(march["month"] == .string("2030-03") && march["redeemed"] == .string("24"))
        guard case .array(let cards)? = fields["cards"], case .object(let gold)? = cards.first else {
            Issue.record("no cards")
            return
        }
        #expect(gold["net"] == .string("-277") && gold["yearRedeemed"] == .string("48"))
        #expect(try ReportReply(parameters: reply.parameters) == reply)
    }
}
