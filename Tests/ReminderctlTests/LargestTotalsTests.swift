import CivilTime
import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

@testable import reminderctl

/// Totals of a thousand of the largest allowed amounts (999,999,999,999.9999) through every reply
/// that carries a total — `report`, `summary`, the wallet — written as the daemon writes them,
/// read back as this tool reads them, and printed. They once saturated at 2^63: the report was
/// refused as unreadable (exit 69) and the wallet trapped.
@Suite struct LargestTotalsTests {
    let largest = try! Money.parse("999999999999.9999").get()
    var total: Money { (0..<1_000).reduce(Money.zero) { sum, _ in sum + largest } }
    let printed = "$999,999,999,999,999.90"

    /// The parameters as bytes on the socket and read back, as reminderctl reads a reply.
    func overTheWire(_ parameters: [String: JSONValue]) throws -> [String: JSONValue] {
        guard case .success(let read) = try VarlinkReply(bytes: Array(VarlinkReply.success(parameters).bytes.dropLast()))
        else {
            Issue.record("not a success")
            return [:]
        }
        return read
    }

    @Test func aReportOfTheLargestTotalsReadsBackAndPrints() throws {
        let month = try LocalDate.parse("2030-03-01").get()
        let report = ValueReport(
            currency: "USD", cardFilter: nil,
            months: [
                .init(
                    month: month, redeemed: total, lost: total, subscriptions: total,
                    cards: [.init(card: "Big", currency: "USD", amount: total)])
            ],
            cards: [.init(card: "Big", currency: "USD", redeemed: total, lost: total, fee: largest, yearRedeemed: total)],
            subscriptions: [
                .init(
                    item: "s1", title: "Huge", currency: "USD", every: "1mo", card: nil, amount: largest,
                    monthly: largest)
            ],
            subscriptionsMonthly: total, lost: [])
        let reply = ReportReply(report: report)
        let read = try ReportReply(parameters: overTheWire(reply.parameters))
        #expect(read == reply)
        let text = ReportView(report: read.report, width: 100, unicode: true).render()
        #expect(text.contains("Subscriptions: \(printed) a month"))
    }

    @Test func aSummaryOfTheLargestTotalsReadsBackAndPrints() throws {
        let reply = SummaryReply(
            currency: "USD", benefitsAvailable: total.description, benefitsAvailableOther: ["EUR": total.description],
            benefitCards: 1_000, expiring: [], usedRecently: [], monthlyTotal: total.description, monthlyOther: [:],
            renewingThisWeek: [], couponsToday: [], couponsThisWeek: [],
            cards: [
                .init(
                    card: "Big", redeemed: total.description, currency: "USD", feeDue: "2030-04-01T23:59:00Z",
                    daysUntilFee: 22, fee: largest.description, net: (total - largest).description)
            ])
        let read = try SummaryReply(parameters: overTheWire(reply.parameters))
        #expect(read == reply)
        let text = SummaryView(summary: read, colour: false).render()
        #expect(text.contains("Benefits       \(printed) (+ €999,999,999,999,999.90) available"))
        #expect(text.contains("Subscriptions  \(printed) a month"))
    }

    @Test func aWalletOfTheLargestCreditsAddsThemUp() {
        let items = (0..<1_000).map { index in
            ItemView.reply( [
                "id": .string("c\(index)"), "kind": .string("benefit"), "title": .string("Credit \(index)"),
                "card": .string("Big"), "amount": .string(largest.description), "period": .string("monthly"),
                "status": .string("available"), "daysLeft": .integer(3), "currency": .string("USD"),
            ])
        }
        let stack = WalletCard.stack(items: items, feeReturns: [])
        #expect(stack.first?.available == total)
        #expect(stack.first?.render(colour: false).hasPrefix("Big — \(printed) left this period") == true)
    }
}
