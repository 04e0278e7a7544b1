import FoundationEssentials

extension CalDAVClient {
    /// The calendars in a calendar home (PROPFIND Depth 1), the home itself and anything that is
    /// not a calendar (address books, inboxes) left out.
    public func calendars(in home: URL) throws(DAVError) -> [CalendarCollection] {
        let body = DAVBody.propfind(CalendarCollection.properties)
        let (status, _) = try multistatus("PROPFIND", home, depth: "1", body: body)
        return status.responses.filter { !sameResource($0.href, home) }.compactMap(CalendarCollection.init)
    }

    /// The collection at `url` (PROPFIND Depth 0): a 404 and "not a calendar" are the two ways a
    /// wrong `sync.calendar` shows, each named.
    public func calendar(at url: URL) throws(DAVError) -> CalendarCollection {
        let body = DAVBody.propfind(CalendarCollection.properties)
        let (status, _) = try multistatus("PROPFIND", url, depth: "0", body: body)
        guard let response = status.responses.first(where: { sameResource($0.href, url) }) ?? status.responses.first,
            response.status != 404
        else {
            throw .notFound(request: "PROPFIND \(url.absoluteString)")  // Xandikos: a 207 holding a 404
        }
        guard let collection = CalendarCollection(response) else {
            throw .notACalendar(url: url.absoluteString)
        }
        return collection
    }

    /// Creates a VTODO-only calendar named `segment` in `home` (MKCALENDAR, RFC 4791 §5.3.1) and
    /// returns its URL. When something is already there (another device created it first:
    /// DAV:resource-must-be-null, with 409 from Radicale and 403 from Xandikos) its URL is returned
    /// too, and `calendar(at:)` tells whether it is a calendar.
    public func makeTaskList(in home: URL, segment: String, displayName: String) throws(DAVError) -> URL {
        try makeCalendar(in: home, segment: segment, displayName: displayName, component: "VTODO")
    }

    /// Creates a calendar of `component`s (VTODO for the task list, VEVENT for the mirror), as
    /// `makeTaskList` says.
    public func makeCalendar(in home: URL, segment: String, displayName: String, component: String) throws(DAVError)
        -> URL
    {
        let url = home.appendingPathComponent(segment, isDirectory: true)
        let request = HTTPRequest(
            method: "MKCALENDAR", url: url, headers: ["Content-Type": "application/xml; charset=utf-8"],
            body: Array(DAVBody.makeCalendar(displayName: displayName, component: component).utf8))
        let (response, _) = try send(request)
        if [403, 405, 409].contains(response.status),
            response.status == 405 || bodyNames(response, "resource-must-be-null")
        {
            return url
        }
        try check(response, request.summary, expected: [200, 201])
        return url
    }
}
