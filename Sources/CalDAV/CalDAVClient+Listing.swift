import DAVXML
import FoundationEssentials

/// A member resource as a listing names it: where it is and its current ETag.
public struct ResourceState: Sendable, Equatable {
    public let href: URL
    public let etag: String?
}

/// What changed in a collection since a sync token (or everything, for a full listing).
public struct CollectionChanges: Sendable, Equatable {
    public let changed: [ResourceState]
    public let removed: [URL]
    /// The token to store once these changes are applied.
    public let token: String
    /// True when this is a listing of every member (no token, or the old one was refused): any
    /// resource known locally and absent here is gone from the server.
    public let isFullListing: Bool
    /// The server answered 507 on the collection: more changes wait; ask again with `token`.
    public let isTruncated: Bool
}

extension CalDAVClient {
    /// RFC 6578 sync-collection from `token`; a refused token (403/409 with
    /// DAV:valid-sync-token) is answered by listing everything again, flagged `isFullListing`.
    public func changes(in calendar: URL, since token: String?) throws(DAVError) -> CollectionChanges {
        guard let token else { return try syncCollection(calendar, token: nil) }
        do {
            return try syncCollection(calendar, token: token)
        } catch .invalidSyncToken {
            return try syncCollection(calendar, token: nil)
        }
    }

    func syncCollection(_ calendar: URL, token: String?) throws(DAVError) -> CollectionChanges {
        let (status, _) = try multistatus("REPORT", calendar, depth: "0", body: DAVBody.syncCollection(token: token))
        guard let newToken = status.syncToken else {
            throw .missingProperty(request: "REPORT \(calendar.absoluteString)", property: "sync-token")
        }
        var changed: [ResourceState] = []
        var removed: [URL] = []
        var truncated = false
        for response in status.responses {
            if sameResource(response.href, calendar) {
                truncated = response.status == 507
            } else if response.status == 404 || response.status == 410 {
                removed.append(response.href)
            } else if let etag = response.etag {
                changed.append(ResourceState(href: response.href, etag: etag))
            }
        }
        return CollectionChanges(
            changed: changed, removed: removed, token: newToken, isFullListing: token == nil, isTruncated: truncated)
    }

    /// Every member and its ETag (PROPFIND Depth 1 getetag): the fallback for servers without
    /// sync-collection, compared against the stored ETags by the caller.
    public func listETags(in calendar: URL) throws(DAVError) -> [ResourceState] {
        let body = DAVBody.propfind(["<D:getetag/>", "<D:resourcetype/>"])
        let (status, _) = try multistatus("PROPFIND", calendar, depth: "1", body: body)
        return status.responses.filter { response in
            !sameResource(response.href, calendar)
                && response.property(DAVNamespace.dav, "resourcetype")?.first(DAVNamespace.dav, "collection") == nil
        }.map { ResourceState(href: $0.href, etag: $0.etag) }
    }
}
