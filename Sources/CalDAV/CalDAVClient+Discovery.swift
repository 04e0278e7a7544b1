import DAVXML
import FoundationEssentials

/// Where an account's calendars live, found from the URL the user gave (RFC 6764, RFC 5397,
/// RFC 4791 §6.2.1).
public struct DAVDiscovery: Sendable, Equatable {
    public let principal: URL
    public let calendarHome: URL
}

extension CalDAVClient {
    /// Asks the configured URL for the current user's principal, then `/.well-known/caldav` when
    /// that URL is the bare server or has no principal, then the principal for its calendar home.
    public func discover() throws(DAVError) -> DAVDiscovery {
        let wellKnown = URL(string: "/.well-known/caldav", relativeTo: account)!.absoluteURL
        let principal: URL
        if account.path.isEmpty || account.path == "/" {
            principal = try currentUserPrincipal(at: wellKnown)
        } else {
            do {
                principal = try currentUserPrincipal(at: account)
            } catch .notFound, .missingProperty {
                principal = try currentUserPrincipal(at: wellKnown)
            }
        }
        let home = try hrefProperty(DAVNamespace.caldav, "calendar-home-set", "<C:calendar-home-set/>", at: principal)
        return DAVDiscovery(principal: principal, calendarHome: home)
    }

    private func currentUserPrincipal(at url: URL) throws(DAVError) -> URL {
        try hrefProperty(DAVNamespace.dav, "current-user-principal", "<D:current-user-principal/>", at: url)
    }

    /// A property holding one DAV:href (PROPFIND Depth 0, redirects followed), as an absolute URL.
    private func hrefProperty(_ namespace: String, _ name: String, _ element: String, at url: URL) throws(DAVError)
        -> URL
    {
        let (status, base) = try multistatus(
            "PROPFIND", url, depth: "0", body: DAVBody.propfind([element]), followRedirects: true)
        guard let property = status.responses.first?.property(namespace, name),
            let href = property.first(DAVNamespace.dav, "href")?.trimmedText,
            let target = URL(string: href, relativeTo: base)?.absoluteURL
        else {
            throw .missingProperty(request: "PROPFIND \(base.absoluteString)", property: name)
        }
        return target
    }
}
