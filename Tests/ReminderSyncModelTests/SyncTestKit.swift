import CivilTime
import ICalendar
import ReminderCore
import ReminderPlatform
import ReminderSyncModel
import ReminderTestSupport

/// Shared set-up: a device in New York on 2026-11-18 with reminderd's default settings, and
/// the items the tests sync.
enum Kit {
    static let newYork = Fixture.zone("America/New_York")
    /// 2026-11-18 06:06:40 in New York.
    static let now: Int64 = 1_795_000_000
    static let context = at(now)

    static func at(_ now: Int64, leads: [CalendarDuration]? = nil) -> SyncContext {
        var configuration = Configuration.defaults
        if let leads { configuration.leadTimes = leads }
        return SyncContext(
            planner: Planner(configuration: configuration, zone: newYork), now: now,
            zoneNamed: { try? ZoneDatabase.shared.zone(named: $0) })
    }

    static let uid = "6f1c2a9e-0d4b-4c1e-9a57-3b8f0e2d7c41@reminderd"

    static let uber = Item(
        id: "uber", title: "Uber Cash", lead: [CalendarDuration(7, .days), CalendarDuration(1, .days)],
        createdAt: 1_790_000_000, currency: "USD",
        schedule: .benefit(Benefit(card: "Amex Platinum", amount: Money(tenThousandths: 150_000), period: .monthly)))

    static let coupon = Item(
        title: "Target 20% off",
        schedule: .coupon(
            Coupon(expires: .date(Fixture.date("2026-12-24")), code: "TGT20", value: Money(tenThousandths: 200_000))))

    static let rebuy = Item(
        title: "Contact lenses",
        schedule: .rebuy(Rebuy(everyDays: 30, lastPurchased: Fixture.date("2026-11-10"), category: "health")))

    static let fee = Item(
        title: "Amex Gold annual fee",
        schedule: .fee(Fee(card: "Amex Gold", amount: Money(tenThousandths: 3_250_000), due: Fixture.date("2027-02-15"))))

    /// Unix seconds of a UTC basic-form time such as `20261120T150000Z`.
    static func utc(_ text: String) -> Int64 {
        let value = DateTimeValue(text: text)!
        let day = LocalDate(uncheckedYear: value.year, month: value.month, day: value.day).dayNumber
        return day * 86_400 + Int64(value.secondsOfDay!)
    }

    /// What reminderd writes for `record` into a new resource, as text.
    static func written(_ record: SyncRecord, context: SyncContext = context) -> String {
        VTodoWriter.write(record, uid: uid, into: nil, context: context).serialized()
    }

    static func read(_ text: String, context: SyncContext = context) throws -> VTodoReader.Reading {
        try VTodoReader.read(Array(text.utf8), name: "item.ics", context: context)
    }

    static func todo(_ text: String) throws -> Component {
        try Component.parse(text).components.first { $0.name == "VTODO" && $0.property("RECURRENCE-ID") == nil }!
    }
}

extension String {
    /// Lines joined with CRLF, as a server sends them.
    var crlf: String { split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n") }
}
