import ReminderCore
import ReminderJSON
import Testing

@testable import reminderctl

/// A backup too large for one request: its state travels in the batch of the item it names.
@Suite struct ImportBatchesTests {
    func item(_ id: String) -> JSONValue {
        .object([
            "id": .string(id), "kind": .string("coupon"), "title": .string(String(repeating: "x", count: 300)),
            "expires": .string("2027-01-01"),
        ])
    }

    func entry(_ id: String) -> JSONValue { .object(["item": .string(id), "due": .string("2027-01-01T23:59:00Z")]) }

    @Test func eachStateEntryGoesWithItsItemAndTheBatchesFit() throws {
        let items = ["aaaa", "bbbb", "cccc", "dddd"].map(item)
        let state: JSONValue = .object([
            "occurrences": .array([entry("dddd"), entry("aaaa"), entry("cccc")]),
            "history": .array([entry("gone"), entry("bbbb")]),  // "gone": removed before the backup
        ])
        let owners = ImportBatches.owners(items, state: state)
        #expect(owners["occurrences"] == [3, 0, 2])
        #expect(owners["history"] == [0, 1])
        let ranges = try ImportBatches.ranges(items, extra: [0, 0, 0, 0], limit: 1_200)
        #expect(ranges.count > 1 && ranges.first?.lowerBound == 0 && ranges.last?.upperBound == 4)
        var seen: [JSONValue] = []
        for range in ranges {
            let part = ImportBatches.slice(state, owners: owners, range: range)
            for section in ImportBatches.sections {
                for entry in part?[section]?.elements ?? [] {
                    let owner = ["aaaa": 0, "bbbb": 1, "cccc": 2, "dddd": 3][Output.string(entry["item"])] ?? 0
                    #expect(range.contains(owner), "\(entry) is sent without its item")
                    seen.append(entry)
                }
            }
        }
        #expect(seen.count == 5)  // nothing lost, nothing twice
    }

    @Test func anItemsStateCountsTowardsItsBatchsSize() throws {
        let items = ["aaaa", "bbbb"].map(item)
        #expect(try ImportBatches.ranges(items, extra: [0, 0], limit: 1_500).count == 1)
        #expect(try ImportBatches.ranges(items, extra: [600, 0], limit: 1_500).count == 2)
    }

    @Test func aPlainArrayHasNoState() throws {
        let parts = try ItemsFile.parts(.array([item("aaaa")]), path: "items.json")
        #expect(parts.items.count == 1 && parts.state == nil)
        #expect(ImportBatches.slice(nil, owners: [:], range: 0..<1) == nil)
    }
}
