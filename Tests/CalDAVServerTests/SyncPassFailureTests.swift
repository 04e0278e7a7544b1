import CalDAV
import Foundation
import ReminderCore
import ReminderProtocol
import ReminderSyncService
import Testing

/// Bad server answers end a pass with words in `SyncReport`, and nothing of them reaches
/// reminderd as data; a session that cannot be opened says why.
@Suite struct SyncPassFailureTests {
    func run(_ client: CalDAVClient, _ list: URL, _ daemon: FakeDaemon) -> PassFailure? {
        let session = SyncSession(client: client, taskList: list, offersSyncCollection: true, account: "alice@127.0.0.1")
        return SyncPass(session: session, link: daemon).run(.full).failure
    }

    func faulty(_ mode: String, _ body: (PassFailure, FakeDaemon, TestServer) throws -> Void) throws {
        try BadAnswerTests().withProxy { client, proxy, path in
            let daemon = FakeDaemon()
            let list = URL(string: "/_fault/\(mode)\(path)/", relativeTo: proxy.origin)!.absoluteURL
            let failure = try #require(run(client, list, daemon))
            #expect(daemon.pulls.isEmpty && daemon.pushes.isEmpty)
            #expect(daemon.reports == [failure.words])
            try body(failure, daemon, proxy)
        }
    }

    @Test func anHTMLPageInsteadOfTheListing() throws {
        try faulty("html") { failure, _, proxy in
            #expect(
                failure.words
                    == "127.0.0.1:\(proxy.port) answered REPORT /_fault/html/alice/reminderd/ with a page of "
                    + "text/html; charset=utf-8 (\"Network login required\") instead of XML — a proxy or login page?")
            #expect(failure.kind == .waitForTrigger)
        }
    }

    @Test func a500IsRetried() throws {
        try faulty("500") { failure, _, proxy in
            #expect(
                failure.words
                    == "127.0.0.1:\(proxy.port) answered 500 Internal Server Error (\"500 Internal Server Error\") to "
                    + "REPORT /_fault/500/alice/reminderd/; will retry")
            #expect(failure.kind == .retryable)
        }
    }

    @Test func truncatedXML() throws {
        try faulty("truncate") { failure, _, _ in
            #expect(failure.words.contains("answer to REPORT /_fault/truncate/alice/reminderd/ is broken XML"))
            #expect(failure.kind == .waitForTrigger)
        }
    }

    @Test func aRedirectLoop() throws {
        try faulty("loop") { failure, _, _ in
            #expect(failure.words.contains("answered 302 to REPORT /_fault/loop/alice/reminderd/"))
        }
    }

    /// The listing is fine but the bodies come back cut: none of them reaches reminderd.
    @Test(arguments: ServerKind.allCases)
    func aBrokenMultigetHandsNothingOver(kind: ServerKind) throws {
        let spoiling = SpoilingTransport { request, response in
            guard String(decoding: request.body, as: UTF8.self).contains("calendar-multiget") else { return response }
            return HTTPResponse(
                status: response.status, headers: response.headers, body: Array(response.body.prefix(response.body.count / 2)))
        }
        let server = try TestServer.start(kind)
        defer { server.stop() }
        let setup = CalDAVClient(account: server.origin, credentials: ServerAccount.credentials, transport: try! CurlTransport())
        let list = try setup.makeTaskList(in: try setup.discover().calendarHome, segment: "reminderd", displayName: "r")
        _ = try setup.put(list.appendingPathComponent("a.ics"), calendarData: ServerAccount.todo("a", "x"), .create)
        let daemon = FakeDaemon()
        let client = CalDAVClient(account: server.origin, credentials: ServerAccount.credentials, transport: spoiling)
        let failure = try #require(run(client, list, daemon))
        #expect(failure.words.contains("answer to REPORT \(list.path(percentEncoded: true)) is broken XML"))
        #expect(daemon.pulls.isEmpty && daemon.reports == [failure.words])
    }

    static func settings(_ server: TestServer, calendar: String = "reminderd", password: PasswordSource) -> SyncSettings {
        SyncSettings(url: server.origin.absoluteString, username: TestServer.username, password: password, calendar: calendar)
    }

    @Test(arguments: ServerKind.allCases)
    func aSessionFindsTheTaskListButNeverCreatesOne(kind: ServerKind) throws {
        try ServerAccount.with(kind) { account in
            let settings = Self.settings(account.server, password: .command("echo 'correct horse'"))
            let session = try SyncSession.open(settings, transport: try! CurlTransport())
            #expect(sameResource(session.taskList, account.taskList) && session.offersSyncCollection)
            #expect(session.account == "alice@127.0.0.1")

            let missing = Self.settings(account.server, calendar: "elsewhere", password: .command("echo 'correct horse'"))
            #expect {
                try SyncSession.open(missing, transport: try! CurlTransport())
            } throws: { error in
                let failure = error as? PassFailure
                return failure?.kind == .waitForTrigger && failure?.words.hasPrefix("the task list \"elsewhere\" is not on the server (") == true
                    && failure?.words.hasSuffix("elsewhere/); run reminderctl sync setup") == true
            }
            #expect(!(try account.client.calendars(in: account.discovery.calendarHome)).contains { $0.url.path.contains("elsewhere") })
        }
    }

    @Test func aWrongPasswordIsNamedWithTheCommandThatFixesIt() throws {
        try ServerAccount.with(.radicale) { account in
            let settings = Self.settings(account.server, password: .command("echo wrong"))
            #expect(throws: PassFailure(
                words: "127.0.0.1:\(account.server.port) answered 401 Unauthorized to PROPFIND /: check the user name "
                    + "and password (reminderctl sync setup)", kind: .waitForTrigger)) {
                try SyncSession.open(settings, transport: try! CurlTransport())
            }
        }
    }

    @Test func aPasswordThatCannotBeHadIsNamed() throws {
        try ServerAccount.with(.radicale) { account in
            let settings = Self.settings(account.server, password: .file("/nonexistent/password"))
            #expect(throws: PassFailure(
                words: "no password: sync.passwordFile /nonexistent/password: No such file or directory",
                kind: .waitForTrigger)) {
                try SyncSession.open(settings, transport: try! CurlTransport())
            }
        }
    }
}

/// The real transport, with a test's hand on each answer.
struct SpoilingTransport: HTTPTransport {
    let inner = try! CurlTransport()
    let spoil: @Sendable (HTTPRequest, HTTPResponse) -> HTTPResponse

    func send(_ request: HTTPRequest, credentials: Credentials?) throws(DAVError) -> HTTPResponse {
        spoil(request, try inner.send(request, credentials: credentials))
    }
}
