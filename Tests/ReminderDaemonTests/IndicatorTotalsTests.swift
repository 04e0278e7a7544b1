import ReminderCore
import Testing

@testable import ReminderDaemon

/// The panel's tooltip total over a thousand coupons of the largest allowed value: it once
/// saturated and `Money.formatted` trapped, stopping reminderd at the import and at every start.
@Suite struct IndicatorTotalsTests {
    @Test func theTooltipTotalOfTheLargestValuesIsPrinted() throws {
        let largest = try Money.parse("999999999999.9999").get()
        let entries = (0..<1_000).map { index in
            IndicatorComposer.Entry(
                itemId: "c\(index)", due: 1_795_000_000 + 86_400, title: "Coupon \(index)", daysLeft: 1, value: largest,
                currency: "USD", expires: true, doneLabel: "Mark as used", snoozes: [], isCoupon: true)
        }
        let view = IndicatorComposer(entries: entries, walletLeft: largest + largest, currency: "USD", paused: false).view
        #expect(view.toolTipBody.hasSuffix("\n$999,999,999,999,999.90 expiring this week"))
        #expect(view.menu.contains { $0.label == "Wallet: $2,000,000,000,000 left" })
    }
}
