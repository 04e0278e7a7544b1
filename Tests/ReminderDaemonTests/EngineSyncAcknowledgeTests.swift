import CivilTime
import Foundation
import ICalendar
import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

@testable import ReminderDaemon

/// Acknowledgements across devices (issue #14): a dismiss, snooze or Done here is pushed as
/// `X-MOZ-LASTACK` / `ACKNOWLEDGED`, and one made on another device closes the pop-up here, which
/// is then not shown again; a snooze elsewhere reminds here at its end, as a local one would.
@Suite struct EngineSyncAcknowledgeTests: TwoDeviceSuite {
    let devices: TwoDevices

    init() throws { devices = try TwoDevices() }

    /// A coupon expiring two hours after the start, reminded an hour before, on both devices.
    func sharedCoupon() -> String {
        shared { $0.addCoupon(expiresIn: 7200, leads: ["1h"]) }
    }

    /// The shared coupon's reminder on screen on both devices: its id and the two pop-ups.
    func shownOnBoth() throws -> (id: String, onA: UInt32, onB: UInt32) {
        let id = sharedCoupon()
        a.advance(to: 3600)
        b.advance(to: 3600)
        return (id, try #require(a.notifier.acceptedIds.first), try #require(b.notifier.acceptedIds.first))
    }

    /// The master VTODO of the item's resource on the server.
    func todo() throws -> Component {
        let calendar = try Component.parse(try #require(server.resources.values.first?.body))
        return try #require(calendar.components.first { $0.name == "VTODO" })
    }

    func acknowledged(_ todo: Component) -> [String?] {
        [todo.property("X-MOZ-LASTACK")?.value]
            + todo.components("VALARM").map { $0.property("ACKNOWLEDGED")?.value }
    }

    @Test func aDismissSnoozeAndDoneHereArePushedAsAcknowledgements() throws {
        let id = sharedCoupon()
        a.advance(to: 3600)
        let popUp = try #require(a.notifier.acceptedIds.first)
        a.clock.set(EngineHarness.start + 3660)
        a.emit(.closed(id: popUp, reason: 2))
        #expect(a.history(id).suffix(1) == ["dismissed"])
        server.sync(a.engine)
        let dismissed = DateTimeValue.utc(EngineHarness.start + 3660).description
        #expect(acknowledged(try todo()) == [dismissed, dismissed])
        a.clock.set(EngineHarness.start + 3700)
        _ = a.perform("Snooze", ["id": .string(id), "duration": .string("10m")])
        server.sync(a.engine)
        let snoozed = DateTimeValue.utc(EngineHarness.start + 3700).description
        #expect(acknowledged(try todo()) == [snoozed, snoozed])
        a.clock.set(EngineHarness.start + 3800)
        _ = a.perform("Done", ["id": .string(id)])
        server.sync(a.engine)
        let done = DateTimeValue.utc(EngineHarness.start + 3800).description
        #expect(acknowledged(try todo()) == [done, done])
        #expect(a.pending.isEmpty)
    }

    @Test func aDismissElsewhereClosesThePopUpHereAndItIsNotShownAgain() throws {
        let (id, onA, onB) = try shownOnBoth()
        a.clock.set(EngineHarness.start + 3660)
        a.emit(.closed(id: onA, reason: 2))
        server.sync(a.engine)
        b.clock.set(EngineHarness.start + 3700)
        server.sync(b.engine)
        #expect(b.notifier.closed == [onB], "the pop-up acknowledged on the other device closes")
        #expect(b.history(id).suffix(1) == ["dismissed elsewhere"])
        #expect(b.pending.isEmpty, "nothing to push back: the server has the acknowledgement")
        // A new notification server: the pop-up closed here is not shown again.
        let shown = b.notifier.requests.count
        b.notifier.vanish()
        b.notifier.appear()
        b.settle()
        #expect(b.notifier.requests.count == shown)
        // Syncing again changes nothing more.
        server.sync(b.engine)
        #expect(b.history(id).filter { $0 == "dismissed elsewhere" }.count == 1)
    }

    @Test func aReminderWaitingHereThatWasAcknowledgedElsewhereIsNotShown() throws {
        let id = sharedCoupon()
        try b.restart(notifier: RecordingNotifier(capabilities: nil))
        a.advance(to: 3600)
        b.advance(to: 3600)
        #expect(b.notifier.requests.isEmpty, "no notification server here: the reminder waits")
        a.clock.set(EngineHarness.start + 3660)
        a.emit(.closed(id: try #require(a.notifier.acceptedIds.first), reason: 2))
        server.sync(a.engine)
        server.sync(b.engine)
        b.notifier.appear()
        b.settle()
        #expect(b.notifier.requests.isEmpty, "acknowledged on the other device before it could be shown here")
        #expect(b.history(id).suffix(1) == ["dismissed elsewhere"])
    }

    @Test func aReminderHeldForARefreshThatWasDismissedElsewhereIsNotShown() throws {
        let id = sharedCoupon()
        let waiter = ParkingCaller()
        #expect(b.perform("SyncWait", from: waiter) == nil)
        a.advance(to: 3600)
        a.emit(.closed(id: try #require(a.notifier.acceptedIds.first), reason: 2))
        server.sync(a.engine)
        b.advance(to: 3600)
        #expect(waiter.answers.count == 1, "asked for a refresh")
        server.pull(b.engine, Array(server.resources.keys))  // what reminderd-sync does on "refresh"
        b.settle()
        #expect(b.notifier.requests.isEmpty)
        #expect(b.history(id).suffix(1) == ["dismissed elsewhere"])
    }

    @Test func aSnoozeElsewhereClosesThePopUpAndRemindsHereAtItsEnd() throws {
        let (id, onA, onB) = try shownOnBoth()
        a.clock.set(EngineHarness.start + 3660)
        a.notifier.press("snooze-15m", on: onA)
        a.settle()
        #expect(a.history(id).suffix(1) == ["snoozed"])
        server.sync(a.engine)
        server.sync(b.engine)
        #expect(b.notifier.closed == [onB])
        #expect(b.history(id).suffix(1) == ["snoozed elsewhere"], "a snooze, not also a dismiss")
        b.advance(to: 3660 + 900 - 1)
        #expect(b.notifier.requests.count == 1)
        b.advance(to: 3660 + 900)
        #expect(b.notifier.requests.count == 2, "the reminder comes back at the snooze's end")
        #expect(b.history(id).suffix(1) == ["fired"])
    }

    /// Three coupons reminded at one instant share one grouped pop-up on B. Acknowledged on A
    /// one by one (a Done, a dismiss, a snooze): B shows the group again, in place, without each,
    /// and closes it with the last. Before, a grouped pop-up stayed open naming reminders done
    /// elsewhere (only a pop-up shown alone was closed).
    @Test func aGroupedPopUpLosesTheRemindersAcknowledgedElsewhere() throws {
        let ids = ["Alpha", "Bravo", "Charlie"].map { a.addCoupon(expiresIn: 7200, leads: ["1h"], title: $0) }
        server.sync(a.engine)
        server.sync(b.engine)
        a.advance(to: 3600)
        b.advance(to: 3600)
        let group = try #require(b.notifier.acceptedIds.first)
        #expect(b.notifier.requests.count == 1 && b.notifier.requests[0].summary.hasPrefix("3 reminders"))
        let onA = a.notifier.acceptedIds
        #expect(onA.count == 1)

        a.clock.set(EngineHarness.start + 3660)
        _ = a.perform("Done", ["id": .string(ids[0])])
        server.sync(a.engine)
        b.clock.set(EngineHarness.start + 3670)
        server.sync(b.engine)
        let first = try #require(b.notifier.requests.last)
        #expect(b.notifier.requests.count == 2 && first.replacesId == group)
        #expect(first.summary.hasPrefix("2 reminders") && !first.body.contains("Alpha") && first.body.contains("Bravo"))
        #expect(b.notifier.closed.isEmpty)
        let regrouped = try #require(b.notifier.acceptedIds.last)
        let shownAs = b.engine.queue.sync { b.engine.delivery.outbox.groupsOnScreen[regrouped]?.map(\.itemId) }
        #expect(shownAs == [ids[1], ids[2]])

        a.clock.set(EngineHarness.start + 3700)
        _ = a.perform("Snooze", ["id": .string(ids[1]), "duration": .string("10m")])
        server.sync(a.engine)
        b.clock.set(EngineHarness.start + 3710)
        server.sync(b.engine)
        let second = try #require(b.notifier.requests.last)
        #expect(b.notifier.requests.count == 3 && second.replacesId == regrouped)
        #expect(!second.body.contains("Bravo") && second.body.contains("Charlie"))
        #expect(b.history(ids[1]).suffix(1) == ["snoozed elsewhere"])

        a.clock.set(EngineHarness.start + 3720)
        _ = a.perform("Done", ["id": .string(ids[2])])
        server.sync(a.engine)
        b.clock.set(EngineHarness.start + 3730)
        server.sync(b.engine)
        #expect(b.notifier.requests.count == 3, "nothing left to show")
        #expect(b.notifier.closed == [try #require(b.notifier.acceptedIds.last)])
        #expect(b.engine.queue.sync { b.engine.delivery.outbox.groupsOnScreen.isEmpty })
        b.settle()
    }
}
