import CivilTime
import ReminderCore
import Testing

/// What is left of a benefit's period (`Benefit.amountLeft`), the rule summary, wallet, the panel
/// indicator and report share.
@Suite struct BenefitLeftTests {
    let november = LocalDate(uncheckedYear: 2030, month: 11, day: 30)
    let december = LocalDate(uncheckedYear: 2030, month: 12, day: 31)

    func money(_ text: String) -> Money {
        guard case .success(let money) = Money.parse(text) else { fatalError("not money: \(text)") }
        return money
    }

    func uber(used: String? = nil, period: LocalDate? = nil) -> Benefit {
        Benefit(
            card: "Amex Platinum", amount: money("15"), period: .monthly,
            amountUsed: used.map(money), amountUsedPeriod: period,
            amountIn: [12: money("35")])
    }

    @Test func aPeriodWithNothingUsedHasItsWholeAmountLeft() {
        #expect(uber().amountLeft(inPeriodDueOn: november, done: false)?.description == "15")
        #expect(uber().amountLeft(inPeriodDueOn: december, done: false)?.description == "35")
    }

    @Test func aPartialUseOfThatPeriodIsTakenOff() {
        let benefit = uber(used: "7.5", period: november)
        #expect(benefit.amountLeft(inPeriodDueOn: november, done: false)?.description == "7.50")
        // A use of an earlier period is over with it: December starts whole.
        #expect(benefit.amountLeft(inPeriodDueOn: december, done: false)?.description == "35")
    }

    @Test func aDonePeriodHasNothingLeft() {
        #expect(uber(used: "4", period: november).amountLeft(inPeriodDueOn: november, done: true) == .zero)
    }

    @Test func whatTheCallerCountedAsUsedIsTakenOffNeverBelowZero() {
        #expect(uber().amountLeft(inPeriodDueOn: december, done: false, used: money("20"))?.description == "15")
        #expect(uber().amountLeft(inPeriodDueOn: november, done: false, used: money("20")) == .zero)
    }

    @Test func aBenefitWithoutAnAmountHasNoFigure() {
        let benefit = Benefit(period: .monthly)
        #expect(benefit.amountLeft(inPeriodDueOn: november, done: false) == nil)
    }
}
