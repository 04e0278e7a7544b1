import Foundation
import ICalendar
import ReminderCore
import ReminderJSON
import Testing

@testable import ReminderDaemon

/// A snooze ended by a Done (issue #14): the Done takes the snooze off the server, and a snooze
/// still there from before the last Done (as an older reminderd or a client wrote it) is not
/// taken as new by a device that reads the resource afterwards — it would remind of the next
/// occurrence at the old snooze's end.
@Suite struct EngineSyncSnoozeTests: TwoDeviceSuite {
    let devices: TwoDevices

    init() throws { devices = try TwoDevices() }

    /// The item's occurrences snoozed on `harness`, with their snooze's end.
    func snoozes(_ harness: EngineHarness, _ id: String) -> [Int64: Int64] {
        harness.engine.queue.sync { (harness.engine.occurrences[id] ?? [:]).compactMapValues(\.snoozedUntil) }
    }

    /// The Uber Cash credit on A and B, snoozed for an hour on A and done on B a minute later;
    /// returns its id and the task list's only resource's href.
    func snoozedThenDoneElsewhere() throws -> (id: String, href: String) {
        let id = shared { $0.addUber() }
        _ = a.perform("Snooze", ["id": .string(id), "duration": .string("1h")])
        server.sync(a.engine)
        server.sync(b.engine)
        #expect(b.history(id).suffix(1) == ["snoozed elsewhere"])
        b.clock.set(EngineHarness.start + 60)
        _ = b.perform("Done", ["id": .string(id)])
        server.sync(b.engine)
        server.sync(a.engine)
        return (id, try #require(server.resources.keys.first))
    }

    @Test func aDoneTakesTheSnoozeOffTheServerAndAThirdDeviceDoesNotTakeItUp() throws {
        let (id, href) = try snoozedThenDoneElsewhere()
        let body = try #require(server.resources[href]?.body)
        #expect(body.range(of: "X-MOZ-SNOOZE-TIME") == nil, "the Done took the snooze off")
        #expect(a.history(id).suffix(1) == ["done elsewhere"])
        let c = try EngineHarness()
        c.clock.set(EngineHarness.start + 120)
        server.sync(c.engine)
        #expect(c.ids == [id])
        #expect(snoozes(c, id).isEmpty, "the snooze ended with the Done")
        #expect(a.pending.isEmpty && b.pending.isEmpty && c.pending.isEmpty)
    }

    @Test func aSnoozeLeftFromBeforeTheLastDoneIsNotTakenAsNew() throws {
        let (id, href) = try snoozedThenDoneElsewhere()
        // A client that keeps X- properties puts the old snooze back (an older reminderd left it there).
        let body = try #require(server.resources[href]?.body)
        let until = "X-MOZ-SNOOZE-TIME:" + DateTimeValue.utc(EngineHarness.start + 3600).description + "\r\n"
        let at = try #require(body.range(of: "END:VTODO"))
        server.put(href, body.replacingCharacters(in: at.lowerBound..<at.lowerBound, with: until))
        let c = try EngineHarness()
        c.clock.set(EngineHarness.start + 120)
        server.sync(c.engine)
        server.sync(a.engine)
        #expect(snoozes(c, id).isEmpty, "the snooze belongs to the occurrence done since")
        #expect(c.history(id).filter { $0 == "snoozed elsewhere" }.isEmpty)
    }

    /// A Done and then a snooze in the same second (the Done ends one occurrence, the snooze is
    /// of the next): the other device takes the snooze, so both remind of the next occurrence at
    /// the same time (seed 5 of the end-to-end property test).
    @Test func aSnoozeInTheSameSecondAsTheDoneBeforeItIsTakenUpElsewhere() throws {
        let id = shared { $0.addUber() }
        b.clock.set(EngineHarness.start + 60)
        _ = b.perform("Done", ["id": .string(id)])
        _ = b.perform("Snooze", ["id": .string(id), "duration": .string("1h")])
        server.sync(b.engine)
        a.clock.set(EngineHarness.start + 90)
        server.sync(a.engine)
        #expect(snoozes(b, id).values.contains(EngineHarness.start + 60 + 3600))
        #expect(snoozes(a, id) == snoozes(b, id), "the snooze of the next occurrence is live")
        #expect(a.history(id).suffix(2) == ["done elsewhere", "snoozed elsewhere"])
        #expect(a.pending.isEmpty && b.pending.isEmpty)
    }

    /// A snoozes the next occurrence after its Done, then undoes the Done: its snooze goes to
    /// the server as one of the current occurrence, which B's Done then ends. A kept it on the
    /// next occurrence and alone reminded of it at the snooze's end (seeds 102, 200 and 201 of
    /// the end-to-end property test, under load).
    @Test func aSnoozeKeptThroughAnUndoEndsWithTheDoneElsewhere() throws {
        let id = shared { $0.addUber() }
        a.clock.set(EngineHarness.start + 10)
        _ = a.perform("Done", ["id": .string(id)])
        _ = a.perform("Snooze", ["id": .string(id), "duration": .string("1h")])  // the next occurrence's
        _ = a.perform("Undo", ["id": .string(id)])
        server.sync(a.engine)
        server.sync(b.engine)
        b.clock.set(EngineHarness.start + 60)
        _ = b.perform("Done", ["id": .string(id)])
        server.sync(b.engine)
        a.clock.set(EngineHarness.start + 60)
        server.sync(a.engine)
        #expect(a.doneDues(id) == b.doneDues(id) && a.doneDues(id).count == 1)
        // Snoozes of occurrences not done: what would remind.
        func live(_ device: EngineHarness) -> [Int64: Int64] {
            snoozes(device, id).filter { !device.doneDues(id).contains($0.key) }
        }
        #expect(live(a).isEmpty && live(b).isEmpty, "B's Done ended the snooze")
        #expect(a.pending.isEmpty && b.pending.isEmpty)
    }

    /// B holds A's snooze of the current occurrence when A's Done comes, then A's snooze of the
    /// next one (which lands on the next here), then A's Undo: the current occurrence was B's
    /// again with its old snooze, earlier than the server's one, which stayed on the next
    /// occurrence (seed 6 of the property test). B, which only pulled, holds the server's; A
    /// pushes the snooze that reminds it, its current occurrence's (it pushed the latest, of the
    /// next occurrence, which B took for the current one's: seed 200, again).
    @Test func anUndoElsewhereLeavesTheServersOneSnoozeOnTheCurrentOccurrence() throws {
        let id = shared { $0.addUber() }
        for (seconds, method) in [(10, "Snooze"), (20, "Done"), (30, "Snooze"), (40, "Undo")] {
            a.clock.set(EngineHarness.start + Int64(seconds))
            b.clock.set(EngineHarness.start + Int64(seconds))
            let snooze: [String: JSONValue] = method == "Snooze" ? ["duration": .string("1h")] : [:]
            _ = a.perform(method, snooze.merging(["id": .string(id)]) { $1 })
            server.sync(a.engine)
            server.sync(b.engine)
        }
        func live(_ device: EngineHarness) -> [Int64: Int64] {
            snoozes(device, id).filter { !device.doneDues(id).contains($0.key) }
        }
        let done = b.doneDues(id)
        let current = b.engine.queue.sync {
            b.engine.items[id].flatMap { item in
                b.engine.rules.firstOccurrence(of: item, dueAfter: EngineHarness.start + 40) { !done.contains($0.due) }
            }
        }
        #expect(live(b) == [try #require(current).due: EngineHarness.start + 10 + 3600])
        #expect(live(a)[try #require(current).due] == live(b)[try #require(current).due])
        #expect(a.pending.isEmpty && b.pending.isEmpty)
    }

    @Test func anOlderSnoozeOnOneDeviceLosesToADoneOnTheOtherWhicheverIsPushedFirst() throws {
        for snoozerFirst in [true, false] {
            let fresh = try TwoDevices()
            let (server, a, b) = (fresh.server, fresh.a, fresh.b)
            let id = fresh.shared { $0.addUber() }
            a.clock.set(EngineHarness.start + 30)
            _ = a.perform("Snooze", ["id": .string(id), "duration": .string("1h")])
            b.clock.set(EngineHarness.start + 60)
            _ = b.perform("Done", ["id": .string(id)])
            let order = snoozerFirst ? [a, b, a] : [b, a, b]
            for device in order { server.sync(device.engine) }
            let body = try #require(server.resources.values.first?.body)
            #expect(body.range(of: "X-MOZ-SNOOZE-TIME") == nil, "the newer acknowledgement, the Done's, wins")
            #expect(a.doneDues(id) == b.doneDues(id) && a.doneDues(id).count == 1)
            #expect(a.pending.isEmpty && b.pending.isEmpty)
        }
    }
}
