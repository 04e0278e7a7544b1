import CalDAV
import FoundationEssentials

/// A server's failure in the words `reminderctl sync status` shows: which server, which request,
/// what it answered, and what to do, e.g. "dav.example.org answered 401 Unauthorized to PROPFIND
/// /alice/: check the user name and password (reminderctl sync setup)". `DAVError`'s own
/// description names the whole URL; here the server comes first because that is what a person
/// recognises, and the advice names the command that fixes it.
public enum ServerFailureWording {
    public static func words(_ error: DAVError) -> String {
        let retry = error.isRetryable ? "; will retry" : ""
        switch error {
        case .network(let request, let detail):
            let (server, what) = split(request)
            return "cannot reach \(server) (\(detail)) for \(what)\(retry)"
        case .timedOut(let request, let seconds):
            let (server, what) = split(request)
            return "\(server) did not answer \(what) within \(seconds) s\(retry)"
        case .tls(let request, let detail):
            let (server, what) = split(request)
            return "\(server)'s TLS certificate was not accepted (\(detail)) for \(what)"
        case .serverError(let request, let status, let excerpt), .unexpectedStatus(let request, let status, let excerpt):
            let (server, what) = split(request)
            return "\(server) answered \(statusLine(status))\(quoted(excerpt)) to \(what)\(retry)"
        case .accessDenied(let request, let status):
            let (server, what) = split(request)
            let advice =
                status == 401
                ? "check the user name and password (reminderctl sync setup)"
                : "the account may not do this; check sync.calendar and the account's rights on the server"
            return "\(server) answered \(statusLine(status)) to \(what): \(advice)"
        case .notFound(let request):
            let (server, what) = split(request)
            return "\(server) answered 404 Not Found to \(what): check sync.url and sync.calendar (reminderctl sync setup)"
        case .notACalendar(let url):
            return "\(url) is not a calendar: check sync.calendar (reminderctl sync setup)"
        case .notXML(let request, let contentType, let excerpt):
            let (server, what) = split(request)
            let type = contentType.isEmpty ? "no content type" : contentType
            return "\(server) answered \(what) with a page of \(type)\(quoted(excerpt)) instead of XML — a proxy or "
                + "login page?"
        case .malformedXML(let request, let line, let detail):
            let (server, what) = split(request)
            return "\(server)'s answer to \(what) is broken XML at line \(line) (\(detail)) — truncated?"
        case .missingProperty(let request, let property):
            let (server, what) = split(request)
            return "\(server)'s answer to \(what) has no \(property)"
        case .redirectLoop(let request, let chain):
            let (server, what) = split(request)
            return "\(server) redirects \(what) in a loop (\(chain.joined(separator: " → ")))"
        case .redirectRefused(let request, let location, let reason):
            let (server, what) = split(request)
            return "\(server) redirects \(what) to \(location), not followed: \(reason)"
        case .responseTooLarge(let request, let limit):
            let (server, what) = split(request)
            return "\(server)'s answer to \(what) is larger than \(limit) bytes, refused"
        case .preconditionFailed, .invalidSyncToken:
            // Handled by the pass (fetch and merge; list everything again); worded as is if one escapes.
            return error.description
        }
    }

    /// "PROPFIND https://dav.example.org/alice/" → ("dav.example.org", "PROPFIND /alice/").
    static func split(_ request: String) -> (server: String, request: String) {
        let pieces = request.split(separator: " ", maxSplits: 1)
        guard pieces.count == 2, let url = URL(string: String(pieces[1])), let host = url.host else {
            return ("the server", request)
        }
        let server = url.port.map { "\(host):\($0)" } ?? host
        return (server, "\(pieces[0]) \(url.path(percentEncoded: true))")
    }

    static func statusLine(_ status: Int) -> String {
        let reasons = [
            400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
            409: "Conflict", 413: "Content Too Large", 415: "Unsupported Media Type", 500: "Internal Server Error",
            501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
            507: "Insufficient Storage",
        ]
        return reasons[status].map { "\(status) \($0)" } ?? String(status)
    }

    private static func quoted(_ excerpt: String) -> String { excerpt.isEmpty ? "" : " (\"\(excerpt)\")" }
}
