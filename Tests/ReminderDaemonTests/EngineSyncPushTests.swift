import CivilTime
import Foundation
import ICalendar
import ReminderCore
import ReminderJSON
import ReminderProtocol
@_spi(Testing) import ReminderStore
import Testing

@testable import ReminderDaemon

/// reminderd's side of pushing: what SyncPending asks reminderd-sync to PUT or DELETE for each
/// kind of local change, SyncPushed, SyncBegin, SyncReport and SyncStatus.
@Suite struct EngineSyncPushTests {
    let server = FakeTaskList()

    func begin(_ harness: EngineHarness) {
        ok(harness.engine, "SyncBegin", [
            "collection": .string(FakeTaskList.collection), "account": .string("alice@dav.example"),
        ])
    }

    /// The master VTODO of a body.
    func todo(_ body: String?) throws -> Component {
        let calendar = try Component.parse(try #require(body))
        return try #require(calendar.components.first { $0.name == "VTODO" })
    }

    func pushed(_ harness: EngineHarness, _ change: SyncPendingReply.Change, etag: String = "\"e1\"") {
        var parameters: [String: JSONValue] = [
            "uid": .string(change.uid), "seq": .integer(change.seq), "href": .string(change.href),
        ]
        if let body = change.body {
            parameters["etag"] = .string(etag)
            parameters["body"] = .string(body)
        }
        ok(harness.engine, "SyncPushed", parameters)
    }

    @Test func aNewItemIsPushedAsACreateUnderItsUID() throws {
        let harness = try EngineHarness()
        let id = harness.addUber()
        begin(harness)
        let change = try #require(harness.pending.first)
        let uid = try #require(harness.engine.queue.sync { harness.engine.sync.uids(of: [id, "none"]) }.first)
        #expect(change.uid == uid)
        #expect(change.href == "/alice/reminderd/\(uid.dropLast("@reminderd".count)).ics")
        #expect(change.etag == nil, "a create: If-None-Match: *")
        let todo = try todo(change.body)
        #expect(todo.property("UID")?.value == uid)
        #expect(todo.property("X-REMINDERD-KIND")?.value == "benefit")
        #expect(todo.property("X-REMINDERD-ITEM-ID")?.value == id)
        #expect(todo.property("SUMMARY")?.value == "Uber Cash $15 — Amex Platinum")
        #expect(todo.property("DUE")?.value == "20261130T235900")
        pushed(harness, change)
        #expect(harness.pending.isEmpty)
        let begun = try #require(reply(harness.engine, "SyncBegin", SyncBeginReply.self, [
            "collection": .string(FakeTaskList.collection), "account": .string("alice@dav.example"),
        ]))
        #expect(begun.resources == [SyncBeginReply.Known(href: change.href, etag: "\"e1\"")])
    }

    @Test func eachKindOfChangeIsPushedAsAnUpdateOfTheServersBody() throws {
        let harness = try EngineHarness()
        let id = harness.addCoupon(expiresIn: 3 * 86_400, leads: ["1d"])
        begin(harness)
        var change = try #require(harness.pending.first)
        // Another client's property in the server's body survives every write.
        let foreign = try #require(change.body).replacingOccurrences(
            of: "BEGIN:VTODO\r\n", with: "BEGIN:VTODO\r\nX-APPLE-SORT-ORDER:7\r\n")
        change.body = foreign
        pushed(harness, change)
        func next(_ action: () -> Void) throws -> Component {
            action()
            let change = try #require(harness.pending.first)
            #expect(change.etag == "\"e1\"", "an update: If-Match the base's etag")
            let written = try todo(change.body)
            #expect(written.property("X-APPLE-SORT-ORDER")?.value == "7")
            return written
        }
        var written = try next { _ = harness.perform("Edit", ["id": .string(id), "changes": .object(["title": .string("Big deal")])]) }
        #expect(written.property("SUMMARY")?.value == "Big deal")
        written = try next { _ = harness.perform("Snooze", ["id": .string(id), "duration": .string("1h")]) }
        #expect(written.property("X-MOZ-SNOOZE-TIME")?.value == DateTimeValue.utc(EngineHarness.start + 3600).description)
        written = try next { _ = harness.perform("Done", ["id": .string(id)]) }
        #expect(written.property("STATUS")?.value == "COMPLETED")
        #expect(written.properties("X-REMINDERD-DONE").count == 1)
        written = try next { _ = harness.perform("Undo", ["id": .string(id)]) }
        #expect(written.property("STATUS")?.value == "NEEDS-ACTION")
        #expect(written.properties("X-REMINDERD-DONE").isEmpty)
        _ = harness.perform("Remove", ["id": .string(id)])
        let removal = try #require(harness.pending.first)
        #expect(removal.body == nil && removal.etag == "\"e1\"" && removal.href == change.href, "a DELETE, If-Match")
        pushed(harness, removal)
        #expect(harness.pending.isEmpty)
        #expect(harness.engine.queue.sync { harness.engine.sync.uids(of: [id]) }.isEmpty)
    }

    @Test func aChangeMadeWhileItsPushIsOnTheWayStaysWaiting() throws {
        let harness = try EngineHarness()
        let id = harness.addUber()
        begin(harness)
        let first = try #require(harness.pending.first)
        _ = harness.perform("Edit", ["id": .string(id), "changes": .object(["title": .string("Lyft Cash")])])
        pushed(harness, first)
        let second = try #require(harness.pending.first)
        #expect(second.seq > first.seq)
        #expect(second.etag == "\"e1\"")
        #expect(try todo(second.body).property("SUMMARY")?.value.hasPrefix("Lyft Cash") == true)
    }

    @Test func anUnreadableItemWaitsWithoutHoldingUpTheOthers() throws {
        let harness = try EngineHarness()
        let broken = harness.addUber()
        begin(harness)
        try StoreFaults.corruptItemJSON(id: broken, with: "{\"kind\": \"benefit\"", storeAt: harness.storePath)
        try harness.restart()
        let other = harness.addCoupon(expiresIn: 86_400, leads: ["1h"])
        let uid = try #require(harness.engine.queue.sync { harness.engine.sync.uids(of: [other]) }.first)
        #expect(harness.pending.map(\.uid) == [uid])
        #expect(reply(harness.engine, "SyncStatus", SyncStatusReply.self)?.waiting == 2)
    }

    @Test func pendingBeforeAnyBeginIsRefusedInWords() throws {
        let harness = try EngineHarness()
        _ = harness.addUber()
        guard case .failure(let error) = harness.perform("SyncPending") else {
            Issue.record("SyncPending without a collection answered")
            return
        }
        #expect(error.name == ReminderInterface.ErrorName.syncFailed)
        #expect(error.parameters["reason"] == .string("no task list yet: call SyncBegin first"))
    }

    @Test func statusSaysWhatWaitsSinceWhenTheLastPassAndTheConnection() throws {
        func time(_ seconds: Int64) -> String { Timestamp.format(EngineHarness.start + seconds, in: .utc) }
        let harness = try EngineHarness()
        _ = harness.addUber()
        harness.clock.set(EngineHarness.start + 60)
        _ = harness.add(["kind": "benefit", "title": "Resy credit", "card": "Amex Platinum", "period": "monthly"])
        begin(harness)
        var status = try #require(reply(harness.engine, "SyncStatus", SyncStatusReply.self))
        #expect(status.account == "alice@dav.example" && status.collection == FakeTaskList.collection)
        #expect(status.waiting == 2 && status.waitingSince == time(0))
        #expect(status.lastSync == nil && status.lastAttempt == nil && status.error == nil && !status.connected)
        ok(harness.engine, "SyncReport", ["error": .string("dav.example: 503 Service Unavailable")])
        let waiter = ParkingCaller()
        #expect(harness.perform("SyncWait", from: waiter) == nil)  // parked: a reminderd-sync is connected
        status = try #require(reply(harness.engine, "SyncStatus", SyncStatusReply.self))
        #expect(status.error == "dav.example: 503 Service Unavailable" && status.lastAttempt == time(60))
        #expect(status.lastSync == nil && status.connected)
        server.sync(harness.engine)
        status = try #require(reply(harness.engine, "SyncStatus", SyncStatusReply.self))
        #expect(status.waiting == 0 && status.waitingSince == nil && status.error == nil)
        #expect(status.lastSync == time(60))
    }
}
