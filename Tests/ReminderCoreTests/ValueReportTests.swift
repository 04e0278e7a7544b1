import CivilTime
import ReminderCore
import ReminderTestSupport
import Testing

/// `ValueReport.build`: `reminderctl report`'s figures at fixed dates in 2029–2030 (New York),
/// the middle of March 2030 being "now".
@Suite struct ValueReportTests {
    let ny = Fixture.zone("America/New_York")
    var rules: FireTimeRules { FireTimeRules(zone: ny, configuration: Configuration(quietHours: nil)) }
    let now = Fixture.instant("2030-03-15T16:00:00Z")
    func at(_ text: String) -> Int64 { Fixture.instant(text) }
    func money(_ text: String) -> Money { try! Money.parse(text).get() }
    /// 23:59 New York time on `date`: when a credit, a coupon or a fee dated that day is due.
    func due(_ date: String) -> Int64 { rules.occurrence(dueOn: Fixture.date(date)).due }

    func items() throws -> [Item] {
        let created = at("2030-01-10T17:00:00Z")
        return try [
            #"{"id":"b1","kind":"benefit","title":"Uber Cash","card":"Amex Gold","amount":"10","period":"monthly"}"#,
            #"{"id":"b2","kind":"benefit","title":"Dining credit","card":"Amex Gold","amount":"10","period":"monthly"}"#,
            #"{"id":"b3","kind":"benefit","title":"Saks","card":"Amex Plat","amount":"50","period":"semiannual"}"#,
            #"{"id":"f1","kind":"fee","title":"Gold fee","card":"Amex Gold","amount":"325","due":"2030-04-25"}"#,
            #"{"id":"s1","kind":"subscription","title":"Netflix","amount":"17.99","every":"1mo","next":"2030-01-15"}"#,
            #"{"id":"c1","kind":"coupon","title":"Pizza","value":"5","expires":"2030-02-10"}"#,
        ].map {
            var item = try Fixture.item($0, zone: ny)
            item.createdAt = created
            return item
        }
    }

    /// Uber Cash used in full in January and March, and early (`done --early`) on March 10 for
    /// April; the dining credit used $4 in January and $4 in March; a Gold redemption last May
    /// (this card year, before the report) and a Platinum one in December (before both).
    var redemptions: [ValueReport.Redeemed] {
        [
            .init(itemId: "b1", card: "Amex Gold", at: at("2029-05-01T15:00:00Z"), amount: money("10")),
            .init(itemId: "b3", card: "Amex Plat", at: at("2029-12-01T15:00:00Z"), amount: money("50")),
            .init(itemId: "b1", card: "Amex Gold", at: at("2030-01-20T15:00:00Z"), amount: money("10")),
            .init(itemId: "b2", card: "Amex Gold", at: at("2030-01-25T15:00:00Z"), amount: money("4")),
            .init(itemId: "b1", card: "Amex Gold", at: at("2030-03-02T15:00:00Z"), amount: money("10")),
            .init(itemId: "b2", card: "Amex Gold", at: at("2030-03-03T15:00:00Z"), amount: money("4")),
            .init(itemId: "b1", card: "Amex Gold", at: at("2030-03-10T15:00:00Z"), amount: money("10")),
        ]
    }

    var done: [String: [Int64: Int64]] {
        [
            "b1": [
                due("2030-01-31"): at("2030-01-20T15:00:00Z"), due("2030-03-31"): at("2030-03-02T15:00:00Z"),
                due("2030-04-30"): at("2030-03-10T15:00:00Z"),
            ]
        ]
    }

    func report(months: Int = 3, cards: [String]? = nil) throws -> ValueReport {
        ValueReport.build(
            items: try items(), redemptions: redemptions,
            fees: [.init(card: "Amex Gold", fee: money("325"), yearStart: due("2029-04-25"), due: due("2030-04-25"))],
            done: done, rules: rules, currency: "USD", monthCount: months, cards: cards, now: now)
    }

    @Test func monthsCountRedemptionsByTheDoneAndLossesByTheDueDate() throws {
        let report = try report()
        #expect(report.months.map(\.month) == ["2030-01-01", "2030-02-01", "2030-03-01"].map(Fixture.date))
        // March: its own Uber Cash and dining $4, and April's Uber Cash marked done early in March.
        #expect(report.months.map(\.redeemed) == ["14", "0", "24"].map(money))
        #expect(report.months[2].cards == [.init(card: "Amex Gold", currency: "USD", amount: money("24"))])
        // January: $6 of the dining credit; February: both credits and the coupon; March's
        // periods are not over yet.
        #expect(report.months.map(\.lost) == ["6", "25", "0"].map(money))
        #expect(report.months.map(\.subscriptions) == ["17.99", "17.99", "17.99"].map(money))
    }

    @Test func lossesSayWhatOfEachPeriodWasLostNewestFirst() throws {
        let lost = try report().lost
        #expect(lost.map(\.item) == ["b2", "b1", "c1", "b2"])  // Dining credit, then Uber Cash
        #expect(
            lost.map(\.due) == [
                "2030-02-28T23:59:00-05:00", "2030-02-28T23:59:00-05:00", "2030-02-10T23:59:00-05:00",
                "2030-01-31T23:59:00-05:00",
            ])
        #expect(lost.last.map { ($0.amount, $0.lost) } ?? (.zero, .zero) == (money("10"), money("6")))
    }

    @Test func cardsCarryTheirYearAgainstTheFee() throws {
        let cards = try report().cards
        #expect(cards.map(\.card) == ["Amex Gold", "Amex Plat"])
        let gold = cards[0]
        #expect((gold.redeemed, gold.lost) == (money("38"), money("26")))
        // This card year (from 2029-04-25): last May's $10 and the $38 of the report.
        #expect(gold.yearRedeemed == money("48"))
        #expect(gold.net == Money(tenThousandths: -2_770_000))
        #expect(gold.feeDue == "2030-04-25T23:59:00-04:00")
        #expect((cards[1].redeemed, cards[1].yearRedeemed) == (.zero, nil))
    }

    @Test func subscriptionsCostPerMonth() throws {
        let report = try report()
        #expect(report.subscriptions.map(\.item) == ["s1"])
        #expect(report.subscriptionsMonthly == money("17.99"))
        #expect(
            Subscription.perMonth(money("120"), every: try CalendarDuration.parse("1y", rules: .renewal).get())
                == money("10"))
    }

    @Test func aCardFilterKeepsOnlyThatCard() throws {
        let report = try report(months: 12, cards: ["Amex Plat"])
        #expect(report.months.count == 12 && report.months.first?.month == Fixture.date("2029-04-01"))
        // December's Saks credit is in the 12 months; nothing without a card is.
        #expect(report.months.map(\.redeemed).reduce(.zero, +) == money("50"))
        #expect(report.cards.map(\.card) == ["Amex Plat"])
        // Its periods before it was added are not counted lost.
        #expect(report.subscriptions.isEmpty && report.lost.isEmpty)
        #expect(report.months.allSatisfy { $0.subscriptions == .zero && $0.lost == .zero })
    }

    /// A phone ticked January's dining credit on February 3 (a Done of the earlier occurrence,
    /// its redemption dated February 3): February's credit was still not used, and is lost.
    @Test func aLateDoneOfAnEarlierPeriodIsNoUseOfTheCurrentOne() throws {
        var item = try Fixture.item(
            #"{"id":"d1","kind":"benefit","title":"Dining credit","card":"Amex Gold","amount":"10","period":"monthly"}"#,
            zone: ny)
        item.createdAt = at("2030-01-10T17:00:00Z")
        let late = at("2030-02-03T15:00:00Z")
        let report = ValueReport.build(
            items: [item], redemptions: [.init(itemId: "d1", card: "Amex Gold", at: late, amount: money("10"))],
            fees: [], done: ["d1": [due("2030-01-31"): late]], rules: rules, currency: "USD", monthCount: 3,
            cards: nil, now: now)
        #expect(report.months.map(\.redeemed) == ["0", "10", "0"].map(money))
        #expect(report.months.map(\.lost) == ["0", "10", "0"].map(money))
    }

    /// A quarterly credit counted from the card anniversary (November 14): its period ending
    /// February 13 began November 14, so $4 used on November 20 is part of it, and $6 is lost.
    @Test func aPartialUseCountsInItsAnniversaryPeriod() throws {
        var item = try Fixture.item(
            #"{"id":"q1","kind":"benefit","title":"Hotel credit","card":"Venture X","amount":"10","period":"quarterly","#
                + #""periodStart":"2028-11-14"}"#,
            zone: ny)
        item.createdAt = at("2029-11-01T17:00:00Z")
        let report = ValueReport.build(
            items: [item],
            redemptions: [.init(itemId: "q1", card: "Venture X", at: at("2029-11-20T15:00:00Z"), amount: money("4"))],
            fees: [], done: [:], rules: rules, currency: "USD", monthCount: 3, cards: nil, now: now)
        #expect(report.lost.map(\.due) == ["2030-02-13T23:59:00-05:00"])
        #expect(report.lost.map(\.lost) == [money("6")])
    }

    /// Uber Cash is $15 a month and $35 in December (`amountIn`): December's unused credit lost
    /// $35, not the $15 of the other months.
    @Test func aMonthWithItsOwnAmountLosesThatAmount() throws {
        var item = try Fixture.item(
            #"{"id":"u1","kind":"benefit","title":"Uber Cash","card":"Amex Gold","amount":"15","period":"monthly","#
                + #""amountIn":{"12":"35"}}"#,
            zone: ny)
        item.createdAt = at("2029-11-20T17:00:00Z")
        let report = ValueReport.build(
            items: [item], redemptions: [.init(itemId: "u1", card: "Amex Gold", at: at("2029-12-05T15:00:00Z"), amount: money("5"))],
            fees: [], done: [:], rules: rules, currency: "USD", monthCount: 6, cards: nil, now: now)
        #expect(report.lost.map(\.due) == ["2030-02-28T23:59:00-05:00", "2030-01-31T23:59:00-05:00", "2029-12-31T23:59:00-05:00", "2029-11-30T23:59:00-05:00"])
        #expect(report.lost.map(\.amount) == [money("15"), money("15"), money("35"), money("15")])
        #expect(report.lost.map(\.lost) == [money("15"), money("15"), money("30"), money("15")])
    }

    /// A coupon used on March 5 (before it expires in April) redeemed its $8 that month; the
    /// coupon that expired in February unused is still lost there. On a card's report it is not:
    /// a coupon is on no card.
    @Test func aUsedCouponCountsItsValueRedeemedInTheMonthItWasUsed() throws {
        var coupon = try Fixture.item(
            #"{"id":"c2","kind":"coupon","title":"Cinema","value":"8","expires":"2030-04-20"}"#, zone: ny)
        coupon.createdAt = at("2030-01-10T17:00:00Z")
        var done = self.done
        done["c2"] = [due("2030-04-20"): at("2030-03-05T15:00:00Z")]
        func build(_ cards: [String]?) throws -> ValueReport {
            ValueReport.build(
                items: try items() + [coupon], redemptions: redemptions, fees: [], done: done, rules: rules,
                currency: "USD", monthCount: 3, cards: cards, now: now)
        }
        #expect(try build(nil).months.map(\.redeemed) == ["14", "0", "32"].map(money))
        #expect(try build(nil).months.map(\.lost) == ["6", "25", "0"].map(money))
        #expect(try build(["Amex Gold"]).months.map(\.redeemed) == ["14", "0", "24"].map(money))
    }

    /// Netflix's February renewal paid on January 30 counts in January; April's, paid early on
    /// March 12, in March beside March's own (not paid yet, counted in its due month).
    @Test func aRenewalMarkedPaidCountsInTheMonthItWasPaid() throws {
        var done = self.done
        done["s1"] = [due("2030-02-15"): at("2030-01-30T15:00:00Z"), due("2030-04-15"): at("2030-03-12T15:00:00Z")]
        let report = ValueReport.build(
            items: try items(), redemptions: redemptions, fees: [], done: done, rules: rules, currency: "USD",
            monthCount: 3, cards: nil, now: now)
        #expect(report.months.map(\.subscriptions) == ["35.98", "0", "35.98"].map(money))
    }

    @Test func aCardIsNamedExactlyOrByTheStartOfItsName() {
        let names: Set = ["Amex Gold", "Amex Gold Business", "Chase Sapphire"]
        #expect(ValueReport.cards(matching: "amex gold", among: names) == ["Amex Gold"])
        #expect(ValueReport.cards(matching: "amex", among: names) == ["Amex Gold", "Amex Gold Business"])
        #expect(ValueReport.cards(matching: "citi", among: names).isEmpty)
    }
}
