import CivilTime
import ReminderCatalog
import ReminderCore
import ReminderJSON
import ReminderPlatform
import ReminderProtocol
import Testing

@testable import reminderctl

/// The wallet's card stack, `show`'s layout, the catalog's age and negative values, from replies
/// and inputs as the daemon and the user give them.
@Suite struct WalletAndShowTests {
    func item(_ fields: [String: JSONValue]) -> ItemView { ItemView.reply(fields) }

    /// A benefit as the daemon lists it: `left` is its `amountLeft` (the whole amount by default).
    func benefit(
        _ id: String, _ card: String, _ amount: String, status: String, days: Int64, used: String? = nil,
        left: String? = nil
    ) -> ItemView {
        var fields: [String: JSONValue] = [
            "id": .string(id), "kind": .string("benefit"), "title": .string("Credit \(id)"), "card": .string(card),
            "amount": .string(amount), "period": .string("monthly"), "status": .string(status),
            "daysLeft": .integer(days), "currency": .string("USD"), "amountLeft": .string(left ?? amount),
        ]
        if let used { fields["amountUsed"] = .string(used) }
        return ItemView.reply(fields)
    }

    @Test func theStackPutsValueAboutToExpireFirstThenTheMostLeft() {
        let items = [
            benefit("a1", "Big Card", "300", status: "available", days: 30),
            benefit("b1", "Urgent Card", "15", status: "expiring", days: 2),
            benefit("b2", "Urgent Card", "10", status: "used", days: 2, left: "0"),
            benefit("c1", "Small Card", "20", status: "available", days: 30, used: "5", left: "15"),
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
                "amountLeft": .string("10"), "currency": .string("USD"), "status": .string("available"),
                "due": .string("2026-11-30T23:59:00+00:00"), "daysLeft": .integer(-2), "nextReminder": .null,
                "createdAt": .string("2026-11-01T10:00:00+00:00"),
            ]))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "Uber Cash  (ufhq, benefit)")
        #expect(lines[1].hasPrefix("  Card") && lines[1].hasSuffix("Amex Platinum"))
        #expect(lines.contains { $0.contains("Used so far") && $0.hasSuffix("$5") })
        #expect(lines.contains { $0.contains("Left this period") && $0.hasSuffix("$10") })
        #expect(lines.contains { $0.contains("Amount") && $0.hasSuffix("$15") })
        #expect(lines.contains { $0.contains("Due") && $0.hasSuffix("Mon 2026-11-30 23:59 (2 days ago)") })
        #expect(!text.contains("Days left"))
        #expect(lines.contains { $0.contains("Added") && $0.hasSuffix("Sun 2026-11-01 10:00") })
        #expect(lines.contains { $0.contains("Next reminder") && $0.hasSuffix("no reminder pending") })
        #expect(!text.contains("amountUsed") && !text.contains("createdAt"))
    }

    /// A subscription whose free trial was cancelled: the daemon says `expired` (it has no
    /// occurrence left), which `list --all` and `show` printed as it came; they say "cancelled".
    @Test func aCancelledFreeTrialReadsCancelledNotExpired() {
        let hulu = item([
            "id": .string("h1"), "kind": .string("subscription"), "title": .string("Hulu"), "amount": .string("9.99"),
            "every": .string("1mo"), "next": .string("2030-01-22"), "trialEnds": .string("2030-01-21"),
            "cancelled": .string("2030-01-20"), "status": .string("expired"), "currency": .string("USD"),
            "nextReminder": .null,
        ])
        let row = List.table([hulu], maxWidth: 120).split(separator: "\n").map(String.init)[1]
        #expect(row.hasSuffix(" cancelled") && !row.contains("expired"), "\(row)")
        let status = ItemCard.render(hulu).split(separator: "\n").first { $0.contains("Status") }
        #expect(status?.hasSuffix("cancelled") == true, "\(status ?? "")")
    }

    @Test func amountsAreInTheCurrencyTheDaemonGaveNeverAGuessedOne() {
        #expect(Output.amount(item(["amount": .string("7.5"), "currency": .string("EUR")])) == "€7.50")
        #expect(Output.amount(item(["value": .string("5"), "currency": .string("GBP")])) == "£5")
        // An item without one (a daemon of another version): the number alone, not the config's.
        #expect(Output.amount(item(["amount": .string("15")])) == "15")
        #expect(Output.amount(item([:])) == "")
    }

    /// A card's terms checked long ago are said so where its amounts are shown or added, by the
    /// card's own oldest date (a credit checked later does not make it newer); a user's own card
    /// names no date and gets no note. `today` is given: no dependence on the real date.
    @Test func aCardCheckedLongAgoIsSaidSoByItsOwnOldestDate() throws {
        let day = { (year: Int, month: Int, day: Int) in LocalDate(uncheckedYear: year, month: month, day: day) }
        var card = try #require(try CardCatalog.bundled().card(id: "amex-gold"))
        card.checked = day(2025, 10, 15)
        for index in card.credits.indices { card.credits[index].checked = nil }
        let note = Catalog.checkedNote(card, today: day(2026, 11, 22))
        #expect(note?.contains("Amex Gold's terms were checked 2025-10-15, 13 months ago") == true)
        #expect(note?.contains("reminderctl edit ID") == true && note?.contains("cards.json") == true)
        #expect(Catalog.checkedNote(card, today: day(2026, 3, 1)) == nil)
        var recent = card
        recent.checked = day(2026, 9, 1)
        #expect(Catalog.checkedNote(recent, today: day(2026, 11, 22)) == nil)
        recent.credits[0].checked = day(2025, 10, 15)  // one credit older than its card
        #expect(Catalog.checkedNote(recent, today: day(2026, 11, 22))?.contains("checked 2025-10-15") == true)
        var own = card
        own.checked = nil
        #expect(Catalog.checkedNote(own, today: day(2030, 1, 1)) == nil)
        #expect(Catalog.listingNote([card, own], today: day(2026, 11, 22)).contains("over 6 months ago for 1 of these 2"))
        #expect(!Catalog.listingNote([own], today: day(2026, 11, 22)).contains("over"))
    }

    @Test func aNegativeValueIsAUsageErrorNotHelp() {
        #expect(throws: Refusal.self) { try refuseNegativeValues(["pause", "-1h"]) }
        #expect(throws: Never.self) { try refuseNegativeValues(["pause", "1h", "--json"]) }
        #expect(throws: Never.self) { try refuseNegativeValues(["add", "coupon", "--", "-5 off"]) }
    }
}
