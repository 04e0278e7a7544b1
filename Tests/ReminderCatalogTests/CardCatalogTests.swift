import CivilTime
import ReminderCatalog
import ReminderCore
import ReminderJSON
import Testing

@Suite struct CardCatalogTests {
    func catalog(_ json: String, requireHeader: Bool = true) throws -> CardCatalog {
        try CardCatalog(json: JSONValue.parse(Array(json.utf8), source: "test"), path: "", requireHeader: requireHeader)
    }

    @Test func theBundledCatalogIsValidDatedAndSourced() throws {
        let bundled = try CardCatalog.bundled()
        #expect(bundled.version >= 1)
        #expect(!bundled.source.isEmpty)
        #expect(bundled.cards.count >= 15)
        let issuers = Set(bundled.cards.map(\.issuer))
        for issuer in ["American Express", "Chase", "Capital One", "Citi", "U.S. Bank"] {
            #expect(issuers.contains(issuer), "\(issuer)")
        }
        #expect(Set(bundled.cards.map(\.id)).count == bundled.cards.count)
        for card in bundled.cards {
            #expect(card.annualFee >= .zero, "\(card.id)")
            #expect(!card.credits.isEmpty, "\(card.id)")
            for credit in card.credits { #expect(credit.amount > .zero, "\(card.id).\(credit.id)") }
        }
        for id in [
            "netflix", "spotify", "disney-plus", "adobe-creative-cloud", "icloud-200gb", "youtube-premium", "gym",
        ] {
            #expect(bundled.subscription(id: id) != nil, "\(id)")
        }
    }

    /// Dated by its own data: every bundled card says when it was checked, a credit checked later
    /// says when and where, and the catalog is as old as its oldest entry.
    @Test func theBundledCatalogIsDatedByItsEntries() throws {
        let bundled = try CardCatalog.bundled()
        for card in bundled.cards { #expect(card.checked != nil, "\(card.id)") }
        let dates = bundled.cards.flatMap { card in card.credits.compactMap { card.checked($0) } }
        #expect(bundled.checked?.lowerBound == dates.min() && bundled.checked?.upperBound == dates.max())
        for card in bundled.cards {
            for credit in card.credits where credit.checked != nil {
                #expect(credit.source?.hasPrefix("https://") == true, "\(card.id).\(credit.id) names no page")
                #expect(credit.checked! > card.checked!, "\(card.id).\(credit.id)")
            }
        }
        let edit = try #require(bundled.card(id: "chase-sapphire-reserve")?.credits.first { $0.id == "the-edit" })
        #expect(edit.amount.description == "500" && edit.period == .annual)
    }

    @Test func aCatalogIsDatedByItsCardsNotByAHandSetField() throws {
        let card = #"{"id": "x", "issuer": "I", "name": "X", "annualFee": "95", "checked": "2026-01-02", "credits": []}"#
        // The bundled form: a top-level date is refused, and so is a card without one.
        #expect(throws: ReminderCoreError.self) {
            try catalog(#"{"version": 2, "updated": "2026-01-01", "source": "s", "cards": [\#(card)]}"#)
        }
        #expect(throws: ReminderCoreError.self) {
            try catalog(#"{"version": 2, "source": "s", "cards": [{"id": "x", "issuer": "I", "name": "X", "annualFee": "95"}]}"#)
        }
        let dated = try catalog(#"{"version": 2, "source": "s", "cards": [\#(card)]}"#)
        #expect(dated.checked == LocalDate(uncheckedYear: 2026, month: 1, day: 2)...LocalDate(uncheckedYear: 2026, month: 1, day: 2))
        // A user's file written for an older reminderctl keeps working; its own cards need no date.
        let user = try catalog(
            #"{"updated": "2025-01-01", "cards": [{"id": "y", "issuer": "I", "name": "Y", "annualFee": "0"}]}"#,
            requireHeader: false)
        #expect(user.checked == nil && user.cards.first?.checked == nil)
    }

    @Test func annualValuesCountEachPeriodAndTheirExceptions() throws {
        let platinum = try #require(try CardCatalog.bundled().card(id: "amex-platinum"))
        let uber = try #require(platinum.credits.first { $0.id == "uber-cash" })
        #expect(uber.annualValue.description == "200")  // $15 × 11 + $35 in December
        #expect(uber.amountIn == [12: Money(tenThousandths: 350_000)] && uber.annualAmount == nil)
        let resy = try #require(platinum.credits.first { $0.id == "resy" })
        #expect(resy.annualValue.description == "400")
        #expect(platinum.annualValue > platinum.annualFee)
    }

    @Test func creditsSayWhetherTheyResetOnTheCalendarOrTheAnniversary() throws {
        let bundled = try CardCatalog.bundled()
        let anniversary = bundled.cards.flatMap { card in
            card.credits.filter { $0.resets == .anniversary }.map { "\(card.id).\($0.id)" }
        }
        #expect(
            anniversary.sorted() == [
                "capital-one-venture-x-business.travel", "capital-one-venture-x.travel",
                "chase-sapphire-preferred.hotel", "chase-sapphire-reserve.travel",
                "usbank-altitude-reserve.travel-dining",
            ])
        // Every credit whose notes speak of the anniversary says so in its data, and no other.
        for card in bundled.cards {
            for credit in card.credits {
                let noted = credit.notes?.lowercased().contains("anniversary") ?? false
                #expect(noted == (credit.resets == .anniversary), "\(card.id).\(credit.id)")
            }
        }
        #expect(
            throws: ReminderCoreError.invalidValue(
                field: "cards[0].credits[0].resets", reason: "\"yearly\": use calendar or anniversary")
        ) {
            try catalog(
                #"{"cards": [{"id": "x", "issuer": "I", "name": "N", "annualFee": "1", "credits": [{"id": "c", "title": "T", "amount": "5", "period": "annual", "resets": "yearly"}]}]}"#,
                requireHeader: false)
        }
    }

    @Test func searchMatchesEveryWordInIdNameOrIssuer() throws {
        let bundled = try CardCatalog.bundled()
        #expect(
            bundled.cards(matching: "sapphire").map(\.id) == ["chase-sapphire-preferred", "chase-sapphire-reserve"])
        #expect(bundled.cards(matching: "amex plat").map(\.id) == ["amex-business-platinum", "amex-platinum"])
        #expect(bundled.cards(matching: "").count == bundled.cards.count)
    }

    @Test func aUserCatalogAddsAndOverridesById() throws {
        let user = try catalog(
            #"""
            {"cards": [
              {"id": "amex-gold", "issuer": "American Express", "name": "Amex Gold", "annualFee": "350",
               "credits": [{"id": "dining", "title": "Dining", "amount": "10", "period": "monthly"}]},
              {"id": "my-card", "issuer": "Credit Union", "name": "My Card", "annualFee": "0",
               "credits": [{"id": "coffee", "title": "Coffee", "amount": "5", "period": "monthly"}]}
            ], "subscriptions": [{"id": "netflix", "title": "Netflix Premium", "amount": "24.99", "every": "1mo"}]}
            """#, requireHeader: false)
        let merged = try CardCatalog.bundled().overridden(by: user)
        #expect(merged.card(id: "amex-gold")?.annualFee.description == "350")
        #expect(merged.card(id: "amex-gold")?.credits.count == 1)
        #expect(merged.card(id: "my-card")?.name == "My Card")
        #expect(merged.subscription(id: "netflix")?.title == "Netflix Premium")
        #expect(merged.cards.count == (try CardCatalog.bundled().cards.count) + 1)
    }

    /// A template's usual free trial (issue #30): optional, 1 to 365 days, read as written.
    @Test func aSubscriptionTemplateMayCarryItsUsualTrialLength() throws {
        #expect(try CardCatalog.bundled().subscription(id: "adobe-creative-cloud")?.trialDays == 7)
        #expect(try CardCatalog.bundled().subscription(id: "netflix")?.trialDays == nil)
        #expect(
            throws: ReminderCoreError.invalidValue(
                field: "subscriptions[0].trialDays", reason: "0 is not between 1 and 365")
        ) {
            try catalog(
                #"{"subscriptions": [{"id": "x", "title": "X", "amount": "1", "every": "1mo", "trialDays": 0}]}"#,
                requireHeader: false)
        }
    }

    @Test func badDataIsRefusedWithItsPath() {
        #expect(
            throws: ReminderCoreError.invalidValue(
                field: "cards[0].credits[0].amount", reason: "must be more than zero")
        ) {
            try catalog(
                #"{"cards": [{"id": "x", "issuer": "I", "name": "N", "annualFee": "1", "credits": [{"id": "c", "title": "T", "amount": "0", "period": "monthly"}]}]}"#,
                requireHeader: false)
        }
        #expect(throws: ReminderCoreError.invalidValue(field: "cards[1].id", reason: "\"x\" is used twice")) {
            try catalog(
                #"{"cards": [{"id": "x", "issuer": "I", "name": "N", "annualFee": "1"}, {"id": "x", "issuer": "I", "name": "M", "annualFee": "1"}]}"#,
                requireHeader: false)
        }
        #expect(throws: ReminderCoreError.missingField(field: "cards[0].issuer", reason: "text")) {
            try catalog(#"{"cards": [{"id": "x", "name": "N", "annualFee": "1"}]}"#, requireHeader: false)
        }
        #expect(throws: ReminderCoreError.self) {
            try catalog(
                #"{"cards": [{"id": "x", "issuer": "I", "name": "N", "annualFee": "1", "credits": [{"id": "c", "title": "T", "amount": "5", "period": "weekly"}]}]}"#,
                requireHeader: false)
        }
        #expect(throws: ReminderCoreError.missingField(field: "version", reason: "the data format's version")) {
            try catalog("{}")
        }
    }
}
