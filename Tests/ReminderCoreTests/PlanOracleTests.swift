import CivilTime
import Foundation
import ReminderCore
import ReminderJSON
import ReminderPlatform
import ReminderTestSupport
import Testing

/// `plan` against a second implementation written independently in Python (datetime + zoneinfo,
/// `Tests/Oracle/plan_oracle.py`), over random items, zones, settings and ranges that lean on
/// the hard parts: DST gaps and overlaps, reminder and quiet-hour times near the changes, month
/// ends, Feb 29, creation times inside the range, benefit periods counted from a start date.
///
/// `REMINDERD_PROPERTY_SEED` replays a run; `REMINDERD_PROPERTY_CASES` makes it longer.
@Suite struct PlanOracleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let hardZones = [
        "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Pacific/Apia", "Europe/Dublin",
        "America/Santiago", "America/Havana", "Pacific/Chatham", "America/St_Johns", "Antarctica/Troll",
        "Asia/Gaza", "Africa/Casablanca", "Asia/Kathmandu", "Australia/Adelaide", "America/Asuncion",
        "Europe/Moscow", "Asia/Tehran", "America/Godthab", "Asia/Kolkata", "UTC",
    ]

    /// The system's zone table, read by the test itself: tzdata is installed by scripts/setup.sh,
    /// and without it the random zones would all be one, so a missing table is a failure.
    static let zoneTablePath = "/usr/share/zoneinfo/zone1970.tab"

    /// Every zone of `zoneTablePath`, or an error naming the file when it is missing or lists none.
    static func zoneTable(at path: String = zoneTablePath) throws -> [String] {
        let table: String
        do { table = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw ReminderCoreError.invalidValue(
                field: path, reason: "cannot be read (\(error.localizedDescription)); install tzdata (scripts/setup.sh)")
        }
        let zones = table.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
            String($0.split(separator: "\t")[2])
        }
        guard !zones.isEmpty else { throw ReminderCoreError.invalidValue(field: path, reason: "lists no zones") }
        return zones
    }

    @Test func aMissingZoneTableIsAnErrorNamingIt() {
        let error = #expect(throws: ReminderCoreError.self) {
            try PlanOracleTests.zoneTable(at: "/nonexistent/zone1970.tab")
        }
        #expect(error?.field == "/nonexistent/zone1970.tab")
        #expect(error?.reason.contains("install tzdata") == true)
    }

    @Test func planAgreesWithTheIndependentImplementation() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["REMINDERD_PROPERTY_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0..<1_000_000)
        let caseCount = environment["REMINDERD_PROPERTY_CASES"].flatMap(Int.init) ?? 400
        var generator = SplitMix64(seed: seed)
        let allZones = try PlanOracleTests.zoneTable()
        let cases = (0..<caseCount).map { _ in PlanOracleTests.randomCase(&generator, allZones: allZones) }
        let expected = try PlanOracleTests.runOracle(cases)
        var compared = 0
        var fireTimes = 0
        for (index, testCase) in cases.enumerated() {
            let actual = try PlanOracleTests.swiftPlan(testCase)
            fireTimes += actual.count
            compared += 1
            guard case .array(let want) = expected[index], case .array(let got) = actual.json else {
                Issue.record("case \(index): oracle gave no array")
                continue
            }
            if want != got {
                let firstDifference = zip(want, got).first { $0 != $1 }
                Issue.record(
                    """
                    seed \(seed) case \(index) disagrees (\(got.count) fire times, oracle \(want.count)).
                    first difference: \(String(describing: firstDifference))
                    case: \(String(decoding: try JSONEncoder().encode(testCase), as: UTF8.self))
                    """)
                break
            }
        }
        #expect(compared == caseCount)
        #expect(fireTimes > caseCount, "the random cases should produce fire times (seed \(seed))")
    }

    // MARK: - Running both

    static func swiftPlan(_ testCase: JSONValue) throws -> (json: JSONValue, count: Int) {
        guard case .object(let fields) = testCase, let config = fields["config"],
            case .array(let items)? = fields["items"],
            case .string(let from)? = fields["from"], case .string(let to)? = fields["to"]
        else { throw ReminderCoreError.invalidValue(field: "case", reason: "malformed") }
        let configuration = try Configuration(json: config)
        let zone = try ZoneDatabase.shared.zone(configured: configuration.timeZone)
        let start = try Timestamp.parse(from).get()
        let end = try Timestamp.parse(to).get()
        let context = Item.DecodingContext(zone: zone, defaultCreatedAt: start)
        let decoded = try items.enumerated().map {
            try Item(json: $0.element, path: "items[\($0.offset)]", context: context)
        }
        let planner = Planner(configuration: configuration, zone: zone)
        let entries = planner.plan(items: decoded, from: start, to: end)
        return (try JSONValue.parse(Array(planner.json(entries, items: decoded).utf8), source: "plan"), entries.count)
    }

    static func runOracle(_ cases: [JSONValue]) throws -> [JSONValue] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "reminderd-oracle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("cases.json")
        try JSONEncoder().encode(JSONValue.array(cases)).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("Tests/Oracle/plan_oracle.py").path, input.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "the Python oracle failed")
        guard case .array(let plans) = try JSONValue.parse(Array(data), source: "oracle"), plans.count == cases.count
        else {
            throw ReminderCoreError.invalidValue(field: "oracle", reason: "unexpected output")
        }
        return plans
    }

    // MARK: - Random cases

    static func randomCase(_ g: inout SplitMix64, allZones: [String]) -> JSONValue {
        let zoneName: String
        switch Int.random(in: 0..<10, using: &g) {
        case 0...3:
            zoneName = ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Pacific/Apia"].randomElement(
                using: &g)!
        case 4...6: zoneName = hardZones.randomElement(using: &g)!
        default: zoneName = allZones.randomElement(using: &g)!
        }
        let zone = try! ZoneDatabase.shared.zone(named: zoneName)
        // Ranges from 2010 to 2040, so both the file's transitions and the footer rule are used;
        // Apia cases sit around its skipped day.
        var fromInstant = Int64.random(in: 1_262_304_000...2_208_988_800, using: &g)
        if zoneName == "Pacific/Apia", Bool.random(using: &g) {
            fromInstant = 1_322_000_000 + Int64.random(in: 0...3_000_000, using: &g)
        }
        let span = Int64.random(in: 86_400...(400 * 86_400), using: &g)
        let from = Timestamp.format(fromInstant, in: zone)
        let to = Timestamp.format(fromInstant + span, in: zone)
        let fromDate = zone.localDateTime(at: fromInstant).date

        var config: [String: JSONValue] = ["timeZone": .string(zoneName)]
        config["reminderTime"] = .string(randomTime(&g))
        if Bool.random(using: &g) { config["leadTimes"] = randomLeads(&g) }
        switch Int.random(in: 0..<6, using: &g) {
        case 0: config["quietHours"] = .null
        case 1: break  // the default window
        default: config["quietHours"] = .object(["start": .string(randomTime(&g)), "end": .string(randomTime(&g))])
        }
        // Working days (weekdays only: the holiday table is checked against its source on its own,
        // Tests/EndToEnd/test_holiday_table.py): a wrapping range or a list.
        let days = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
        switch Int.random(in: 0..<3, using: &g) {
        case 0:
            let first = Int.random(in: 0..<7, using: &g)
            let last = (first + Int.random(in: 0..<7, using: &g)) % 7
            config["workdays"] = .object(["days": .string("\(days[first])-\(days[last])")])
        case 1:
            let list = days.filter { _ in Bool.random(using: &g) }
            config["workdays"] = .object(["days": .string((list.isEmpty ? ["wed"] : list).joined(separator: ","))])
        default: break
        }

        var items: [JSONValue] = []
        for index in 0..<Int.random(in: 5...15, using: &g) {
            var item: [String: JSONValue] = ["id": .string("i\(index)"), "title": .string("Item \(index)")]
            let near = { (g: inout SplitMix64) -> LocalDate in
                let offset = Int64.random(in: -40...(Int64(span / 86_400) + 40), using: &g)
                var date = fromDate.adding(days: offset)
                if Int.random(in: 0..<3, using: &g) == 0 {  // month ends and Feb 29
                    let year = [2012, 2016, 2024, 2028, 2036].randomElement(using: &g)!
                    date =
                        Bool.random(using: &g)
                        ? LocalDate(uncheckedYear: min(max(date.year, 1971), 2199), month: date.month, day: 1)
                            .lastDayOfMonth
                        : LocalDate(uncheckedYear: year, month: 2, day: 29)
                }
                return date
            }
            var lastPurchasedLimit = fromDate
            if Int.random(in: 0..<3, using: &g) == 0 {
                let created = fromInstant + Int64.random(in: (-30 * 86_400)...span, using: &g)
                item["createdAt"] = .string(Timestamp.format(created, in: zone))
                lastPurchasedLimit = zone.localDateTime(at: created).date
            }
            if Int.random(in: 0..<3, using: &g) == 0 { item["lead"] = randomLeads(&g) }
            switch Int.random(in: 0..<5, using: &g) {
            case 0:
                item["kind"] = .string("benefit")
                item["period"] = .string(["monthly", "quarterly", "semiannual", "annual"].randomElement(using: &g)!)
                item["amount"] = .string("15")
                // Half count their periods from a start (a card anniversary): month ends, Feb 29.
                if Bool.random(using: &g) {
                    item["periodStart"] = .string(near(&g).description)
                }
            case 1:
                item["kind"] = .string("subscription")
                item["every"] = .string(
                    ["1w", "2w", "1mo", "3mo", "6mo", "1y", "10d", "30d", "1d", "13mo"].randomElement(using: &g)!)
                item["next"] = .string(near(&g).adding(days: -Int64.random(in: 0...400, using: &g)).description)
            case 2:
                item["kind"] = .string("coupon")
                let date = near(&g)
                item["expires"] = .string(Bool.random(using: &g) ? date.description : "\(date)T\(randomTime(&g))")
            case 3:
                item["kind"] = .string("fee")
                item["due"] = .string(near(&g).adding(days: -Int64.random(in: 0...1000, using: &g)).description)
            default:
                item["kind"] = .string("rebuy")
                item["everyDays"] = .integer(Int64.random(in: 1...365, using: &g))
                item["lastPurchased"] = .string(
                    lastPurchasedLimit.adding(days: -Int64.random(in: 0...200, using: &g)).description)
            }
            items.append(.object(item))
        }
        return .object(["config": .object(config), "items": .array(items), "from": .string(from), "to": .string(to)])
    }

    /// Half the times fall between 00:00 and 03:59, where the DST changes are.
    static func randomTime(_ g: inout SplitMix64) -> String {
        let hour = Bool.random(using: &g) ? Int.random(in: 0...3, using: &g) : Int.random(in: 0...23, using: &g)
        let minute = [0, 0, 15, 30, 45, 59, Int.random(in: 0...59, using: &g)].randomElement(using: &g)!
        return "\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)"
    }

    static func randomLeads(_ g: inout SplitMix64) -> JSONValue {
        let count = Int.random(in: 0...4, using: &g)
        return .array(
            (0..<count).map { _ in
                switch Int.random(in: 0..<4, using: &g) {
                case 0: return .string("\(Int.random(in: 0...10, using: &g))d")
                case 1: return .string("\(Int.random(in: 1...2, using: &g))w")
                case 2: return .string("\(Int.random(in: 0...48, using: &g))h")
                default: return .string("\(Int.random(in: 0...600, using: &g))m")
                }
            })
    }
}
