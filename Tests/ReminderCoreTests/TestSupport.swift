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

/// A small, seedable generator (SplitMix64) so a failing property case can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
