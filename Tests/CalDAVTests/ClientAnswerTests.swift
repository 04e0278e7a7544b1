import Foundation
import Testing

@testable import CalDAV

/// How the client reads each kind of answer: typed errors that name the request, and the
/// special cases of the servers it was tried with.
@Suite struct ClientAnswerTests {
    let calendar = URL(string: "http://127.0.0.1:5232/alice/reminderd/")!
    let item = URL(string: "http://127.0.0.1:5232/alice/reminderd/a1.ics")!

    @Test(arguments: [(Canned.radicaleInvalidToken, 403), (Canned.xandikosInvalidToken, 412)])
    func refusedSyncTokenGivesAFullListing(body: String, status: Int) throws {
        let (client, transport) = client([.xml(status, body), .xml(207, Canned.radicaleInitialSync)])
        let changes = try client.changes(in: calendar, since: "http://radicale.org/ns/sync/old")
        #expect(changes.isFullListing)
        #expect(changes.changed.map(\.href.lastPathComponent) == ["a1.ics"])
        #expect(changes.token.hasSuffix("c0c24"))
        let bodies = transport.sent.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(bodies[0].contains("<D:sync-token>http://radicale.org/ns/sync/old</D:sync-token>"))
        #expect(bodies[1].contains("<D:sync-token></D:sync-token>"))
        #expect(transport.sent.allSatisfy { $0.headers["Depth"] == "0" })
    }

    @Test func incrementalChangesSplitRemovedFromChanged() throws {
        let (client, _) = client([.xml(207, Canned.xandikosIncrementalSync)])
        let changes = try client.changes(in: calendar, since: "2a23c59d")
        #expect(!changes.isFullListing)
        #expect(changes.removed.map(\.lastPathComponent) == ["a1.ics"])
        #expect(changes.changed.map(\.etag) == [#""02c471488a19df04981b71c3157751df628b2686""#])
    }

    @Test func precondition412IsTyped() {
        let (client, _) = client([.init(status: 412, body: "Precondition failed.")])
        #expect(throws: DAVError.preconditionFailed(request: "PUT \(item.absoluteString)")) {
            try client.put(item, calendarData: "BEGIN:VCALENDAR", .update(etag: "\"old\""))
        }
    }

    @Test func putSendsItsConditionAndReturnsTheETagOrNil() throws {
        let (client, transport) = client([
            .init(status: 201, headers: ["ETag": "\"e1\""]), .init(status: 204),
        ])
        #expect(try client.put(item, calendarData: "x", .create) == "\"e1\"")
        #expect(try client.put(item, calendarData: "x", .update(etag: "\"e1\"")) == nil)
        #expect(transport.sent[0].headers["If-None-Match"] == "*")
        #expect(transport.sent[1].headers["If-Match"] == "\"e1\"")
        #expect(transport.sent[1].headers["Content-Type"] == "text/calendar; charset=utf-8")
    }

    /// 404 and 410 count as done (the goal is that it is not there), unlike another refusal, and
    /// the condition goes with the request only when an ETag is given.
    @Test func deletingWhatIsGoneSucceeds() throws {
        let (client, transport) = client([.init(status: 404), .init(status: 410), .init(status: 409)])
        try client.delete(item, etag: "\"e1\"")
        try client.delete(item, etag: nil)
        #expect(throws: DAVError.unexpectedStatus(request: "DELETE \(item.absoluteString)", status: 409, excerpt: "")) {
            try client.delete(item, etag: nil)
        }
        #expect(transport.sent.map(\.method) == ["DELETE", "DELETE", "DELETE"])
        #expect(transport.sent.map(\.url) == [item, item, item])
        #expect(transport.sent[0].headers["If-Match"] == "\"e1\"")
        #expect(transport.sent[1].headers["If-Match"] == nil)
    }

    @Test func wrongPasswordAndServerErrorsAreNamed() {
        let (client, _) = client([
            .init(status: 401, body: "Access to the requested resource forbidden."),
            .init(
                status: 503, headers: ["Content-Type": "text/html"], body: "<html><title>Service Unavailable</title>"),
        ])
        let denied = DAVError.accessDenied(request: "GET \(item.absoluteString)", status: 401)
        #expect(throws: denied) { try client.get(item) }
        #expect(!denied.isRetryable)
        #expect(denied.description.contains("wrong user name or password"))
        let unavailable = DAVError.serverError(
            request: "GET \(item.absoluteString)", status: 503, excerpt: "Service Unavailable")
        #expect(throws: unavailable) { try client.get(item) }
        #expect(unavailable.isRetryable)
    }

    @Test func anHTMLPageInsteadOfXMLIsNamed() {
        let page = "<!DOCTYPE html><html><head><title>Hotel Wi-Fi login</title></head></html>"
        let (client, _) = client([.init(status: 207, headers: ["Content-Type": "text/html"], body: page)])
        #expect(
            throws: DAVError.notXML(
                request: "PROPFIND \(calendar.absoluteString)", contentType: "text/html", excerpt: "Hotel Wi-Fi login")
        ) {
            try client.listETags(in: calendar)
        }
    }

    @Test func aMissingCollectionInsideA207IsNotFound() {
        let (client, _) = client([.xml(207, Canned.xandikosMissingCollection)], account: "http://127.0.0.1:18802/user/")
        let url = URL(string: "http://127.0.0.1:18802/user/calendars/nothere/")!
        #expect(throws: DAVError.notFound(request: "PROPFIND \(url.absoluteString)")) { try client.calendar(at: url) }
    }

    @Test func anExistingTaskListIsReturnedNotRefused() throws {
        let (client, _) = client([.xml(409, Canned.radicaleAlreadyThere)])
        let home = URL(string: "http://127.0.0.1:5232/alice/")!
        #expect(try client.makeTaskList(in: home, segment: "reminderd", displayName: "reminderd") == calendar)
    }

    @Test func multigetSeparatesMissingMembers() throws {
        let (client, transport) = client([.xml(207, Canned.radicaleMultiget)])
        let missing = URL(string: "http://127.0.0.1:5232/alice/reminderd/missing.ics")!
        let result = try client.multiget(in: calendar, hrefs: [item, missing])
        #expect(result.found.map(\.href) == [item])
        #expect(result.missing == [missing])
        let body = String(decoding: transport.sent[0].body, as: UTF8.self)
        #expect(body.contains("<D:href>/alice/reminderd/a1.ics</D:href><D:href>/alice/reminderd/missing.ics</D:href>"))
    }
}

extension ClientAnswerTests {
    @Test func forbiddenWithoutASyncTokenPreconditionIsAccessDenied() {
        let (client, _) = client([.xml(403, "<error xmlns=\"DAV:\"><need-privileges/></error>"), .init(status: 409)])
        let denied = DAVError.accessDenied(request: "REPORT \(calendar.absoluteString)", status: 403)
        #expect(throws: denied) { try client.changes(in: calendar, since: "t1") }
        #expect(denied.description.contains("the account may not do this"))
        #expect(throws: DAVError.unexpectedStatus(request: "GET \(item.absoluteString)", status: 409, excerpt: "")) {
            try client.get(item)
        }
    }

    /// RFC 6578 §3.6: a 507 on the collection itself means the listing stopped early.
    @Test func aTruncatedListingIsFlagged() throws {
        let body = """
            <D:multistatus xmlns:D="DAV:"><D:response><D:href>/alice/reminderd/a1.ics</D:href><D:propstat>\
            <D:prop><D:getetag>"e1"</D:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>\
            <D:response><D:href>/alice/reminderd/</D:href><D:status>HTTP/1.1 507 Insufficient Storage</D:status>\
            </D:response><D:sync-token>t2</D:sync-token></D:multistatus>
            """
        let (client, _) = client([.xml(207, body)])
        let changes = try client.changes(in: calendar, since: "t1")
        #expect(changes.isTruncated)
        #expect(changes.changed.map(\.etag) == [#""e1""#])
        #expect(changes.removed.isEmpty)
    }
}
