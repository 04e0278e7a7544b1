import ReminderCore
import ReminderPlatform

/// Zones, dates and instants written the way the tests think about them.
enum Fixture {
    static func zone(_ name: String) -> TimeZoneRules {
        try! ZoneDatabase.shared.zone(named: name)
    }

    static func date(_ text: String) -> LocalDate {
        try! LocalDate.parse(text).get()
    }

    static func local(_ text: String) -> LocalDateTime {
        try! LocalDateTime.parse(text).get()
    }

    static func instant(_ rfc3339: String) -> Int64 {
        try! Timestamp.parse(rfc3339).get()
    }

    static func item(_ json: String, zone: TimeZoneRules = .utc, createdAt: Int64? = nil) throws -> Item {
        let value = try JSONValue.parse(Array(json.utf8), source: "test")
        return try Item(json: value, context: Item.DecodingContext(zone: zone, defaultCreatedAt: createdAt))
    }

    static func config(_ json: String) throws -> Configuration {
        try Configuration(json: JSONValue.parse(Array(json.utf8), source: "test"))
    }

    /// Fire times of `item` in `[from, to)` as RFC 3339 strings in `zone`, with their adjustment.
    static func plan(_ item: Item, config: Configuration, zone: TimeZoneRules, from: String, to: String) -> [String] {
        let planner = Planner(configuration: config, zone: zone)
        return planner.plan(items: [item], from: instant(from), to: instant(to)).map { entry in
            let fire = Timestamp.format(entry.fire.fireAt, in: zone)
            return entry.fire.adjusted.map { "\(fire) \($0.rawValue)" } ?? fire
        }
    }
}

/// The tests' seeded generator.
typealias SeededGenerator = SplitMix64
