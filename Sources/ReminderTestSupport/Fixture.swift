import CivilTime
import ReminderCore
import ReminderJSON
import ReminderPlatform

/// Zones, dates, instants, items and configs written the way the tests think about them.
public enum Fixture {
    public static func zone(_ name: String) -> TimeZoneRules {
        try! ZoneDatabase.shared.zone(named: name)
    }

    public static func date(_ text: String) -> LocalDate {
        try! LocalDate.parse(text).get()
    }

    public static func local(_ text: String) -> LocalDateTime {
        try! LocalDateTime.parse(text).get()
    }

    public static func instant(_ rfc3339: String) -> Int64 {
        try! Timestamp.parse(rfc3339).get()
    }

    public static func item(_ json: String, zone: TimeZoneRules = .utc, createdAt: Int64? = nil) throws -> Item {
        let value = try JSONValue.parse(Array(json.utf8), source: "test")
        return try Item(json: value, context: Item.DecodingContext(zone: zone, defaultCreatedAt: createdAt))
    }

    public static func config(_ json: String) throws -> Configuration {
        try Configuration(json: JSONValue.parse(Array(json.utf8), source: "test"))
    }

    /// Fire times of `item` in `[from, to)` as RFC 3339 strings in `zone`, with their adjustment.
    public static func plan(
        _ item: Item, config: Configuration, zone: TimeZoneRules, from: String, to: String
    ) -> [String] {
        let planner = Planner(configuration: config, zone: zone)
        return planner.plan(items: [item], from: instant(from), to: instant(to)).map { entry in
            let fire = Timestamp.format(entry.fire.fireAt, in: zone)
            return entry.fire.adjusted.map { "\(fire) \($0.rawValue)" } ?? fire
        }
    }
}
