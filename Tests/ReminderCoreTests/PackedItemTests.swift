import CivilTime
import ReminderCore
import Testing

/// An item packed and read back is the same item, whatever it holds: every kind, every optional
/// field there or not (an empty lead list is not a missing one), long and non-ASCII text,
/// amounts by month, a date-time with seconds, the extremes of money and dates.
@Suite struct PackedItemTests {
    static let date = LocalDate(uncheckedYear: 2030, month: 2, day: 28)
    static let long = String(repeating: "Überweisung 💳 ", count: 20)

    static let items: [Item] = [
        Item(title: "", schedule: .fee(Fee(due: date.adding(days: -1)))),
        Item(
            id: "b1", title: "Uber Cash", notes: long, lead: [CalendarDuration(7, .days), CalendarDuration(2, .hours)],
            createdAt: 1_900_000_000, currency: "EUR",
            schedule: .benefit(
                Benefit(
                    card: "Amex Platinum", amount: Money(tenThousandths: 150_000), period: .monthly,
                    amountUsed: Money(tenThousandths: 0), amountUsedPeriod: date.adding(days: 31), periodStart: date,
                    amountIn: [12: Money(tenThousandths: 350_000), 1: Money(tenThousandths: 1)]))),
        Item(id: "b2", title: "Credit", lead: [], schedule: .benefit(Benefit(period: .annual))),
        Item(
            id: "s", title: "Netflix", createdAt: -5,
            schedule: .subscription(
                Subscription(
                    amount: Money(tenThousandths: 9_999_999_999_999_999), every: CalendarDuration(1, .months),
                    next: LocalDate(uncheckedYear: 2199, month: 12, day: 31), card: "Visa",
                    trialEnds: LocalDate(uncheckedYear: 2199, month: 12, day: 30),
                    cancelled: LocalDate(uncheckedYear: 1970, month: 1, day: 1)))),
        Item(
            id: "s2", title: "Gym",
            schedule: .subscription(
                Subscription(every: CalendarDuration(90, .days), next: LocalDate(uncheckedYear: 1970, month: 1, day: 1))
            )),
        Item(
            id: "c", title: "Deal",
            schedule: .coupon(
                Coupon(
                    expires: .dateTime(LocalDateTime(date: date, time: LocalTime(hour: 23, minute: 59, second: 7))),
                    code: "SAVE-10", value: Money(tenThousandths: 100_000), category: "Food"))),
        Item(
            id: "c2", title: "Deal 2", schedule: .coupon(Coupon(expires: .date(date))),
            repeatEvery: CalendarDuration(15, .minutes), repeatTimes: 100),
        Item(
            id: "c3", title: "Deal 3", schedule: .coupon(Coupon(expires: .date(date))),
            repeatEvery: CalendarDuration(0, .minutes), repeatTimes: 1),
        Item(id: "t", title: "Call the bank", schedule: .coupon(Coupon(expires: .date(date), taskList: true))),
        Item(
            id: "f", title: "Annual fee", currency: "JPY",
            schedule: .fee(Fee(card: "Sapphire", amount: Money(tenThousandths: 950_000), due: date))),
        Item(id: "r", title: "Coffee", schedule: .rebuy(Rebuy(everyDays: 30, lastPurchased: date, category: "Home"))),
        Item(id: "r2", title: "Filters", schedule: .rebuy(Rebuy(everyDays: 365, lastPurchased: date.adding(days: 1)))),
    ]

    @Test(arguments: items) func anItemReadBackIsTheSameItem(_ item: Item) {
        let packed = PackedItem(item)
        #expect(packed.item == item)
        #expect(packed.id == item.id)
        #expect(packed.title == item.title)
    }

    /// A field added to `Item` or to a kind's schedule without its place in `PackedItem` would be
    /// dropped by the daemon, silently (`amountUsedPeriod` was, at a merge): the items above give
    /// every stored property of every kind at least two values, an optional one both set and unset,
    /// so `anItemReadBackIsTheSameItem` tells a dropped or defaulted field from a kept one.
    @Test func theItemsSetAndUnsetEveryStoredPropertyOfEveryKind() {
        var values: [String: Set<String>] = [:]
        var unset: Set<String> = []
        var set: Set<String> = []
        func visit(_ value: Any, _ prefix: String) {
            for child in Mirror(reflecting: value).children {
                guard let label = child.label else { continue }
                let name = prefix + label
                values[name, default: []].insert(String(reflecting: child.value))
                let field = Mirror(reflecting: child.value)
                guard field.displayStyle == .optional else { continue }
                if field.children.isEmpty { unset.insert(name) } else { set.insert(name) }
            }
        }
        for item in Self.items {
            visit(item, "")
            if let kind = Mirror(reflecting: item.schedule).children.first, let label = kind.label {
                visit(kind.value, label + ".")
            }
        }
        let optional = set.union(unset)
        #expect(optional.subtracting(set).sorted() == [], "optional fields never set")
        #expect(optional.subtracting(unset).sorted() == [], "optional fields never unset")
        #expect(values.filter { $0.value.count < 2 }.keys.sorted() == [], "fields with a single value")
        #expect(values.keys.contains("benefit.amountUsedPeriod") && values.keys.contains("schedule"))
    }

    @Test func itIsSmall() {
        let item = Item(
            id: "b12", title: "Credit 12",
            schedule: .benefit(Benefit(card: "Card", amount: Money(tenThousandths: 100_000), period: .monthly)))
        #expect(PackedItem(item).bytes.count <= 32)
    }
}
