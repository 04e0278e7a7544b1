import Foundation

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
        let body = DAVBody.propfind(["<C:calendar-home-set/>"])
        let (status, base) = try multistatus("PROPFIND", principal, depth: "0", body: body, followRedirects: true)
        guard let home = status.responses.first?.property(DAVNamespace.caldav, "calendar-home-set"),
            let href = home.first(DAVNamespace.dav, "href")?.trimmedText,
            let url = URL(string: href, relativeTo: base)?.absoluteURL
        else {
            throw .missingProperty(request: "PROPFIND \(base.absoluteString)", property: "calendar-home-set")
        }
        return DAVDiscovery(principal: principal, calendarHome: url)
    }

    private func currentUserPrincipal(at url: URL) throws(DAVError) -> URL {
        let body = DAVBody.propfind(["<D:current-user-principal/>"])
        let (status, base) = try multistatus("PROPFIND", url, depth: "0", body: body, followRedirects: true)
        guard let property = status.responses.first?.property(DAVNamespace.dav, "current-user-principal"),
            let href = property.first(DAVNamespace.dav, "href")?.trimmedText,
            let principal = URL(string: href, relativeTo: base)?.absoluteURL
        else {
            throw .missingProperty(request: "PROPFIND \(base.absoluteString)", property: "current-user-principal")
        }
        return principal
    }
}
