import DAVXML
import FoundationEssentials

/// One calendar object resource as fetched: its iCalendar text and the ETag it had.
public struct CalendarResource: Sendable, Equatable {
    public let href: URL
    public let etag: String?
    public let calendarData: String
}

/// The condition a PUT is made under, so two devices never overwrite each other blindly.
public enum WriteCondition: Sendable, Equatable {
    /// `If-None-Match: *`: only if nothing is there yet.
    case create
    /// `If-Match: <etag>`: only if the server still has the version the change was based on.
    case update(etag: String)
}

extension CalDAVClient {
    /// calendar-multiget (RFC 4791 §7.9) of `hrefs`; those the server reports missing (404) are
    /// returned apart so the caller can treat them as deleted.
    public func multiget(in calendar: URL, hrefs: [URL]) throws(DAVError) -> (found: [CalendarResource], missing: [URL])
    {
        guard !hrefs.isEmpty else { return ([], []) }
        let body = DAVBody.multiget(hrefs: hrefs.map { $0.path(percentEncoded: true) })
        let (status, _) = try multistatus("REPORT", calendar, depth: "1", body: body)
        var found: [CalendarResource] = []
        var missing: [URL] = []
        for response in status.responses {
            if let data = response.property(DAVNamespace.caldav, "calendar-data")?.text, !data.isEmpty {
                found.append(CalendarResource(href: response.href, etag: response.etag, calendarData: data))
            } else {
                missing.append(response.href)
            }
        }
        return (found, missing)
    }

    public func get(_ url: URL) throws(DAVError) -> CalendarResource {
        let request = HTTPRequest(method: "GET", url: url, headers: ["Accept": "text/calendar"])
        let (response, _) = try send(request)
        try check(response, request.summary, expected: [200])
        return CalendarResource(
            href: url, etag: response.header("etag"), calendarData: String(decoding: response.body, as: UTF8.self))
    }

    /// Writes `calendarData` under `condition`. Returns the new ETag, or nil when the server did
    /// not send one (it may have changed the data on the way in): the caller then GETs it back.
    /// A failed condition is `.preconditionFailed`, for the merge layer.
    public func put(_ url: URL, calendarData: String, _ condition: WriteCondition) throws(DAVError) -> String? {
        var headers = ["Content-Type": "text/calendar; charset=utf-8"]
        switch condition {
        case .create: headers["If-None-Match"] = "*"
        case .update(let etag): headers["If-Match"] = etag
        }
        let request = HTTPRequest(method: "PUT", url: url, headers: headers, body: Array(calendarData.utf8))
        let (response, _) = try send(request)
        try check(response, request.summary, expected: [200, 201, 204])
        return response.header("etag")
    }

    /// Deletes `url` if it still has `etag` (unconditionally when nil). Already gone (404/410)
    /// counts as done: the goal is that it is not there.
    public func delete(_ url: URL, etag: String?) throws(DAVError) {
        var headers: [String: String] = [:]
        if let etag { headers["If-Match"] = etag }
        let request = HTTPRequest(method: "DELETE", url: url, headers: headers)
        let (response, _) = try send(request)
        try check(response, request.summary, expected: [200, 204, 404, 410])
    }
}
