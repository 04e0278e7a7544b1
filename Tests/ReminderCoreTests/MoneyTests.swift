import ReminderCore
import Testing

@Suite struct MoneyTests {
    /// The largest amount an item may hold, 999,999,999,999.9999, summed over a thousand synced
    /// items (a wallet, a report, the panel indicator's total) saturates instead of trapping.
    @Test func sumsOfTheLargestAmountsSaturate() throws {
        let largest = try Money.parse("999999999999.9999").get()
        let total = (0..<1_000).reduce(Money.zero) { sum, _ in sum + largest }
        #expect(total == Money(tenThousandths: .max))
        #expect(Money(tenThousandths: .min) - largest == Money(tenThousandths: .min))
        #expect(largest + largest - largest == largest)
    }
}
