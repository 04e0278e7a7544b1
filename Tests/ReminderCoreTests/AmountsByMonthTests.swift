import CivilTime
import ReminderCore
import ReminderJSON
import ReminderTestSupport
import Testing

/// A benefit whose amount varies by month (`amountIn`, CONTRACT §2): the period due in a month
/// has that month's amount (Uber Cash: $15, $35 in December).
@Suite struct AmountsByMonthTests {
    let ny = Fixture.zone("America/New_York")
    let uber = #"{"kind":"benefit","title":"Uber Cash","amount":"15","period":"monthly","amountIn":{"12":"35"}"#

    @Test func thePeriodDueInAMonthHasThatMonthsAmount() throws {
        let item = try Fixture.item(uber + "}", zone: ny)
        guard case .benefit(let benefit) = item.schedule else {
            Issue.record("not a benefit")
            return
        }
        #expect(benefit.amountIn == [12: Money(tenThousandths: 350_000)])
        #expect(benefit.amount(dueOn: Fixture.date("2030-12-31"))?.description == "35")
        #expect(benefit.amount(dueOn: Fixture.date("2030-11-30"))?.description == "15")
        #expect(benefit.largestAmount?.description == "35")
        #expect(try Item(json: item.json, context: .init(zone: ny)) == item)
        guard case .object(let fields) = item.json else {
            Issue.record("not an object")
            return
        }
        #expect(fields["amountIn"] == .object(["12": .string("35")]))
    }

    @Test func thePopUpSaysTheMonthsAmount() throws {
        let item = try Fixture.item(uber + #","amountUsed":"20","amountUsedPeriod":"2030-12-31"}"#, zone: ny)
        let rules = FireTimeRules(zone: ny, configuration: .defaults)
        let december = NotificationText(
            item: item, occurrence: rules.occurrence(dueOn: Fixture.date("2030-12-31")),
            now: Fixture.instant("2030-12-24T09:00:00-05:00"), zone: ny, defaultCurrency: "USD", moneyLocale: nil)
        #expect(december.body.contains("remaining $15 of $35"))
    }

    @Test func aUsedAmountMayReachTheLargestMonthAndNoMore() throws {
        _ = try Fixture.item(uber + #","amountUsed":"30"}"#, zone: ny)
        let error = #expect(throws: ReminderCoreError.self) {
            try Fixture.item(uber + #","amountUsed":"36"}"#, zone: ny)
        }
        #expect(error?.field == "amountUsed")
        #expect(error?.reason == "36 is more than the amount 35 of any month")
    }

    @Test func aBadMonthOrAmountIsRefusedNamingIt() {
        for (json, field) in [
            (#"{"13":"35"}"#, "amountIn.13"), (#"{"dec":"35"}"#, "amountIn.dec"), (#"{"12":"-1"}"#, "amountIn.12"),
            (#"{"12":35}"#, "amountIn.12"), (#"["12=35"]"#, "amountIn"),
        ] {
            let error = #expect(throws: ReminderCoreError.self) {
                try Fixture.item(
                    #"{"kind":"benefit","title":"b","amount":"15","period":"monthly","amountIn":\#(json)}"#, zone: ny)
            }
            #expect(error?.field == field, "\(json)")
        }
    }
}
