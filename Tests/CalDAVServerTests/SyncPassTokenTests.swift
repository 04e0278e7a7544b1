import CalDAV
import Foundation
import ReminderProtocol
import ReminderSyncService
import Testing

/// The sync token after the pass's own writes, against real Radicale and Xandikos. Xandikos
/// answers sync-collection with the difference between two states of the collection, so a
/// resource made after the token and deleted since is in neither and is not reported: a device
/// whose token predates its own upload would never hear that another device deleted it.
@Suite struct SyncPassTokenTests {
    typealias Pull = SyncPassPullTests
    typealias Push = SyncPassPushTests

    /// A phone deleting `name` with a plain DELETE on its current ETag.
    static func deleteElsewhere(_ account: ServerAccount, _ name: String) throws {
        let etag = try account.client.get(account.item(name)).etag
        try account.client.delete(account.item(name), etag: etag)
    }

    @Test(arguments: ServerKind.allCases)
    func anItemPushedHereAndDeletedElsewhereIsRemovedAtTheNextPass(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            _ = try account.create("old")  // the token of the first pull names a state with something in it
            let daemon = FakeDaemon()
            daemon.outbox = [Push.change(account, "n", etag: nil, body: ServerAccount.todo("n", "new"))]
            #expect(try Pull.run(account, daemon).get().pushed == 1)
            // The pass ends with a token that postdates its own write, and its own write is not
            // handed back to reminderd as a change from elsewhere.
            let tokens = daemon.pulls.compactMap(\.token)
            try #require(tokens.count == 2)
            #expect(tokens[0] != tokens[1])
            #expect(daemon.pulledResources.map(\.href) == [Pull.path(account, "old")])
            #expect(daemon.knownAfterPulls().token == tokens[1])

            try Self.deleteElsewhere(account, "n")
            let next = FakeDaemon()
            next.begin = daemon.knownAfterPulls()
            _ = try Pull.run(account, next).get()
            #expect(next.pulledRemoved == [Pull.path(account, "n")])
            #expect(next.reports == [nil])
        }
    }

    /// The pass stopped between its write and the listing after it: reminderd forgot the token
    /// at the confirmed write, so the next pass lists everything and sees the delete.
    @Test(arguments: ServerKind.allCases)
    func aPassCutAfterItsWriteListsEverythingNextTime(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            _ = try account.create("old")
            let daemon = FakeDaemon()
            daemon.outbox = [Push.change(account, "n", etag: nil, body: ServerAccount.todo("n", "new"))]
            let pass = SyncPass(session: Pull.session(account), link: daemon, shouldStop: { !daemon.pushes.isEmpty })
            #expect(pass.run(.full).failure?.kind == .stopped)
            #expect(daemon.pushes.count == 1 && daemon.knownAfterPulls().token == nil)

            try Self.deleteElsewhere(account, "n")
            let next = FakeDaemon()
            next.begin = daemon.knownAfterPulls()
            _ = try Pull.run(account, next).get()
            #expect(next.pulledRemoved == [Pull.path(account, "n")])
        }
    }

    /// Deleted elsewhere between the write and the listing after it: the listing does not name
    /// the resource written, so its token is not trusted and everything is listed instead.
    @Test(arguments: ServerKind.allCases)
    func aWriteDeletedBeforeTheListingAfterItIsSeenInTheSamePass(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            _ = try account.create("old")
            let daemon = FakeDaemon()
            daemon.outbox = [Push.change(account, "n", etag: nil, body: ServerAccount.todo("n", "new"))]
            daemon.afterPushed = { _ in try Self.deleteElsewhere(account, "n") }
            _ = try Pull.run(account, daemon).get()
            #expect(daemon.pulledRemoved == [Pull.path(account, "n")])
            #expect(daemon.pulls.last?.token != nil && daemon.knownAfterPulls().token == daemon.pulls.last?.token)
            #expect(!daemon.knownAfterPulls().resources.contains { $0.href == Pull.path(account, "n") })
        }
    }

    /// A change made elsewhere during the pass, after its pull, is pulled by the listing after
    /// the writes: it is not lost behind the new token.
    @Test(arguments: ServerKind.allCases)
    func aChangeElsewhereDuringThePassIsPulledWithTheNewToken(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            _ = try account.create("old")
            let daemon = FakeDaemon()
            daemon.outbox = [Push.change(account, "n", etag: nil, body: ServerAccount.todo("n", "new"))]
            daemon.afterPushed = { _ in _ = try account.create("phone", "made on a phone meanwhile") }
            _ = try Pull.run(account, daemon).get()
            #expect(daemon.pulledResources.map(\.href) == [Pull.path(account, "old"), Pull.path(account, "phone")])
            #expect(daemon.pulls.last?.resources.map(\.href) == [Pull.path(account, "phone")])
            #expect(daemon.pulls.last?.token != nil)
        }
    }
}
