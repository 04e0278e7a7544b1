import ReminderCore
import ReminderJSON
import Testing

@testable import ReminderDaemon

/// Repeat until acknowledged across devices (issue #30): the item's repeat reaches the other
/// device with it, and a dismiss there — the "acknowledged elsewhere" path — stops the repeats
/// here, through a restart too.
@Suite struct EngineSyncRepeatTests: TwoDeviceSuite {
    let devices: TwoDevices

    init() throws { devices = try TwoDevices() }

    /// Minutes after the start at which `harness` showed pop-ups, advancing a minute at a time.
    func shownMinutes(_ harness: EngineHarness, from: Int64, through: Int64) -> [Int64] {
        (from...through).filter { step in
            let before = harness.notifier.requests.count
            harness.advance(to: step * 60)
            return harness.notifier.requests.count > before
        }
    }

    @Test func aDismissOnAnotherDeviceStopsTheRepeatsHere() throws {
        let id = a.addCoupon(expiresIn: 4 * 3600, leads: ["2h"])
        _ = a.perform("Edit", ["id": .string(id), "changes": .object(["repeatEvery": .string("15m")])])
        server.sync(a.engine)
        server.sync(b.engine)
        #expect(shownMinutes(a, from: 1, through: 120) == [120])
        #expect(shownMinutes(b, from: 1, through: 135) == [120, 135], "the repeat came with the item")
        a.clock.set(EngineHarness.start + 136 * 60)
        a.emit(.closed(id: try #require(a.notifier.acceptedIds.last), reason: 2))
        server.sync(a.engine)
        server.sync(b.engine)
        #expect(b.history(id).suffix(1) == ["dismissed elsewhere"])
        #expect(shownMinutes(b, from: 137, through: 140) == [])
        try b.restart()
        #expect(shownMinutes(b, from: 141, through: 239) == [])
    }
}
