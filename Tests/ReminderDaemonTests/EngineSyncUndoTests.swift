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
@Suite struct EngineSyncUndoTests {
    let server = FakeTaskList()
    let a: EngineHarness
    let b: EngineHarness

    init() throws {
        a = try EngineHarness()
        b = try EngineHarness()
    }

    /// The Uber Cash credit added on A and synced to B.
    func sharedCredit() -> String {
        let id = a.addUber()
        server.sync(a.engine)
        server.sync(b.engine)
        return id
    }

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
        let id = sharedCredit()
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
        let id = sharedCredit()
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
}
