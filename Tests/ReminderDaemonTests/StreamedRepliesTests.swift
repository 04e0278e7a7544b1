import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

@testable import ReminderDaemon

/// `List` and `Export` are written item by item as they go out (`StreamedReplies.swift`): the
/// bytes must be those of the replies built as trees (same keys, order and escapes), and show
/// the items as they were when the call was answered.
@Suite struct StreamedRepliesTests {
    /// One of each kind, a settled coupon (`all` shows it), a use, a snooze, and titles that need
    /// escaping or are not ASCII.
    func harnessWithVariedItems() throws -> (EngineHarness, [String]) {
        let harness = try EngineHarness()
        let items: [[String: JSONValue]] = [
            [
                "kind": .string("benefit"), "title": .string("Uber \"Cash\" \\ monthly"), "card": .string("Gold"),
                "amount": .string("10"), "period": .string("monthly"), "notes": .string("line one\nline\ttwo"),
            ],
            [
                "kind": .string("fee"), "title": .string("Gold fee ✈️"), "card": .string("Gold"),
                "amount": .string("325"), "due": .string("2030-03-10"), "currency": .string("EUR"),
            ],
            [
                "kind": .string("subscription"), "title": .string("Gym"), "amount": .string("30"),
                "every": .string("1mo"), "next": .string("2030-11-25"), "lead": .array([.string("1d")]),
            ],
            [
                "kind": .string("rebuy"), "title": .string("Coffee"), "everyDays": .integer(30),
                "lastPurchased": .string("2026-10-01"),
            ],
            ["kind": .string("coupon"), "title": .string("Gone"), "expires": .string("2026-11-01T12:00")],
            ["kind": .string("coupon"), "title": .string("Deal"), "expires": .string("2030-01-05T12:00")],
        ]
        var ids: [String] = []
        for item in items {
            let reply = harness.perform("Add", ["item": .object(item)])
            guard case .success(let added) = reply, case .string(let id)? = added["id"] else {
                Issue.record("add failed: \(reply)")
                continue
            }
            ids.append(id)
        }
        _ = harness.perform("Done", ["id": .string(ids[0]), "amount": .string("4.5")])
        _ = harness.perform("Snooze", ["id": .string(ids[5]), "duration": .string("1d")])
        return (harness, ids)
    }

    /// The reply as the server gets it from the engine, not read back.
    func raw(_ engine: ReminderEngine, _ method: ReminderMethod, _ parameters: [String: JSONValue] = [:])
        -> VarlinkReply?
    {
        engine.queue.sync { engine.perform(method, parameters, caller: ParkingCaller()) }
    }

    @Test func listAndExportAreStreamedAndWriteTheBytesOfTheirTrees() throws {
        let (harness, _) = try harnessWithVariedItems()
        let engine = harness.engine
        for (kind, all) in [(nil, false), (nil, true), ("coupon", true), ("benefit", false)] as [(String?, Bool)] {
            var parameters: [String: JSONValue] = ["all": .bool(all)]
            if let kind { parameters["kind"] = .string(kind) }
            guard let reply = raw(engine, .list, parameters) else { return }
            guard case .streamed = reply else {
                Issue.record("List (\(kind ?? "any"), all: \(all)) was built whole: \(reply)")
                continue
            }
            let tree = try engine.queue.sync {
                try VarlinkReply.success(
                    ListReply(items: engine.queries(now: harness.clock.now).list(kind: kind, all: all)).parameters)
            }
            #expect(engine.queue.sync { reply.bytes } == tree.bytes, "List (\(kind ?? "any"), all: \(all))")
        }
        for history in [false, true] {
            guard let reply = raw(engine, .export, ["history": .bool(history)]) else { return }
            guard case .streamed = reply else {
                Issue.record("Export (history: \(history)) was built whole: \(reply)")
                continue
            }
            let tree = try engine.queue.sync {
                try VarlinkReply.success(
                    Backup(zone: engine.zone).export(engine.index, from: engine.store, history: history).parameters)
            }
            #expect(engine.queue.sync { reply.bytes } == tree.bytes, "Export (history: \(history))")
        }
    }

    @Test func aStreamedListShowsTheItemsAsTheyWereWhenItWasAnswered() throws {
        let (harness, ids) = try harnessWithVariedItems()
        let engine = harness.engine
        guard let reply = raw(engine, .list, ["all": .bool(true)]) else { return }
        let before = engine.queue.sync { reply.bytes }
        _ = harness.perform("Edit", ["id": .string(ids[2]), "changes": .object(["title": .string("Pool")])])
        _ = harness.perform("Remove", ["id": .string(ids[3])])
        _ = harness.perform(
            "Add", ["item": .object(["kind": .string("coupon"), "title": .string("New"), "expires": .string("2030-02-01")])])
        #expect(engine.queue.sync { reply.bytes } == before)
        guard case .success(let read) = try VarlinkReply(bytes: Array(before.dropLast())),
            case .array(let items)? = read["items"]
        else {
            Issue.record("the streamed List does not read back")
            return
        }
        #expect(items.count == ids.count)
        let titles = items.compactMap { item -> String? in
            guard case .object(let fields) = item, case .string(let title)? = fields["title"] else { return nil }
            return title
        }
        #expect(titles.contains("Gym") && !titles.contains("Pool") && titles.contains("Coffee") && !titles.contains("New"))
    }
}
