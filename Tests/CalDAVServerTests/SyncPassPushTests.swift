import CalDAV
import Foundation
import ReminderProtocol
import ReminderSyncService
import Testing

/// reminderd-sync's push against real Radicale and Xandikos: conditional writes, the 412 path
/// through reminderd's merge, deletes, and resources gone on the server.
@Suite struct SyncPassPushTests {
    typealias Pull = SyncPassPullTests

    static func change(_ account: ServerAccount, _ name: String, etag: String?, body: String?, seq: Int64 = 1)
        -> SyncPendingReply.Change
    {
        .init(uid: "\(name)@reminderd", href: Pull.path(account, name), etag: etag, body: body, seq: seq)
    }

    @Test(arguments: ServerKind.allCases)
    func createUpdateAndDeleteReachTheServerAndAreConfirmedWithWhatItHolds(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            let daemon = FakeDaemon()
            daemon.outbox = [Self.change(account, "n", etag: nil, body: ServerAccount.todo("n", "new"), seq: 7)]
            #expect(try Pull.run(account, daemon).get().pushed == 1)
            let created = try account.client.get(account.item("n"))
            #expect(created.calendarData.contains("SUMMARY:new"))
            let confirmed = try #require(daemon.pushes.first)
            #expect(confirmed.uid == "n@reminderd" && confirmed.seq == 7 && confirmed.href == Pull.path(account, "n"))
            #expect(confirmed.etag == created.etag && confirmed.body?.contains("SUMMARY:new") == true)
            #expect(daemon.outbox.isEmpty && daemon.reports == [nil])

            daemon.begin = daemon.knownAfterPulls()
            daemon.outbox = [Self.change(account, "n", etag: confirmed.etag, body: ServerAccount.todo("n", "edited"))]
            _ = try Pull.run(account, daemon).get()
            #expect(try account.client.get(account.item("n")).calendarData.contains("SUMMARY:edited"))
            let edited = try #require(daemon.pushes.last)
            #expect(edited.etag != confirmed.etag)

            daemon.begin = daemon.knownAfterPulls()
            daemon.outbox = [Self.change(account, "n", etag: edited.etag, body: nil, seq: 9)]
            _ = try Pull.run(account, daemon).get()
            #expect(throws: DAVError.notFound(request: "GET \(account.item("n").absoluteString)")) {
                try account.client.get(account.item("n"))
            }
            #expect(daemon.pushes.last?.body == nil && daemon.pushes.last?.seq == 9)
            #expect(daemon.reports == [nil, nil, nil])
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aStaleUpdateGets412AndTheServersVersionGoesToReminderdBeforeTheMergedPush(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            let base = try account.create("s", "base")
            let phone = try #require(
                try account.client.put(
                    account.item("s"), calendarData: ServerAccount.todo("s", "phone"), .update(etag: base)))
            let daemon = FakeDaemon()
            // The phone wrote after reminderd's change was made on the base: its listing knows the
            // phone's version (nothing to pull) but the change waiting is still based on the base.
            daemon.begin = SyncBeginReply(token: nil, resources: [.init(href: Pull.path(account, "s"), etag: phone)])
            daemon.outbox = [Self.change(account, "s", etag: base, body: ServerAccount.todo("s", "merged"))]
            _ = try Pull.run(account, daemon).get()
            let refetched = try #require(daemon.pulledResources.first)
            #expect(refetched.href == Pull.path(account, "s") && refetched.body.contains("SUMMARY:phone"))
            #expect(refetched.etag == phone)
            #expect(try account.client.get(account.item("s")).calendarData.contains("SUMMARY:merged"))
            #expect(daemon.pushes.count == 1 && daemon.outbox.isEmpty && daemon.reports == [nil])
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aCreateWhereTheResourceExistsIsMergedToo(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            let other = try account.create("c", "other device")
            let daemon = FakeDaemon()
            daemon.begin = SyncBeginReply(token: nil, resources: [.init(href: Pull.path(account, "c"), etag: other)])
            daemon.outbox = [Self.change(account, "c", etag: nil, body: ServerAccount.todo("c", "mine"))]
            _ = try Pull.run(account, daemon).get()
            #expect(daemon.pulledResources.map(\.etag) == [other])
            #expect(try account.client.get(account.item("c")).calendarData.contains("SUMMARY:mine"))
            #expect(daemon.outbox.isEmpty)
        }
    }

    @Test(arguments: ServerKind.allCases)
    func anItemFightingAnotherWriterGetsThreeTriesAndTheReportSaysSo(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            let current = try account.create("f", "theirs")
            let daemon = FakeDaemon()
            daemon.begin = SyncBeginReply(token: nil, resources: [.init(href: Pull.path(account, "f"), etag: current)])
            daemon.outbox = [
                Self.change(account, "f", etag: "\"stale\"", body: ServerAccount.todo("f", "mine")),
                Self.change(account, "g", etag: nil, body: ServerAccount.todo("g", "fine")),
            ]
            daemon.mergesOnPull = false  // as if the server changed again before every retry
            let failure = try #require(Pull.run(account, daemon).failure)
            #expect(failure.kind == .waitForTrigger)
            #expect(failure.words.contains("f.ics changed on the server again at each of 3 tries"))
            #expect(daemon.pulledResources.filter { $0.href == Pull.path(account, "f") }.count == 3)
            #expect(daemon.pushes.map(\.uid) == ["g@reminderd"])
            #expect(daemon.reports == [failure.words])
            #expect(try account.client.get(account.item("f")).calendarData.contains("SUMMARY:theirs"))
        }
    }

    @Test(arguments: ServerKind.allCases)
    func anUpdateOfAResourceGoneFromTheServerIsToldToReminderdAsRemoved(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            let etag = try account.create("r")
            try account.client.delete(account.item("r"), etag: etag)
            let daemon = FakeDaemon()
            daemon.outbox = [Self.change(account, "r", etag: etag, body: ServerAccount.todo("r", "edited here"))]
            _ = try Pull.run(account, daemon).get()
            #expect(daemon.pulledRemoved == [Pull.path(account, "r")])
            #expect(daemon.pushes.isEmpty && daemon.reports == [nil])
        }
    }

    @Test(arguments: ServerKind.allCases)
    func deletingWhatIsAlreadyGoneIsConfirmed(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            let etag = try account.create("d")
            try account.client.delete(account.item("d"), etag: etag)
            let daemon = FakeDaemon()
            daemon.outbox = [Self.change(account, "d", etag: etag, body: nil, seq: 3)]
            _ = try Pull.run(account, daemon).get()
            #expect(daemon.pushes.count == 1 && daemon.pushes[0].body == nil && daemon.pushes[0].seq == 3)
            #expect(daemon.outbox.isEmpty)
        }
    }

    @Test func reminderdGoingAwayEndsThePassWithoutAReport() throws {
        try ServerAccount.with(.radicale) { account in
            let daemon = FakeDaemon()
            daemon.lost = [.syncPending]
            let failure = try #require(Pull.run(account, daemon).failure)
            #expect(failure.kind == .daemonLost)
            #expect(daemon.reports.isEmpty)
        }
    }

    @Test func aRefusedCallIsReportedInWords() throws {
        try ServerAccount.with(.radicale) { account in
            _ = try account.create("a")
            let daemon = FakeDaemon()
            daemon.refused = [.syncPulled]
            let failure = try #require(Pull.run(account, daemon).failure)
            #expect(failure.words == "reminderd refused SyncPulled: refused" && failure.kind == .waitForTrigger)
            #expect(daemon.reports == [failure.words])
            #expect(!daemon.calls.contains { $0.method == .syncPending })
        }
    }
}

extension Result {
    /// The failure, or nil when it succeeded.
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
