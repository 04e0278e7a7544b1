import ReminderCore
import ReminderPlatform
import Testing

/// The rules of writing money in a locale, on locales built as glibc's data has them (ko_KR,
/// de_DE, en_US from Debian's `locales`), so they hold without those locales generated.
@Suite struct MoneyLocaleTests {
    static let korean = MoneyLocale(
        currency: "KRW", symbol: "₩", decimalSeparator: ".", groupSeparator: ",", grouping: [3], symbolPrecedes: true,
        symbolSpaced: false)
    static let german = MoneyLocale(
        currency: "EUR", symbol: "€", decimalSeparator: ",", groupSeparator: ".", grouping: [3], symbolPrecedes: false,
        symbolSpaced: true)
    static let american = MoneyLocale(
        currency: "USD", symbol: "$", decimalSeparator: ".", groupSeparator: ",", grouping: [3], symbolPrecedes: true,
        symbolSpaced: false)
    static let indian = MoneyLocale(
        currency: "INR", symbol: "₹", decimalSeparator: ".", groupSeparator: ",", grouping: [3, 2], symbolPrecedes: true,
        symbolSpaced: false)

    func money(_ text: String) -> Money { try! Money.parse(text).get() }

    @Test func theLocalesOwnCurrencyWithItsSymbolSeparatorsAndMinorUnits() {
        #expect(money("4900").formatted(currency: "KRW", in: Self.korean) == "₩4,900")
        #expect(money("4900.4").formatted(currency: "KRW", in: Self.korean) == "₩4,900")
        #expect(money("4900.5").formatted(currency: "KRW", in: Self.korean) == "₩4,901")
        #expect(money("1234.5").formatted(currency: "EUR", in: Self.german) == "1.234,50 €")
        #expect(money("1234.5").formatted(currency: "USD", in: Self.american) == "$1,234.50")
        #expect(money("15").formatted(currency: "USD", in: Self.american) == "$15")
        #expect(money("12345678").formatted(currency: "INR", in: Self.indian) == "₹1,23,45,678")
        #expect((Money.zero - money("7.5")).formatted(currency: "EUR", in: Self.german) == "-7,50 €")
        #expect((Money.zero - money("0.001")).formatted(currency: "EUR", in: Self.german) == "0 €")
    }

    /// Another currency keeps its own symbol, or its code, placed as the locale places its own.
    @Test func anotherCurrencyKeepsItsSymbolOrCode() {
        #expect(money("1234.5").formatted(currency: "USD", in: Self.german) == "1.234,50 $")
        #expect(money("1234.5").formatted(currency: "EUR", in: Self.korean) == "€1,234.50")
        #expect(money("1234.5").formatted(currency: "CHF", in: Self.german) == "1.234,50 CHF")
        #expect(money("1234.5").formatted(currency: "CHF", in: Self.american) == "CHF 1,234.50")
        #expect(money("1500").formatted(currency: "JPY", in: Self.german) == "1.500 ¥")
        #expect(money("1.2345").formatted(currency: "BHD", in: Self.american) == "BHD 1.235")
        #expect(money("1.2345").formatted(currency: "CLF", in: Self.american) == "CLF 1.2345")
    }

    /// The largest amount reminderd accepts, and a total of a thousand of them (a wallet's sum),
    /// are written grouped to their last digit, rounded to the currency's minor unit, never trapping.
    @Test func theLargestAmountsAndTheirTotalsAreGroupedInEveryLocale() {
        let largest = money("999999999999.9999")
        var total = Money.zero
        for _ in 0..<1_000 { total = total + largest }
        #expect(total == Money(tenThousandths: largest.tenThousandths * 1_000))
        #expect(largest.formatted(currency: "EUR", in: Self.german) == "1.000.000.000.000 €")
        #expect(largest.formatted(currency: "KRW", in: Self.korean) == "₩1,000,000,000,000")
        #expect(largest.formatted(currency: "BHD", in: Self.german) == "1.000.000.000.000 BHD")
        #expect(largest.formatted(currency: "CLF", in: Self.korean) == "CLF 999,999,999,999.9999")
        #expect(total.formatted(currency: "EUR", in: Self.german) == "999.999.999.999.999,90 €")
        #expect(total.formatted(currency: "KRW", in: Self.korean) == "₩1,000,000,000,000,000")
        #expect(total.formatted(currency: "USD", in: Self.korean) == "$999,999,999,999,999.90")
        #expect((Money.zero - total).formatted(currency: "EUR", in: Self.german) == "-999.999.999.999.999,90 €")
        #expect(total.formatted(currency: "INR", in: Self.indian) == "₹99,99,99,99,99,99,999.90")
    }

    /// The C/POSIX locale, and one glibc cannot load, write today's text.
    @Test func noLocaleWritesTodaysText() {
        for name in [nil, "", "C", "POSIX", "C.UTF-8", "xx_NOWHERE.UTF-8"] {
            #expect(MoneyLocale(named: name) == nil)
        }
        #expect(money("1500").formatted(currency: "CHF", in: nil) == "1,500 CHF")
        #expect(money("1234.5").formatted(currency: "EUR", in: nil) == "€1,234.50")
        #expect(money("4900").formatted(currency: "KRW", in: nil) == "4,900 KRW")
    }

    @Test func inputTakesTheLocalesDecimalSeparatorWhereUnambiguous() {
        func input(_ text: String, _ locale: MoneyLocale?) -> String? { try? Money.canonicalInput(text, in: locale).get() }
        #expect(input("12,50", Self.german) == "12.50")
        #expect(input("12", Self.german) == "12")
        #expect(input("15.99", Self.german) == "15.99")
        #expect(input("1.234", Self.german) == nil)
        #expect(input("1.234,50", Self.german) == nil)
        #expect(input("12,50", Self.american) == "12,50")  // as typed: the daemon refuses it, as before
        #expect(input("12,50", nil) == "12,50")
        guard case .failure(let error) = Money.canonicalInput("1.234", in: Self.german) else { return }
        #expect("\(error)".contains("ambiguous"))
    }

    @Test func theEnvironmentNamesTheLocaleInPOSIXOrder() {
        let all = ["LC_ALL": "de_DE.UTF-8", "LC_MONETARY": "ko_KR.UTF-8", "LANG": "en_US.UTF-8"]
        #expect(LocaleName.fromEnvironment(for: "LC_MONETARY") { all[$0] } == "de_DE.UTF-8")
        #expect(LocaleName.fromEnvironment(for: "LC_MONETARY") { ["LC_ALL": "", "LC_MONETARY": "ko_KR.UTF-8", "LANG": "C"][$0] } == "ko_KR.UTF-8")
        #expect(LocaleName.fromEnvironment(for: "LC_TIME") { ["LANG": "en_US.UTF-8"][$0] } == "en_US.UTF-8")
        #expect(LocaleName.fromEnvironment(for: "LC_TIME") { _ in nil } == nil)
    }
}
