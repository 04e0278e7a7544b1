import CalDAV
import Foundation
import Testing

/// One server started for one test, a client for its user, and the task list made on it.
struct ServerAccount {
    let server: TestServer
    let client: CalDAVClient
    let discovery: DAVDiscovery
    let taskList: URL

    /// Starts `kind`, discovers from the bare server URL (the well-known redirect) and creates
    /// the task list; `body` runs, then the server is stopped whatever happened.
    static func with(
        _ kind: ServerKind, transport: CurlTransport = try! CurlTransport(), _ body: (ServerAccount) throws -> Void
    )
        throws
    {
        let server = try TestServer.start(kind)
        defer { server.stop() }
        let client = CalDAVClient(account: server.origin, credentials: credentials, transport: transport)
        let discovery = try client.discover()
        let taskList = try client.makeTaskList(
            in: discovery.calendarHome, segment: "reminderd", displayName: "reminderd")
        try body(ServerAccount(server: server, client: client, discovery: discovery, taskList: taskList))
    }

    static let credentials = Credentials(username: TestServer.username, password: TestServer.password)

    func item(_ name: String) -> URL { taskList.appendingPathComponent("\(name).ics") }

    static func todo(_ uid: String, _ summary: String) -> String {
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//reminderd//tests//EN", "BEGIN:VTODO", "UID:\(uid)@reminderd",
            "DTSTAMP:20261122T120000Z", "SUMMARY:\(summary)", "END:VTODO", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
    }

    /// PUT-creates `name` and returns its ETag, read back with GET when the server sent none.
    func create(_ name: String, _ summary: String = "created") throws -> String {
        let url = item(name)
        if let etag = try client.put(url, calendarData: Self.todo(name, summary), .create) { return etag }
        return try #require(try client.get(url).etag)
    }
}
