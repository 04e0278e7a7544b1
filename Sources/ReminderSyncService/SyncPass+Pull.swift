import CalDAV
import Foundation
import ReminderProtocol

/// The server's changes since the last pull, whichever way the server could list them.
struct RemoteListing {
    var changed: [ResourceState] = []
    var removed: [URL] = []
    /// The token to store once applied; nil when the list offers no sync-collection.
    var token: String?
    /// Every member was listed: a resource reminderd knows and the listing lacks is gone.
    var isFull = false
}

extension SyncPass {
    /// Lists what changed, fetches the bodies that reminderd does not have yet, and hands them
    /// over in `SyncPulled` batches; the token travels with the last batch only, so it is stored
    /// only once everything before it was applied.
    func pull(_ begin: SyncBeginReply, _ state: inout PassState) throws(PassError) {
        // What reminderd knew at its last pull, by path; its own spelling of each href is what
        // it is told back, so it matches its rows exactly.
        var known: [String: SyncBeginReply.Known] = [:]
        for resource in begin.resources {
            if let url = url(of: resource.href) { known[key(url)] = resource }
        }
        let listing = try list(since: begin.token)
        var batches = PulledBatches(limit: limits.batchBytes)
        var gone = Set<String>()
        func remove(_ path: String) throws(PassError) {
            guard let resource = known[path], gone.insert(path).inserted else { return }
            state.summary.removed += 1
            if let full = batches.remove(resource.href) { try send(full, token: nil, &state) }
        }
        for url in listing.removed { try remove(key(url)) }
        if listing.isFull {
            let listed = Set(listing.changed.map { key($0.href) })
            for path in known.keys.sorted() where !listed.contains(path) { try remove(path) }
        }
        // Unchanged ETag: reminderd has this version (often its own push, listed back).
        let wanted = listing.changed.filter { change in
            guard let etag = change.etag, let old = known[key(change.href)]?.etag else { return true }
            return old != etag
        }
        let listedETags = Dictionary(wanted.map { (key($0.href), $0.etag) }, uniquingKeysWith: { _, last in last })
        for start in stride(from: 0, to: wanted.count, by: limits.multiget) {
            try checkStop()
            let chunk = wanted[start..<min(start + limits.multiget, wanted.count)].map(\.href)
            let (found, missing) = try dav { () throws(DAVError) in try client.multiget(in: taskList, hrefs: chunk) }
            for url in missing { try remove(key(url)) }  // deleted between the listing and the fetch
            for resource in found {
                let path = key(resource.href)
                let pulled = SyncResource(
                    href: known[path]?.href ?? href(resource.href), etag: resource.etag ?? listedETags[path].flatMap { $0 },
                    body: resource.calendarData)
                let full: PulledBatch?
                do { full = try batches.add(pulled) } catch {
                    let size = error.bytes
                    state.note("\(pulled.href) is \(size) bytes, more than reminderd takes in one call; left out")
                    continue
                }
                state.summary.pulled += 1
                if let full { try send(full, token: nil, &state) }
            }
        }
        let last = batches.finish()
        if !last.isEmpty || (listing.token != nil && listing.token != begin.token) {
            try send(last, token: listing.token, &state)
        }
    }

    private func send(_ batch: PulledBatch, token: String?, _ state: inout PassState) throws(PassError) {
        try pulled(batch.resources, removed: batch.removed, token: token, &state)
    }

    /// sync-collection from the token (a refused token or none: everything, flagged full),
    /// following 507-truncated answers; the ETag listing where the list offers no sync-collection.
    /// A resource changed and removed across pages counts as its last state.
    func list(since token: String?) throws(PassError) -> RemoteListing {
        guard session.offersSyncCollection else {
            return RemoteListing(changed: try dav { () throws(DAVError) in try client.listETags(in: taskList) }, isFull: true)
        }
        var changed: [String: ResourceState] = [:]
        var removed: [String: URL] = [:]
        var listing = RemoteListing()
        var since = token
        var truncated = false
        for _ in 0..<limits.pages {
            try checkStop()
            let page = try dav { () throws(DAVError) in try client.changes(in: taskList, since: since) }
            listing.isFull = listing.isFull || page.isFullListing
            for state in page.changed {
                removed[key(state.href)] = nil
                changed[key(state.href)] = state
            }
            for url in page.removed {
                changed[key(url)] = nil
                removed[key(url)] = url
            }
            since = page.token
            truncated = page.isTruncated
            if !truncated { break }
        }
        // Still truncated after the last page asked for: the rest comes next pass, and what was
        // not listed yet is not gone.
        if truncated { listing.isFull = false }
        listing.token = since
        listing.changed = changed.keys.sorted().compactMap { changed[$0] }
        listing.removed = removed.keys.sorted().compactMap { removed[$0] }
        return listing
    }
}
