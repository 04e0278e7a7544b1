/// Everything that can go wrong talking to a CalDAV server, each case with the request (method
/// and URL) it happened on, so `sync status` can say what failed where. `isRetryable` tells the
/// sync loop whether backing off and trying again can help.
public enum DAVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No answer: refused connection, reset, DNS failure, a body cut off mid-transfer.
    case network(request: String, detail: String)
    case timedOut(request: String, seconds: Int)
    /// The server's certificate was not accepted (verification is always on).
    case tls(request: String, detail: String)
    /// 5xx: the server's own trouble.
    case serverError(request: String, status: Int, excerpt: String)
    /// 401 or 403: the credentials are wrong or lack the right; asking again will not help.
    case accessDenied(request: String, status: Int)
    /// 404 (or 410) where a collection or principal was expected.
    case notFound(request: String)
    /// The URL answers but is not a calendar collection.
    case notACalendar(url: String)
    /// 412: the resource changed on the server since its ETag was read; the merge layer fetches,
    /// merges and retries.
    case preconditionFailed(request: String)
    /// The sync token was refused (403/409 with DAV:valid-sync-token): list everything again.
    case invalidSyncToken(request: String)
    /// A status the operation has no meaning for.
    case unexpectedStatus(request: String, status: Int, excerpt: String)
    /// An HTML page (a proxy's or login portal's) where XML was expected.
    case notXML(request: String, contentType: String, excerpt: String)
    /// XML that does not parse (truncated, or not well-formed), with where the parser stopped.
    case malformedXML(request: String, line: Int, detail: String)
    /// XML that parses but lacks what the operation needs (no principal, no calendar home…).
    case missingProperty(request: String, property: String)
    case redirectLoop(request: String, chain: [String])
    /// A redirect to another server or from https to http; the password stays where the user put it.
    case redirectRefused(request: String, location: String, reason: String)
    case responseTooLarge(request: String, limit: Int)

    public var isRetryable: Bool {
        switch self {
        case .network, .timedOut, .serverError: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .network(let request, let detail):
            return "\(request): network error (\(detail)); will retry"
        case .timedOut(let request, let seconds):
            return "\(request): no complete answer within \(seconds) s; will retry"
        case .tls(let request, let detail):
            return "\(request): the server's TLS certificate was not accepted (\(detail))"
        case .serverError(let request, let status, let excerpt):
            return "\(request): server error \(status)\(Self.quoted(excerpt)); will retry"
        case .accessDenied(let request, let status):
            let why = status == 401 ? "wrong user name or password" : "the account may not do this"
            return "\(request): refused with \(status) (\(why)); check sync.username and the password"
        case .notFound(let request):
            return "\(request): not found (404); check sync.url and sync.calendar"
        case .notACalendar(let url):
            return "\(url) is not a calendar collection; check sync.url and sync.calendar"
        case .preconditionFailed(let request):
            return "\(request): changed on the server since it was last read (412)"
        case .invalidSyncToken(let request):
            return "\(request): the server no longer accepts the sync token; listing everything again"
        case .unexpectedStatus(let request, let status, let excerpt):
            return "\(request): unexpected answer \(status)\(Self.quoted(excerpt))"
        case .notXML(let request, let contentType, let excerpt):
            let type = contentType.isEmpty ? "no content type" : contentType
            return "\(request): expected XML, got a page of \(type)\(Self.quoted(excerpt)) — a proxy or login page?"
        case .malformedXML(let request, let line, let detail):
            return "\(request): the XML answer is broken at line \(line) (\(detail)) — truncated?"
        case .missingProperty(let request, let property):
            return "\(request): the answer has no \(property)"
        case .redirectLoop(let request, let chain):
            return "\(request): redirect loop (\(chain.joined(separator: " → ")))"
        case .redirectRefused(let request, let location, let reason):
            return "\(request): not following the redirect to \(location): \(reason)"
        case .responseTooLarge(let request, let limit):
            return "\(request): answer larger than \(limit) bytes, refused"
        }
    }

    private static func quoted(_ excerpt: String) -> String { excerpt.isEmpty ? "" : ": \"\(excerpt)\"" }
}
