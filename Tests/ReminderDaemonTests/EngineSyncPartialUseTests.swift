import CivilTime
import Foundation
import ReminderCore
import ReminderJSON
import ReminderProtocol
import ReminderTestSupport
import Testing

@testable import ReminderDaemon

/// A partial use over sync (docs/SYNC-FORMAT.md, `X-REMINDERD-AMOUNT-USED` and its
/// `X-REMINDERD-PERIOD-END`): it stays with its period on every device, and a copy written by a
/// previous version — which keeps the period it read when the amount has not changed — does not
/// bring a month that is over back as this month's.
@Suite struct EngineSyncPartialUseTests: TwoDeviceSuite {
    let devices: TwoDevices

    init() throws { devices = try TwoDevices(now: Fixture.instant("2030-01-10T12:00:00Z")) }

    func shownUsed(_ harness: EngineHarness, _ id: String) -> String? {
        guard case .success(let reply) = harness.perform("Get", ["id": .string(id)]),
            case .object(let item)? = reply["item"], case .string(let used)? = item["amountUsed"]
        else { return nil }
        return used
    }

    @Test func aPreviousVersionsCopyWithAPeriodThatIsOverBringsNoUseBack() throws {
        let id = a.addUber()
        _ = ok(a.engine, "Done", ["id": .string(id), "amount": .string("5")])
        server.sync(a.engine)
        server.sync(b.engine)
        #expect(shownUsed(b, id) == "5")
        #expect(b.field(id, "amountUsedPeriod") == "2030-01-31", "the period comes over with the amount")
        let href = try #require(server.resources.keys.first)
        let january = try #require(server.resources[href]?.body)
        #expect(january.contains("X-REMINDERD-AMOUNT-USED;X-REMINDERD-PERIOD-END=20300131:5\r\n"))

        // February: a device of the previous version renames it, writing back the amount with
        // the period it read (January's), as that version does.
        for device in [a, b] { device.clock.set(Fixture.instant("2030-02-03T12:00:00Z")) }
        server.put(href, january.replacingOccurrences(of: "SUMMARY:Uber Cash", with: "SUMMARY:Uber Cash work"))
        server.sync(b.engine)
        #expect(b.field(id, "title") == "Uber Cash work")
        #expect(shownUsed(b, id) == nil, "January's $5 is not February's")
        let february = try #require(server.resources[href]?.body)
        #expect(!february.contains("PERIOD-END=20300228"), "B wrote January's use back as February's:\n\(february)")
        #expect(b.pending.isEmpty)

        // A change here that is not an edit (a snooze) pushes the item without the use of January.
        _ = ok(b.engine, "Snooze", ["id": .string(id), "duration": .string("1d")])
        server.sync(b.engine)
        server.sync(a.engine)
        let snoozed = try #require(server.resources[href]?.body)
        #expect(!snoozed.contains("PERIOD-END=20300228"), "B wrote January's use back as February's:\n\(snoozed)")
        #expect(shownUsed(a, id) == nil && shownUsed(b, id) == nil)
        _ = ok(a.engine, "Done", ["id": .string(id), "amount": .string("5")])
        #expect(shownUsed(a, id) == "5", "$5 of February, not $10")
    }
}
