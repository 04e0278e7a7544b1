import Foundation
import ReminderCore
import ReminderJSON
import ReminderTestSupport
import Testing

@testable import ReminderDaemon

/// Two devices (two engines on their own stores) make random Dones, Undos, edits, snoozes and
/// removals of shared items and sync through one task list in random order; after both sync
/// with nothing new, they hold the same items with the same state, nothing waits, no uid is
/// there twice, and the server holds one resource per item.
@Suite struct EngineSyncConvergenceTests {
    /// Each device's items by uid: title and done occurrences.
    func state(_ harness: EngineHarness) -> [String: String] {
        let ids = harness.ids
        let uids = harness.engine.queue.sync { harness.engine.sync.uids(of: ids) }
        #expect(uids.count == ids.count && Set(uids).count == uids.count, "every item has one uid of its own")
        var state: [String: String] = [:]
        for (id, uid) in zip(ids, uids) {
            state[uid] = "\(harness.field(id, "title") ?? "") done \(harness.doneDues(id))"
        }
        return state
    }

    @Test(arguments: 0..<12)
    func devicesConverge(seed: UInt64) throws {
        var random = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 7)
        func pick(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        let server = FakeTaskList()
        let devices = [try EngineHarness(), try EngineHarness()]
        _ = devices[0].addUber()
        _ = devices[0].addCoupon(expiresIn: 20 * 86_400, leads: ["1d"])
        _ = devices[1].add([
            "kind": "subscription", "title": "Netflix", "amount": "15.49", "every": "1mo", "next": "2026-12-05",
        ])
        for device in devices + devices { server.sync(device.engine) }
        for step in 1...40 {
            let device = devices[pick(2)]
            for harness in devices { harness.clock.set(EngineHarness.start + Int64(step) * 60) }
            guard !device.ids.isEmpty else { continue }
            let id = device.ids[pick(device.ids.count)]
            switch pick(8) {
            case 0, 1: _ = device.perform("Done", ["id": .string(id), "early": .bool(true)])
            case 2: _ = device.perform("Undo", ["id": .string(id)])
            case 3:
                _ = device.perform(
                    "Edit", ["id": .string(id), "changes": .object(["title": .string("Title \(pick(3))")])])
            case 4: _ = device.perform("Snooze", ["id": .string(id), "duration": .string("\(1 + pick(3))h")])
            case 5 where pick(4) == 0: _ = device.perform("Remove", ["id": .string(id)])
            default: server.sync(device.engine)
            }
        }
        for device in devices + devices { server.sync(device.engine) }
        let (a, b) = (state(devices[0]), state(devices[1]))
        #expect(a == b, "seed \(seed)")
        #expect(server.resources.count == a.count, "seed \(seed)")
        #expect(devices[0].pending.isEmpty && devices[1].pending.isEmpty, "seed \(seed)")
    }
}
