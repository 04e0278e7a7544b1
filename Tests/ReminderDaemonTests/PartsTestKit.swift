import CivilTime
import ReminderCore
import ReminderStore

@testable import ReminderDaemon

/// Plain values for the tests of the engine's parts, which need no engine, store or clock.
enum Parts {
    static let now: Int64 = 1_795_000_000  // Wednesday 2026-11-18, 11:06:40 UTC
    static let configuration = Configuration(timeZone: "UTC", quietHours: nil)
    static let rules = FireTimeRules(zone: .utc, configuration: configuration)

    /// A coupon `id` expiring `seconds` after `now`, reminded `leads` before, and its occurrence.
    static func coupon(
        _ id: String, title: String = "Deal", dueIn seconds: Int64, leads: [CalendarDuration]? = nil
    ) -> (item: Item, occurrence: Occurrence) {
        let expires = LocalDateTime(localSeconds: now + seconds)
        let item = Item(
            id: id, title: title, lead: leads, createdAt: now - 86_400,
            schedule: .coupon(Coupon(expires: .dateTime(expires))))
        return (item, rules.occurrence(dueAt: expires))
    }

    /// A reminder of item `id`'s occurrence due `dueIn` seconds from now, for the times `fireAts`.
    static func fire(_ id: String, dueIn: Int64 = 86_400, at fireAts: [Int64], late: LateReason? = nil)
        -> ReminderEngine.ScheduledEvent
    {
        .fire(
            itemId: id, occurrence: coupon(id, dueIn: dueIn).occurrence,
            fires: fireAts.map { ReminderFire(at: $0, lead: "1h") }, lead: "1h", late: late)
    }

    static func pass(_ id: String, dueIn: Int64 = 86_400) -> ReminderEngine.ScheduledEvent {
        .pass(itemId: id, occurrence: coupon(id, dueIn: dueIn).occurrence)
    }
}
