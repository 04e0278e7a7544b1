import CalDAV
import Foundation
import ReminderProtocol
import ReminderSyncService
import Testing

/// reminderd-sync's pull against real Radicale and Xandikos, with a fake reminderd.
@Suite struct SyncPassPullTests {
    static func session(_ account: ServerAccount, syncCollection: Bool = true) -> SyncSession {
        SyncSession(
            client: account.client, taskList: account.taskList, offersSyncCollection: syncCollection,
            account: "alice@127.0.0.1")
    }

    static func run(
        _ account: ServerAccount, _ daemon: FakeDaemon, _ kind: SyncPass.Kind = .full, limits: SyncPass.Limits = .init(),
        syncCollection: Bool = true
    ) -> Result<SyncPass.Summary, PassFailure> {
        SyncPass(session: session(account, syncCollection: syncCollection), link: daemon, limits: limits).run(kind)
    }

    static func path(_ account: ServerAccount, _ name: String) -> String {
        account.item(name).path(percentEncoded: true)
    }

    @Test(arguments: ServerKind.allCases)
    func aFirstPassPullsEverythingWithTheTokenAndBeginsWithTheCollection(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            let a = try account.create("a", "first")
            let b = try account.create("b", "second")
            let daemon = FakeDaemon()
            #expect(try Self.run(account, daemon).get().pulled == 2)
            #expect(
                daemon.calls.first
                    == .syncBegin(.init(collection: account.taskList.absoluteString, account: "alice@127.0.0.1")))
            let pulled = daemon.pulledResources.sorted { $0.href < $1.href }
            #expect(pulled.map(\.href) == [Self.path(account, "a"), Self.path(account, "b")])
            #expect(pulled.map(\.etag) == [a, b])
            #expect(pulled[0].body.contains("SUMMARY:first") && pulled[1].body.contains("UID:b@reminderd"))
            #expect(daemon.pulls.count == 1 && daemon.pulls[0].token != nil)
            #expect(daemon.reports == [nil])
            #expect(daemon.calls.contains(.syncPending(.init(limit: 100))))
        }
    }

    @Test(arguments: ServerKind.allCases)
    func laterPassesFetchOnlyWhatChangedAndTellWhatWasRemoved(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            let a = try account.create("a")
            let b = try account.create("b")
            _ = try account.create("c")
            let first = FakeDaemon()
            _ = try Self.run(account, first).get()

            _ = try account.client.put(
                account.item("b"), calendarData: ServerAccount.todo("b", "edited on a phone"), .update(etag: b))
            try account.client.delete(account.item("a"), etag: a)
            _ = try account.create("d")
            let second = FakeDaemon()
            second.begin = first.knownAfterPulls()
            #expect(try Self.run(account, second).get().pulled == 2)
            #expect(Set(second.pulledResources.map(\.href)) == [Self.path(account, "b"), Self.path(account, "d")])
            #expect(second.pulledResources.first { $0.href.hasSuffix("b.ics") }?.body.contains("edited on a phone") == true)
            #expect(second.pulledRemoved == [Self.path(account, "a")])
            #expect(second.pulls.last?.token != nil && second.pulls.last?.token != second.begin.token)

            // Nothing changed since: nothing is fetched, nothing handed over.
            let third = FakeDaemon()
            third.begin = second.knownAfterPulls()
            _ = try Self.run(account, third).get()
            #expect(third.pulledResources.isEmpty && third.pulledRemoved.isEmpty)
            #expect(third.reports == [nil])
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aRefusedTokenListsEverythingAndWhatIsNotListedIsRemoved(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            let a = try account.create("a")
            _ = try account.create("b")
            let daemon = FakeDaemon()
            let gone = Self.path(account, "gone")
            daemon.begin = SyncBeginReply(
                token: "http://example.invalid/sync/0",
                resources: [.init(href: Self.path(account, "a"), etag: a), .init(href: gone, etag: "\"old\"")])
            _ = try Self.run(account, daemon).get()
            // a is unchanged (same ETag): not fetched again.
            #expect(daemon.pulledResources.map(\.href) == [Self.path(account, "b")])
            #expect(daemon.pulledRemoved == [gone])
            #expect(daemon.pulls.last?.token?.contains("example.invalid") == false)
        }
    }

    @Test(arguments: ServerKind.allCases)
    func withoutSyncCollectionTheETagListingIsComparedAndNoTokenIsSent(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            let a = try account.create("a")
            let b = try account.create("b")
            _ = try account.client.put(account.item("b"), calendarData: ServerAccount.todo("b", "new"), .update(etag: b))
            let daemon = FakeDaemon()
            daemon.begin = SyncBeginReply(
                token: nil,
                resources: [
                    .init(href: Self.path(account, "a"), etag: a), .init(href: Self.path(account, "b"), etag: b),
                    .init(href: Self.path(account, "x"), etag: "\"x\""),
                ])
            _ = try Self.run(account, daemon, syncCollection: false).get()
            #expect(daemon.pulledResources.map(\.href) == [Self.path(account, "b")])
            #expect(daemon.pulledRemoved == [Self.path(account, "x")])
            #expect(daemon.pulls.allSatisfy { $0.token == nil })
        }
    }

    @Test func pullsAreSplitIntoBatchesBySizeWithTheTokenOnTheLastAndMultigetsInChunks() throws {
        try ServerAccount.with(.radicale) { account in
            for index in 0..<7 { _ = try account.create("item\(index)", String(repeating: "x", count: 600)) }
            let daemon = FakeDaemon()
            var limits = SyncPass.Limits()
            limits.batchBytes = 2500
            limits.multiget = 3
            #expect(try Self.run(account, daemon, limits: limits).get().pulled == 7)
            #expect(daemon.pulledResources.count == 7 && Set(daemon.pulledResources.map(\.href)).count == 7)
            #expect(daemon.pulls.count >= 3)
            #expect(daemon.pulls.dropLast().allSatisfy { $0.token == nil } && daemon.pulls.last?.token != nil)
            for pull in daemon.pulls {
                let request = ReminderRequest.syncPulled(.init(resources: pull.resources, removed: pull.removed, token: nil))
                #expect(pull.resources.count == 1 || JSONValueSize.of(request) <= 2500 + 200)
            }
        }
    }

    @Test func resourcesReminderdSkipsAreNamedInTheReport() throws {
        try ServerAccount.with(.radicale) { account in
            _ = try account.create("a")
            _ = try account.create("b")
            let daemon = FakeDaemon()
            daemon.skips = [Self.path(account, "b")]
            let failure = try #require(Self.run(account, daemon).failure)
            #expect(failure.words == "\(Self.path(account, "b")) on the server was left as it is: line 1: not iCalendar")
            #expect(failure.kind == .waitForTrigger && daemon.reports == [failure.words])
            #expect(daemon.pulls.last?.token != nil)  // the rest is applied and the pass goes on
            #expect(daemon.calls.contains(.syncPending(.init(limit: 100))))
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aPullOnlyPassAsksForNoPendingChanges(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            _ = try account.create("a")
            let daemon = FakeDaemon()
            daemon.outbox = [.init(uid: "z@reminderd", href: Self.path(account, "z"), etag: nil, body: "x", seq: 1)]
            _ = try Self.run(account, daemon, .pullOnly).get()
            #expect(daemon.pulledResources.count == 1)
            #expect(!daemon.calls.contains { $0.method == .syncPending || $0.method == .syncPushed })
            #expect(daemon.reports == [nil])
        }
    }
}

/// The size of a request's parameters as sent.
enum JSONValueSize {
    static func of(_ request: ReminderRequest) -> Int {
        VarlinkCall(request.method, parameters: request.parameters).bytes.count
    }
}
