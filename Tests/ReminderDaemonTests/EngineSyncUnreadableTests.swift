import Foundation
import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

@testable import ReminderDaemon

/// A resource of an item this device knows that no longer reads (another client wrote a bad
/// value into it): the item here wins and replaces it, rather than wait behind it forever.
@Suite struct EngineSyncUnreadableTests {
    let server = FakeTaskList()
    let a: EngineHarness
    let b: EngineHarness

    init() throws {
        a = try EngineHarness()
        b = try EngineHarness()
    }

    /// The Uber Cash credit, added on A and synced to B, then its resource spoiled on the server
    /// (`X-REMINDERD-AMOUNT:seven`); returns the item's id and href.
    func spoiled() throws -> (id: String, href: String) {
        let id = a.addUber()
        server.sync(a.engine)
        server.sync(b.engine)
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
}
