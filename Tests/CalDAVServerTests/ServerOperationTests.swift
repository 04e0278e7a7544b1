import CalDAV
import Foundation
import Testing

/// The client against real Radicale and Xandikos: discovery, the task list, conditional writes,
/// sync-collection, the ETag listing, multiget and deletes.
@Suite struct ServerOperationTests {
    @Test(arguments: ServerKind.allCases)
    func discoveryFindsTheHomeAndTheNewTaskList(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            let client = account.client
            let lists = try client.calendars(in: account.discovery.calendarHome)
            let list = try #require(lists.first { sameResource($0.url, account.taskList) })
            #expect(list.components == ["VTODO"])
            #expect(list.displayName == "reminderd")
            #expect(list.syncToken != nil)
            #expect(try client.calendar(at: account.taskList) == list)
            // A second device creating it again finds it there.
            let again = try client.makeTaskList(
                in: account.discovery.calendarHome, segment: "reminderd", displayName: "x")
            #expect(again == account.taskList)
        }
    }

    @Test(arguments: ServerKind.allCases)
    func conditionalWritesRefuseStaleVersions(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            let client = account.client
            let url = account.item("a")
            let first = try account.create("a", "one")
            #expect(throws: DAVError.preconditionFailed(request: "PUT \(url.absoluteString)")) {
                try client.put(url, calendarData: ServerAccount.todo("a", "again"), .create)
            }
            let second = try client.put(url, calendarData: ServerAccount.todo("a", "two"), .update(etag: first))
            let current = try client.get(url)
            #expect(current.calendarData.contains("SUMMARY:two"))
            if let second { #expect(second == current.etag) }
            #expect(current.etag != first)
            #expect(throws: DAVError.preconditionFailed(request: "PUT \(url.absoluteString)")) {
                try client.put(url, calendarData: ServerAccount.todo("a", "stale"), .update(etag: first))
            }
            #expect(throws: DAVError.preconditionFailed(request: "DELETE \(url.absoluteString)")) {
                try client.delete(url, etag: first)
            }
            try client.delete(url, etag: current.etag)
            try client.delete(url, etag: current.etag)  // already gone: 404 counts as done
            #expect(throws: DAVError.notFound(request: "GET \(url.absoluteString)")) { try client.get(url) }
        }
    }

    @Test(arguments: ServerKind.allCases)
    func syncCollectionInitialIncrementalAndRefusedToken(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            let client = account.client
            let empty = try client.changes(in: account.taskList, since: nil)
            #expect(empty.isFullListing && empty.changed.isEmpty && empty.removed.isEmpty)
            let a = try account.create("a")
            let b = try account.create("b")
            let added = try client.changes(in: account.taskList, since: empty.token)
            #expect(!added.isFullListing)
            #expect(Set(added.changed.map(\.href.lastPathComponent)) == ["a.ics", "b.ics"])
            #expect(Set(added.changed.compactMap(\.etag)) == [a, b])
            #expect(added.token != empty.token)

            try client.delete(account.item("a"), etag: a)
            _ = try client.put(account.item("b"), calendarData: ServerAccount.todo("b", "edited"), .update(etag: b))
            let later = try client.changes(in: account.taskList, since: added.token)
            #expect(later.removed.map(\.lastPathComponent) == ["a.ics"])
            #expect(later.changed.map(\.href.lastPathComponent) == ["b.ics"])

            let nothing = try client.changes(in: account.taskList, since: later.token)
            #expect(nothing.changed.isEmpty && nothing.removed.isEmpty)

            let relisted = try client.changes(in: account.taskList, since: "http://example.invalid/sync/0")
            #expect(relisted.isFullListing)
            #expect(relisted.changed.map(\.href.lastPathComponent) == ["b.ics"])
        }
    }

    @Test(arguments: ServerKind.allCases)
    func etagListingAndMultigetAgreeWithThePuts(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            let client = account.client
            let etags = ["a": try account.create("a", "first"), "b": try account.create("b", "second")]
            let listed = try client.listETags(in: account.taskList)
            #expect(
                Dictionary(
                    uniqueKeysWithValues: listed.map { ($0.href.deletingPathExtension().lastPathComponent, $0.etag) })
                    == etags)

            let missing = account.item("missing")
            let fetched = try client.multiget(
                in: account.taskList, hrefs: [account.item("a"), account.item("b"), missing])
            #expect(fetched.missing.map(\.lastPathComponent) == ["missing.ics"])
            let bodies = Dictionary(uniqueKeysWithValues: fetched.found.map { ($0.href.lastPathComponent, $0) })
            #expect(bodies["a.ics"]?.calendarData.contains("UID:a@reminderd") == true)
            #expect(bodies["b.ics"]?.calendarData.contains("SUMMARY:second") == true)
            #expect(bodies["a.ics"]?.etag == etags["a"])
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aWrongCalendarURLIsNamed(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            let client = account.client
            let nowhere = account.discovery.calendarHome.appendingPathComponent("nothere", isDirectory: true)
            #expect(throws: DAVError.notFound(request: "PROPFIND \(nowhere.absoluteString)")) {
                try client.calendar(at: nowhere)
            }
            let home = account.discovery.calendarHome
            #expect(throws: DAVError.notACalendar(url: home.absoluteString)) { try client.calendar(at: home) }
        }
    }

    @Test func aWrongPasswordIsRefusedWith401() throws {
        let server = try TestServer.start(.radicale)
        defer { server.stop() }
        let client = CalDAVClient(
            account: server.origin.appendingPathComponent("alice/"),
            credentials: Credentials(username: TestServer.username, password: "wrong"), transport: try! CurlTransport())
        #expect(throws: DAVError.accessDenied(request: "PROPFIND \(server.origin.absoluteString)alice/", status: 401)) {
            try client.discover()
        }
    }
}
