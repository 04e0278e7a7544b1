import Foundation
import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

@testable import ReminderDaemon

/// A resource of an item this device knows that no longer reads (another client wrote a bad
/// value into it): the item here wins and replaces it, rather than wait behind it forever.
@Suite struct EngineSyncUnreadableTests: TwoDeviceSuite {
    let devices: TwoDevices

    init() throws { devices = try TwoDevices() }

    /// The Uber Cash credit, added on A and synced to B, then its resource spoiled on the server
    /// (`X-REMINDERD-AMOUNT:seven`); returns the item's id and href.
    func spoiled() throws -> (id: String, href: String) {
        let id = shared { $0.addUber() }
        let href = try #require(server.resources.keys.first)
        let body = try #require(server.resources[href]?.body)
        #expect(body.contains("X-REMINDERD-AMOUNT:15"))
        server.put(href, body.replacingOccurrences(of: "X-REMINDERD-AMOUNT:15", with: "X-REMINDERD-AMOUNT:seven"))
        return (id, href)
    }

    @Test func aLocalEditReplacesTheServersUnreadableCopy() throws {
        let (id, href) = try spoiled()
        _ = a.perform("Edit", ["id": .string(id), "changes": .object(["amount": .string("7")])])
        let pulled = server.pull(a.engine, [href])
        let skipped = try #require(pulled?.skipped.first)
        #expect(pulled?.skipped.count == 1)
        #expect(skipped.reason.contains("X-REMINDERD-AMOUNT"))
        #expect(skipped.reason.contains(id) && skipped.reason.contains("Uber Cash"), "names the item")
        server.sync(a.engine)
        #expect(a.pending.isEmpty, "the edit did not stay waiting")
        let body = try #require(server.resources[href]?.body)
        #expect(body.contains("X-REMINDERD-AMOUNT:7") && !body.contains("seven"))
        let reasons = a.reasons(id, "kept")
        #expect(reasons.count == 1)
        #expect(reasons.first?.contains("the server's copy was unreadable (X-REMINDERD-AMOUNT") == true)
        #expect(reasons.first?.hasSuffix("replaced with this device's") == true)
        let etag = server.resources[href]?.etag
        server.sync(a.engine)
        #expect(server.resources[href]?.etag == etag, "the next pass does not push again")
        #expect(a.reasons(id, "kept").count == 1)
        server.sync(b.engine)
        #expect(b.field(id, "amount") == "7")
    }

    @Test func withoutALocalChangeTheItemStillReplacesIt() throws {
        let (id, href) = try spoiled()
        server.sync(b.engine)
        #expect(b.pending.isEmpty)
        let body = try #require(server.resources[href]?.body)
        #expect(body.contains("X-REMINDERD-AMOUNT:15") && !body.contains("seven"))
        #expect(b.reasons(id, "kept").count == 1)
        server.sync(a.engine)
        #expect(a.field(id, "amount") == "15")
        #expect(a.reasons(id, "kept").isEmpty, "A's copy agreed with the replaced one")
    }

    @Test func aNewerGoodWriteIsMergedNotOverwritten() throws {
        let (id, href) = try spoiled()
        _ = b.perform("Edit", ["id": .string(id), "changes": .object(["card": .string("Amex Gold")])])
        server.pull(b.engine, [href])
        // Another device fixes the resource before B pushes: B's push must not overwrite it.
        let fixed = try #require(server.resources[href]?.body)
        server.put(
            href,
            fixed.replacingOccurrences(of: "X-REMINDERD-AMOUNT:seven", with: "X-REMINDERD-AMOUNT:20"))
        server.sync(b.engine)
        #expect(b.pending.isEmpty)
        #expect(b.field(id, "amount") == "20")
        #expect(b.field(id, "card") == "Amex Gold")
        let body = try #require(server.resources[href]?.body)
        #expect(body.contains("X-REMINDERD-AMOUNT:20") && body.contains("X-REMINDERD-CARD:Amex Gold"))
    }

    /// Another client keeps writing a bad value quoting terminal controls (OSC 52, BEL) into the
    /// resource, so every push of the item here meets a 412 and pulls the unreadable copy again
    /// (up to 3 times a pass): its reason is recorded once per pass, exactly as the server had it
    /// (reminderctl shows it escaped), not once per retry.
    @Test func aCopyFoundUnreadableAgainAfterA412IsRecordedOncePerPass() throws {
        let (id, href) = try spoiled()
        let bad = "X-REMINDERD-AMOUNT:\u{1B}]52;c;ZXZpbA==\u{07}"
        let body = try #require(server.resources[href]?.body).replacingOccurrences(
            of: "X-REMINDERD-AMOUNT:seven", with: bad)
        func pass() {
            ok(b.engine, "SyncBegin", [
                "collection": .string(FakeTaskList.collection), "account": .string("alice@dav.example"),
            ])
            for _ in 0..<3 {
                // The other client writes again before each push: the push meets a 412 and the
                // resource is pulled again, as reminderd-sync does.
                server.put(href, body)
                server.pull(b.engine, [href])
            }
            ok(b.engine, "SyncReport")
        }
        pass()
        let reasons = b.reasons(id, "kept")
        #expect(reasons.count == 1, "once for the pass, not per retry: \(reasons)")
        #expect(reasons.first?.contains("\u{1B}]52;c;ZXZpbA==\u{07}") == true, "stored exactly: \(reasons)")
        pass()
        #expect(b.reasons(id, "kept").count == 2, "the next pass says it again")
    }
}
