import CivilTime
import ReminderCatalog
import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

@testable import reminderctl

/// The wallet's card stack, `show`'s layout, the catalog's age and negative values, from replies
/// and inputs as the daemon and the user give them.
@Suite struct WalletAndShowTests {
    func item(_ fields: [String: JSONValue]) -> ItemView { ItemView(fields: fields) }

    func benefit(_ id: String, _ card: String, _ amount: String, status: String, days: Int64, used: String? = nil)
        -> ItemView
    {
        var fields: [String: JSONValue] = [
            "id": .string(id), "kind": .string("benefit"), "title": .string("Credit \(id)"), "card": .string(card),
            "amount": .string(amount), "period": .string("monthly"), "status": .string(status),
            "daysLeft": .integer(days), "currency": .string("USD"),
        ]
        if let used { fields["amountUsed"] = .string(used) }
        return ItemView(fields: fields)
    }

    @Test func theStackPutsValueAboutToExpireFirstThenTheMostLeft() {
        let items = [
            benefit("a1", "Big Card", "300", status: "available", days: 30),
            benefit("b1", "Urgent Card", "15", status: "expiring", days: 2),
            benefit("b2", "Urgent Card", "10", status: "used", days: 2),
            benefit("c1", "Small Card", "20", status: "available", days: 30, used: "5"),
        ]
        let stack = WalletCard.stack(items: items, feeReturns: [])
        #expect(stack.map(\.name) == ["Urgent Card", "Big Card", "Small Card"])
        #expect(stack[0].available == Money.parse("15").value)
        #expect(stack[0].usedThisPeriod == Money.parse("10").value)
        #expect(stack[0].expiring.map(\.id) == ["b1"])
        #expect(stack[2].available == Money.parse("15").value)  // 20 less the 5 used
        #expect(stack[2].usedThisPeriod == Money.parse("5").value)
    }

    @Test func theFeeLineSaysTheYearsReturnAgainstTheFee() {
        let fee = item([
            "id": .string("f1"), "kind": .string("fee"), "title": .string("Fee"), "card": .string("Big Card"),
            "amount": .string("695"), "due": .string("2027-03-15T23:59:00+00:00"), "daysLeft": .integer(113),
            "currency": .string("USD"),
        ])
        let stack = WalletCard.stack(
            items: [benefit("a1", "Big Card", "300", status: "available", days: 30), fee],
            feeReturns: [
                SummaryReply.FeeReturn(
                    card: "Big Card", redeemed: "235", currency: "USD", feeDue: "2027-03-15T23:59:00+00:00",
                    daysUntilFee: 113, fee: "695", net: "-460")
            ])
        #expect(
            stack[0].feeLine()
                == "Annual fee $695 due Mon 2027-03-15 (in 113 days); $235 back this card year, $460 more to break even"
        )
    }

    @Test func showLaysAnItemOutForAPerson() {
        let text = ItemCard.render(
            item([
                "id": .string("ufhq"), "kind": .string("benefit"), "title": .string("Uber Cash"),
                "card": .string("Amex Platinum"), "amount": .string("15"), "amountUsed": .string("5"),
                "status": .string("available"), "nextReminder": .null,
                "createdAt": .string("2026-11-01T10:00:00+00:00"),
            ]))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "Uber Cash  (ufhq, benefit)")
        #expect(lines[1].hasPrefix("  Card") && lines[1].hasSuffix("Amex Platinum"))
        #expect(lines.contains { $0.contains("Used so far") && $0.hasSuffix("5") })
        #expect(lines.contains { $0.contains("Added") && $0.hasSuffix("Sun 2026-11-01 10:00") })
        #expect(lines.contains { $0.contains("Next reminder") && $0.hasSuffix("none pending") })
        #expect(!text.contains("amountUsed") && !text.contains("createdAt"))
    }

    @Test func amountsAreInTheCurrencyTheDaemonGaveNeverAGuessedOne() {
        #expect(Output.amount(item(["amount": .string("7.5"), "currency": .string("EUR")])) == "€7.50")
        #expect(Output.amount(item(["value": .string("5"), "currency": .string("GBP")])) == "£5")
        // An item without one (a daemon of another version): the number alone, not the config's.
        #expect(Output.amount(item(["amount": .string("15")])) == "15")
        #expect(Output.amount(item([:])) == "")
    }

    @Test func anOldCatalogIsSaidSoWithHowToUpdateIt() throws {
        var catalog = try CardCatalog.bundled()
        catalog.updated = LocalDate(uncheckedYear: 2025, month: 10, day: 15)
        let warning = Catalog.staleness(catalog, today: LocalDate(uncheckedYear: 2026, month: 11, day: 22))
        #expect(warning?.contains("last updated 2025-10-15, 13 months ago") == true)
        #expect(warning?.contains("cards.json") == true)
        #expect(Catalog.staleness(catalog, today: LocalDate(uncheckedYear: 2026, month: 3, day: 1)) == nil)
    }

    @Test func aNegativeValueIsAUsageErrorNotHelp() {
        #expect(throws: Refusal.self) { try refuseNegativeValues(["pause", "-1h"]) }
        #expect(throws: Never.self) { try refuseNegativeValues(["pause", "1h", "--json"]) }
        #expect(throws: Never.self) { try refuseNegativeValues(["add", "coupon", "--", "-5 off"]) }
    }
}
