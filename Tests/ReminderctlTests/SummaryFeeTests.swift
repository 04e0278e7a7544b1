import ReminderProtocol
import Testing

@testable import reminderctl

/// The card-fee line of `summary`: a fee still ahead is "fee due in 3 days", one passed unpaid is
/// "fee 3 days overdue" (it read "fee due 3 days overdue").
@Suite struct SummaryFeeTests {
    func feeLine(daysUntilFee: Int64) -> String {
        let reply = SummaryReply(
            currency: "USD", benefitsAvailable: "0", benefitsAvailableOther: [:], benefitCards: 1, expiring: [],
            usedRecently: [], monthlyTotal: "0", monthlyOther: [:], renewingThisWeek: [], couponsToday: [],
            couponsThisWeek: [],
            cards: [
                .init(
                    card: "Amex Gold", redeemed: "14", currency: "USD", feeDue: "2030-04-01T23:59:00Z",
                    daysUntilFee: daysUntilFee, fee: "325", net: "-311")
            ])
        let text = SummaryView(summary: reply, colour: false).render()
        return text.split(separator: "\n").first { $0.contains("Amex Gold") }.map(String.init) ?? text
    }

    @Test func aFeeAheadIsDueInSoManyDays() {
        #expect(feeLine(daysUntilFee: 3).hasSuffix("fee due ! in 3 days"))
    }

    @Test func aFeePassedUnpaidIsOverdueNotDue() {
        let line = feeLine(daysUntilFee: -3)
        #expect(line.hasSuffix("fee ‼ 3 days overdue"))
        #expect(!line.contains("fee due"))
    }
}
