import Foundation
import ReminderCore
import ReminderJSON
import ReminderProtocol
import ReminderStore
import Testing

@testable import ReminderDaemon

/// Undo across devices (issue #14): a Done that came from another device can be undone here as
/// if it were local (the Undo goes back out, and that device says "undone elsewhere"), and an
/// Undo that came from another device leaves nothing here for a later Undo to walk back.
@Suite struct EngineSyncUndoTests: TwoDeviceSuite {
    let devices: TwoDevices

    init() throws { devices = try TwoDevices() }

    func undo(_ harness: EngineHarness, _ id: String) -> VarlinkReply { harness.perform("Undo", ["id": .string(id)]) }

    func nothingToUndo(_ reply: VarlinkReply) -> Bool {
        if case .failure(let error) = reply { return error.name == ReminderInterface.ErrorName.nothingToUndo }
        return false
    }

    /// The server's ledger lines of the item (its only resource).
    var ledgerOnServer: [String] {
        (server.resources.values.first?.body ?? "").split(separator: "\r\n").filter {
            $0.hasPrefix("X-REMINDERD-DONE")
        }.map(String.init)
    }

    /// The server's `DUE` line of the item: the rolling master's current occurrence.
    var dueOnServer: String? {
        (server.resources.values.first?.body ?? "").split(separator: "\r\n").first { $0.hasPrefix("DUE") }.map(
            String.init)
    }

    @Test func aDoneElsewhereIsUndoneHereAndTheUndoGoesBack() throws {
        let id = shared { $0.addUber() }
        let due = dueOnServer
        let fee = try b.engine.queue.sync { try b.engine.store.redeemed(since: 0) }
        _ = a.perform("Done", ["id": .string(id)])
        server.sync(a.engine)
        #expect(dueOnServer != due, "the master rolled to the next occurrence")
        server.sync(b.engine)
        #expect(b.history(id).suffix(1) == ["done elsewhere"])
        #expect(try b.engine.queue.sync { try b.engine.store.redeemed(since: 0) } == fee, "no amount came with it")
        b.clock.set(EngineHarness.start + 60)
        guard case .success = undo(b, id) else {
            Issue.record("the Done elsewhere could not be undone here: \(undo(b, id))")
            return
        }
        #expect(b.doneDues(id).isEmpty)
        #expect(b.history(id).suffix(1) == ["undone"])
        #expect(nothingToUndo(undo(b, id)), "that was the only Done")
        server.sync(b.engine)
        #expect(ledgerOnServer.isEmpty)
        #expect(dueOnServer == due && due != nil, "the master rolls back to the occurrence undone")
        server.sync(a.engine)
        #expect(a.doneDues(id).isEmpty)
        #expect(a.history(id).suffix(1) == ["undone elsewhere"])
        #expect(
            try a.engine.queue.sync { try a.engine.store.redeemed(since: 0) } == fee,
            "the card's fee return no longer counts the Done undone elsewhere")
        #expect(nothingToUndo(undo(a, id)), "undone elsewhere: nothing left here to walk back")
        #expect(a.pending.isEmpty && b.pending.isEmpty)
    }

    @Test func undoWalksBackLocalDonesAndDonesElsewhereNewestFirst() throws {
        let id = shared { $0.addUber() }
        _ = a.perform("Done", ["id": .string(id)])
        server.sync(a.engine)
        server.sync(b.engine)
        b.clock.set(EngineHarness.start + 60)
        _ = b.perform("Done", ["id": .string(id), "early": .bool(true)])
        let (elsewhere, here) = (a.doneDues(id)[0], b.doneDues(id)[1])
        #expect(b.doneDues(id) == [elsewhere, here])
        _ = undo(b, id)
        #expect(b.doneDues(id) == [elsewhere], "the newest Done first: the early one made here")
        _ = undo(b, id)
        #expect(b.doneDues(id).isEmpty)
        #expect(nothingToUndo(undo(b, id)))
        server.sync(b.engine)
        server.sync(a.engine)
        #expect(a.doneDues(id).isEmpty)
        #expect(ledgerOnServer.isEmpty)
    }

    /// The item's one resource on the server, as a phone would GET it.
    func resourceOnServer() throws -> (href: String, body: String) {
        let (href, resource) = try #require(server.resources.first)
        return (href, resource.body)
    }

    /// A phone's write: its PRODID, the rest as `edit` leaves the body.
    func phoneWrites(_ edit: (String) -> String) throws {
        let (href, body) = try resourceOnServer()
        server.put(
            href,
            edit(body).replacingOccurrences(
                of: "PRODID:-//reminderd//reminderd-sync//EN", with: "PRODID:+//IDN tasks.org//android-140107//EN"))
    }

    /// A coupon done on A, unticked on a phone (`STATUS:NEEDS-ACTION`, `COMPLETED` gone, the
    /// ledger kept as clients keep unknown properties): an Undo made elsewhere on both devices,
    /// and its reminders resume. Before, A stayed "used", wrote no history and the phone's
    /// alarms rang alone.
    @Test func aPhoneUntickingADoneOneOffIsAnUndoElsewhere() throws {
        let id = shared { $0.addCoupon(expiresIn: 40 * 86_400, leads: ["1d"]) }
        _ = a.perform("Done", ["id": .string(id)])
        server.sync(a.engine)
        server.sync(b.engine)
        #expect(b.doneDues(id).count == 1)
        #expect(try resourceOnServer().body.contains("STATUS:COMPLETED"))
        try phoneWrites { body in
            body.replacingOccurrences(of: "STATUS:COMPLETED", with: "STATUS:NEEDS-ACTION")
                .replacingOccurrences(of: "PERCENT-COMPLETE:100", with: "PERCENT-COMPLETE:0")
                .replacing(/\r\nCOMPLETED:[0-9TZ]+/, with: "")
        }
        server.sync(a.engine)
        #expect(a.doneDues(id).isEmpty)
        #expect(a.history(id).suffix(1) == ["undone elsewhere"])
        guard case .object(let shown)? = ok(a.engine, "Get", ["id": .string(id)])["item"] else {
            Issue.record("Get \(id) has no item")
            return
        }
        #expect(shown["nextReminder"] != nil && shown["nextReminder"] != .null, "its reminders resume")
        let body = try resourceOnServer().body
        #expect(body.contains("PRODID:-//reminderd//reminderd-sync//EN") && !body.contains("X-REMINDERD-DONE"))
        #expect(a.pending.isEmpty)
        server.sync(b.engine)
        #expect(b.doneDues(id).isEmpty)
        #expect(b.history(id).suffix(1) == ["undone elsewhere"])
        #expect(a.pending.isEmpty && b.pending.isEmpty)
    }

    /// The credit done on A (the master rolled to December), unticked in Tasks.org, whose Undo
    /// puts the date back on November: an Undo of November on both devices, the master back on
    /// November with an empty ledger.
    @Test func aPhoneMovingTheDateBackOnADoneOccurrenceIsAnUndoElsewhere() throws {
        let id = shared { $0.addUber() }
        let november = dueOnServer
        _ = a.perform("Done", ["id": .string(id)])
        server.sync(a.engine)
        server.sync(b.engine)
        #expect(dueOnServer == "DUE;TZID=UTC:20261231T235900" && ledgerOnServer.count == 1)
        try phoneWrites { $0.replacingOccurrences(of: "TZID=UTC:20261231T235900", with: "TZID=UTC:20261130T235900") }
        server.sync(a.engine)
        #expect(a.doneDues(id).isEmpty)
        #expect(a.history(id).suffix(1) == ["undone elsewhere"])
        #expect(ledgerOnServer.isEmpty && dueOnServer == november)
        server.sync(b.engine)
        #expect(b.doneDues(id).isEmpty)
        #expect(b.history(id).suffix(1) == ["undone elsewhere"])
        #expect(a.pending.isEmpty && b.pending.isEmpty)
    }

    /// Tasks.org rolling December after A's Done of November: a Done of December, not an untick.
    @Test func aPhoneRollingPastADoneOccurrenceIsADone() throws {
        let id = shared { $0.addUber() }
        _ = a.perform("Done", ["id": .string(id)])
        server.sync(a.engine)
        try phoneWrites { $0.replacingOccurrences(of: "TZID=UTC:20261231T235900", with: "TZID=UTC:20270131T235900") }
        server.sync(a.engine)
        #expect(a.doneDues(id).count == 2)
        #expect(a.history(id).suffix(1) == ["done elsewhere"])
        #expect(ledgerOnServer.count == 2 && dueOnServer == "DUE;TZID=UTC:20270131T235900")
    }
}
