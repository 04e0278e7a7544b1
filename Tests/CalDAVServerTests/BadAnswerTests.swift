import CalDAV
import Foundation
import Testing

/// Each kind of bad answer, made by Tests/CalDAVServerTests/fault_proxy.py in front of a real
/// Radicale, gives its own named error.
@Suite struct BadAnswerTests {
    /// Radicale with the fault proxy in front; `body` gets a client whose account is the proxy
    /// and the task list's path on it.
    func withProxy(limits: CurlTransport.Limits = .init(), _ body: (CalDAVClient, TestServer, String) throws -> Void)
        throws
    {
        let server = try TestServer.start(.radicale)
        defer { server.stop() }
        let direct = CalDAVClient(
            account: server.origin, credentials: ServerAccount.credentials, transport: try! CurlTransport())
        let home = try direct.discover().calendarHome
        let list = try direct.makeTaskList(in: home, segment: "reminderd", displayName: "reminderd")
        _ = try direct.put(list.appendingPathComponent("a.ics"), calendarData: ServerAccount.todo("a", "x"), .create)

        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "fault_proxy.py")
        let port = try TestServer.freePort()
        let proxy = try TestServer.launch(
            "fault proxy", ["python3", script.path, String(server.port), String(port)], port: port,
            folder: try TestServer.temporaryFolder("proxy"))
        defer { proxy.stop() }
        let client = CalDAVClient(
            account: proxy.origin, credentials: ServerAccount.credentials, transport: try! CurlTransport(limits: limits))
        try body(client, proxy, list.path)
    }

    func url(_ proxy: TestServer, _ mode: String, _ path: String) -> URL {
        URL(string: "/_fault/\(mode)\(path)/", relativeTo: proxy.origin)!.absoluteURL
    }

    @Test func theProxyRelaysWhenNoFaultIsAsked() throws {
        try withProxy { client, proxy, path in
            let listed = try client.listETags(in: URL(string: path + "/", relativeTo: proxy.origin)!.absoluteURL)
            #expect(listed.map(\.href.lastPathComponent) == ["a.ics"])
        }
    }

    @Test func anHTMLLoginPage() throws {
        try withProxy { client, proxy, path in
            let target = url(proxy, "html", path)
            #expect(
                throws: DAVError.notXML(
                    request: "PROPFIND \(target.absoluteString)", contentType: "text/html; charset=utf-8",
                    excerpt: "Network login required")
            ) {
                try client.listETags(in: target)
            }
        }
    }

    @Test func a500IsRetryable() throws {
        try withProxy { client, proxy, path in
            let target = url(proxy, "500", path)
            let expected = DAVError.serverError(
                request: "REPORT \(target.absoluteString)", status: 500, excerpt: "500 Internal Server Error")
            #expect(throws: expected) { try client.changes(in: target, since: nil) }
            #expect(expected.isRetryable)
        }
    }

    @Test func truncatedXML() throws {
        try withProxy { client, proxy, path in
            let target = url(proxy, "truncate", path)
            #expect {
                try client.listETags(in: target)
            } throws: { error in
                guard case .malformedXML(let request, _, let detail) = error as? DAVError else { return false }
                return request == "PROPFIND \(target.absoluteString)" && detail.contains("ends before")
            }
        }
    }

    func isRetryableNetworkError(_ error: any Error, _ method: String, _ target: URL) -> Bool {
        guard let error = error as? DAVError, case .network(let request, _) = error else { return false }
        return request == "\(method) \(target.absoluteString)" && error.isRetryable
    }

    @Test func aBodyCutShortIsARetryableNetworkError() throws {
        try withProxy { client, proxy, path in
            let target = url(proxy, "cut", path)
            #expect { try client.listETags(in: target) } throws: { isRetryableNetworkError($0, "PROPFIND", target) }
        }
    }

    @Test func aResetMidPutIsARetryableNetworkError() throws {
        try withProxy { client, proxy, path in
            let target = url(proxy, "reset", path).appendingPathComponent("b.ics")
            #expect {
                try client.put(target, calendarData: ServerAccount.todo("b", "x"), .create)
            } throws: { isRetryableNetworkError($0, "PUT", target) }
        }
    }

    @Test func aRedirectLoopDuringDiscovery() throws {
        try withProxy { client, proxy, path in
            let looping = CalDAVClient(
                account: url(proxy, "loop", "/alice"), credentials: nil, transport: try! CurlTransport())
            #expect {
                try looping.discover()
            } throws: { error in
                guard case .redirectLoop(_, let chain) = error as? DAVError else { return false }
                return chain.count == 2 && chain[0] == chain[1]
            }
        }
    }

    @Test func aSilentServerTimesOut() throws {
        var limits = CurlTransport.Limits()
        limits.totalSeconds = 2
        try withProxy(limits: limits) { client, proxy, path in
            let target = url(proxy, "slow", path)
            let started = Date()
            #expect(throws: DAVError.timedOut(request: "PROPFIND \(target.absoluteString)", seconds: 2)) {
                try client.listETags(in: target)
            }
            #expect(Date().timeIntervalSince(started) < 10)
        }
    }

    @Test func anUnreachableServerIsANetworkError() throws {
        let port = try TestServer.freePort()
        let client = CalDAVClient(
            account: URL(string: "http://127.0.0.1:\(port)/")!, credentials: nil, transport: try! CurlTransport())
        #expect {
            try client.discover()
        } throws: { error in
            guard let error = error as? DAVError, case .network = error else { return false }
            return error.isRetryable && error.description.contains("127.0.0.1:\(port)")
        }
    }
}
