import CivilTime
import ReminderCore
import ReminderJSON
import ReminderTestSupport
import Testing

/// A subscription's free trial (issue #30 item 2, CONTRACT §2): its last day comes due before
/// the renewals, its pop-up says what it will then charge, a cancelled one has no occurrence and
/// counts one charge as money kept in `report`.
@Suite struct TrialTests {
    let rules = FireTimeRules(zone: .utc, configuration: .defaults)
    let json = """
        {"kind":"subscription","title":"Hulu","amount":"9.99","every":"1mo","next":"2026-11-21",\
        "trialEnds":"2026-11-20"}
        """

    func dues(_ item: Item) -> [LocalDate] {
        var dates: [LocalDate] = []
        rules.forEachOccurrence(
            of: item, dueAfter: Fixture.instant("2026-11-01T00:00:00Z"), before: Fixture.instant("2027-01-31T00:00:00Z")
        ) {
            dates.append($0.dueDate)
            return true
        }
        return dates
    }

    @Test func theTrialsLastDayComesDueBeforeTheRenewalsFromTheFirstCharge() throws {
        let item = try Fixture.item(json)
        #expect(dues(item).map(\.description) == ["2026-11-20", "2026-11-21", "2026-12-21", "2027-01-21"])
    }

    @Test func aRenewalOnOrBeforeTheTrialsEndIsNotCharged() throws {
        let item = try Fixture.item(json.replacing(#""next":"2026-11-21""#, with: #""next":"2026-11-05""#))
        #expect(dues(item).map(\.description) == ["2026-11-20", "2026-12-05", "2027-01-05"])
    }

    @Test func aCancelledTrialHasNoOccurrenceAndReadsBackTheSame() throws {
        let cancelled = try Fixture.item(json.replacing("}", with: #","cancelled":"2026-11-19"}"#))
        #expect(dues(cancelled).isEmpty)
        let back = try Item(json: cancelled.json, context: .init(zone: .utc))
        #expect(back == cancelled)
        #expect(PackedItem(cancelled).item == cancelled)
    }

    @Test func cancelledWithoutATrialIsRefusedInWords() throws {
        let text = #"{"kind":"subscription","title":"Gym","every":"1mo","next":"2026-11-21","cancelled":"2026-11-19"}"#
        do {
            _ = try Fixture.item(text)
            Issue.record("a cancelled without a trial was read")
        } catch {
            #expect("\(error)".contains("only beside trialEnds"), "\(error)")
        }
    }

    @Test func thePopUpSaysWhenTheTrialEndsAndWhatItThenCharges() throws {
        let item = try Fixture.item(json)
        let text = NotificationText(
            item: item, occurrence: rules.occurrence(dueOn: Fixture.date("2026-11-20")),
            now: Fixture.instant("2026-11-19T09:00:00Z"), zone: .utc, defaultCurrency: "USD", moneyLocale: nil)
        #expect(
            text.body.filter { $0 != "\u{2068}" && $0 != "\u{2069}" }
                == "Free Trial Ends Soon · Hulu free trial ends tomorrow · then $9.99/mo")
        #expect(text.doneLabel == "Keep it" && text.cancelLabel == "I cancelled")
        let renewal = NotificationText(
            item: item, occurrence: rules.occurrence(dueOn: Fixture.date("2026-11-21")),
            now: Fixture.instant("2026-11-20T09:00:00Z"), zone: .utc, defaultCurrency: "USD", moneyLocale: nil)
        #expect(renewal.cancelLabel == nil && renewal.doneLabel == "Mark as paid")
    }

    @Test func theReportCountsACancelledTrialsChargeAsKeptInItsMonth() throws {
        var item = try Fixture.item(json.replacing("}", with: #","cancelled":"2026-11-19"}"#))
        item.id = "hulu"
        let report = ValueReport.build(
            items: [item], redemptions: [], fees: [], done: [:], rules: rules, currency: "USD", monthCount: 2,
            cards: nil, now: Fixture.instant("2026-12-10T12:00:00Z"))
        let months = report.months.map { "\($0.month) \($0.redeemed) \($0.subscriptions)" }
        #expect(months == ["2026-11-01 9.99 0", "2026-12-01 0 0"])
        #expect(report.subscriptions.isEmpty)
    }
}
