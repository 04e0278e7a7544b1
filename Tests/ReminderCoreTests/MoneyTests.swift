import ReminderCore
import Testing

@Suite struct MoneyTests {
    /// The largest amount an item may hold, 999,999,999,999.9999, summed over a thousand synced
    /// items (a wallet, a report, the panel indicator's total): the total is exact, printed in
    /// full and read back from its text — it once saturated at 2^63 and trapped when formatted.
    @Test func sumsOfTheLargestAmountsAreExactAndPrinted() throws {
        let largest = try Money.parse("999999999999.9999").get()
        let total = (0..<1_000).reduce(Money.zero) { sum, _ in sum + largest }
        #expect(total.description == "999999999999999.90")
        #expect(total.formatted(currency: "USD") == "$999,999,999,999,999.90")
        #expect(try Money.parseTotal(total.description).get() == total)
        #expect(largest + largest - largest == largest)
        #expect((Money.zero - total).formatted(currency: "EUR") == "-€999,999,999,999,999.90")
        #expect(try Money.parseTotal("-311").get() == Money.zero - Money.parse("311").get())
    }

    /// An item's amount stays at 12 whole digits; a total read from a reply may have up to 33,
    /// and saturates rather than traps when such totals are added.
    @Test func aTotalReadFromAReplyIsBoundedAndNeverTraps() throws {
        #expect((try? Money.parse("1000000000000").get()) == nil)
        let widest = try Money.parseTotal(String(repeating: "9", count: 33) + ".9999").get()
        #expect((try? Money.parseTotal(String(repeating: "9", count: 34)).get()) == nil)
        let sum = (0..<100).reduce(Money.zero) { total, _ in total + widest }
        #expect(sum == Money(tenThousandths: .max))
        #expect(!sum.formatted(currency: "USD").isEmpty)
        #expect(Money(tenThousandths: .min) - widest == Money(tenThousandths: .min))
    }
}
