import Foundation
import Testing

@testable import CalDAV

/// Discovery follows redirects, with a limit, never off the configured server and never down
/// from https.
@Suite struct DiscoveryRedirectTests {
    @Test func wellKnownRedirectIsFollowedToThePrincipal() throws {
        let (client, transport) = client(
            [
                .init(status: 301, headers: ["Location": "/"]),
                .xml(207, Canned.radicalePrincipal),
                .xml(207, Canned.xandikosHomeSet),
            ], account: "http://127.0.0.1:5232")
        let found = try client.discover()
        #expect(transport.sent.map(\.url.path) == ["/.well-known/caldav", "/", "/alice"])
        #expect(found.principal.absoluteString == "http://127.0.0.1:5232/alice/")
        #expect(found.calendarHome.absoluteString == "http://127.0.0.1:5232/user/calendars/")
    }

    @Test func aLoopIsNamedWithItsChain() {
        let (client, _) = client(
            [
                .init(status: 302, headers: ["Location": "/a"]),
                .init(status: 302, headers: ["Location": "/.well-known/caldav"]),
            ],
            account: "http://127.0.0.1:5232/")
        let chain = [
            "http://127.0.0.1:5232/.well-known/caldav", "http://127.0.0.1:5232/a",
            "http://127.0.0.1:5232/.well-known/caldav",
        ]
        #expect(throws: DAVError.redirectLoop(request: "PROPFIND \(chain[0])", chain: chain)) { try client.discover() }
    }

    @Test func anotherServerGetsNoPassword() {
        let (client, transport) = client(
            [.init(status: 301, headers: ["Location": "https://caldav.example.net/dav/"])],
            account: "https://example.org/")
        #expect {
            try client.discover()
        } throws: { error in
            guard case .redirectRefused(_, let location, let reason) = error as? DAVError else { return false }
            return location == "https://caldav.example.net/dav/" && reason.contains("set sync.url")
        }
        #expect(transport.sent.count == 1)
    }

    /// The refusal names the request that redirected and where to, not the target twice.
    @Test func aRefusedRedirectNamesTheURLThatRedirected() {
        let (client, _) = client(
            [
                .init(status: 301, headers: ["Location": "/dav/"]),
                .init(status: 302, headers: ["Location": "https://caldav.example.net/dav/"]),
            ], account: "https://example.org/")
        let refusal = DAVError.redirectRefused(
            request: "PROPFIND https://example.org/dav/", location: "https://caldav.example.net/dav/",
            reason: "another server than sync.url's; set sync.url to it if it is yours")
        #expect(throws: refusal) { try client.discover() }
        #expect(
            refusal.description == "PROPFIND https://example.org/dav/: not following the redirect to "
                + "https://caldav.example.net/dav/: another server than sync.url's; set sync.url to it if it is yours")
    }

    @Test func httpsToHttpIsRefused() {
        let (client, _) = client(
            [.init(status: 301, headers: ["Location": "http://example.org/"])], account: "https://example.org/")
        #expect(
            throws: DAVError.redirectRefused(
                request: "PROPFIND https://example.org/.well-known/caldav", location: "http://example.org/",
                reason: "https to http")
        ) {
            try client.discover()
        }
    }

    @Test func writesDoNotFollowRedirects() {
        let (client, transport) = client([.init(status: 301, headers: ["Location": "/elsewhere"])])
        let item = URL(string: "http://127.0.0.1:5232/alice/reminderd/a1.ics")!
        #expect(throws: DAVError.self) { try client.put(item, calendarData: "x", .create) }
        #expect(transport.sent.count == 1)
    }
}
