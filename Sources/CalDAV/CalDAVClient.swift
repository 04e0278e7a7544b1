import DAVXML
import FoundationEssentials

/// A CalDAV account: the blocking operations `reminderd-sync` runs on its one sync thread. Each
/// returns what it found or throws a `DAVError` naming the request; none retries by itself (the
/// sync loop owns back-off). The password goes only to the configured URL's server.
public final class CalDAVClient: Sendable {
    public let account: URL
    let credentials: Credentials?
    let transport: any HTTPTransport
    /// How many redirects discovery follows before calling it a loop.
    static let redirectLimit = 5

    public init(account: URL, credentials: Credentials?, transport: any HTTPTransport) {
        self.account = account
        self.credentials = credentials
        self.transport = transport
    }

    /// Sends `request`, following redirects only when `followRedirects` (discovery's well-known
    /// URL and principal lookups), never to another server and never from https to http.
    func send(_ request: HTTPRequest, followRedirects: Bool = false) throws(DAVError) -> (HTTPResponse, URL) {
        var current = request
        var chain = [request.url.absoluteString]
        try requireAccountOrigin(request.url, request: request.summary)
        while true {
            let response = try transport.send(current, credentials: credentials)
            guard followRedirects, [301, 302, 303, 307, 308].contains(response.status) else {
                return (response, current.url)
            }
            guard let location = response.header("location"),
                let next = URL(string: location, relativeTo: current.url)?.absoluteURL
            else {
                throw .unexpectedStatus(request: current.summary, status: response.status, excerpt: "no Location")
            }
            if current.url.scheme == "https" && next.scheme != "https" {
                throw .redirectRefused(request: current.summary, location: next.absoluteString, reason: "https to http")
            }
            // Named by the request that redirected, not by its target.
            try requireAccountOrigin(next, request: current.summary)
            let seen = chain.contains(next.absoluteString)
            chain.append(next.absoluteString)
            if seen || chain.count > Self.redirectLimit + 1 {
                throw .redirectLoop(request: request.summary, chain: chain)
            }
            current.url = next
        }
    }

    /// The password is sent to the configured server only; a redirect or an href pointing
    /// elsewhere is refused with the address to configure instead. `request` is the one that
    /// redirected there, or the one to `url` itself.
    private func requireAccountOrigin(_ url: URL, request: String) throws(DAVError) {
        guard url.scheme == account.scheme, url.host == account.host, effectivePort(url) == effectivePort(account)
        else {
            throw .redirectRefused(
                request: request, location: url.absoluteString,
                reason: "another server than sync.url's; set sync.url to it if it is yours")
        }
    }

    private func effectivePort(_ url: URL) -> Int? { url.port ?? (url.scheme == "https" ? 443 : 80) }

    /// Turns any status outside `expected` into its typed error.
    func check(_ response: HTTPResponse, _ request: String, expected: Set<Int>) throws(DAVError) {
        let status = response.status
        if expected.contains(status) { return }
        switch status {
        case 401: throw .accessDenied(request: request, status: status)
        case 403, 409, 412:
            // RFC 6578 says 403 or 409 for a refused sync token; Radicale answers 403, Xandikos 412.
            if bodyNames(response, "valid-sync-token") { throw .invalidSyncToken(request: request) }
            if status == 403 { throw .accessDenied(request: request, status: status) }
            if status == 412 { throw .preconditionFailed(request: request) }
        case 404, 410: throw .notFound(request: request)
        case 500..<600: throw .serverError(request: request, status: status, excerpt: ResponseText.excerpt(response))
        default: break
        }
        throw .unexpectedStatus(request: request, status: status, excerpt: ResponseText.excerpt(response))
    }

    /// Whether an error body carries the named DAV: precondition (e.g. valid-sync-token).
    func bodyNames(_ response: HTTPResponse, _ precondition: String) -> Bool {
        guard case .success(let root) = XMLTree.parse(response.body) else { return false }
        return root.first(DAVNamespace.dav, precondition) != nil
    }

    /// PROPFIND or REPORT with an XML body; the 207 answer parsed.
    func multistatus(
        _ method: String, _ url: URL, depth: String, body: String, followRedirects: Bool = false
    ) throws(DAVError) -> (Multistatus, URL) {
        let request = HTTPRequest(
            method: method, url: url,
            headers: ["Depth": depth, "Content-Type": "application/xml; charset=utf-8"],
            body: Array(body.utf8))
        let (response, finalURL) = try send(request, followRedirects: followRedirects)
        let summary = "\(method) \(finalURL.absoluteString)"
        // Any 2xx is read as XML first, so a login page's 200 is named as the HTML it is.
        let root = (200..<300).contains(response.status) ? try ResponseText.xml(response, request: summary) : nil
        try check(response, summary, expected: [207])
        guard let root else { throw .unexpectedStatus(request: summary, status: response.status, excerpt: "") }
        return (try Multistatus(root, base: finalURL, request: summary), finalURL)
    }
}
