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
@Suite struct EngineSyncAcknowledgeTests {
    let server = FakeTaskList()
    let a: EngineHarness
    let b: EngineHarness

    init() throws {
        a = try EngineHarness()
        b = try EngineHarness()
    }

    /// A coupon expiring two hours after the start, reminded an hour before, on both devices.
    func sharedCoupon() -> String {
        let id = a.addCoupon(expiresIn: 7200, leads: ["1h"])
        server.sync(a.engine)
        server.sync(b.engine)
        return id
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
}
