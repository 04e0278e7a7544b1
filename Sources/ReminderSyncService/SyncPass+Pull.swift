import CalDAV
import FoundationEssentials
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
    /// Lists what changed since the stored token, fetches the bodies that reminderd does not
    /// have yet, and hands them over in `SyncPulled` batches; the token travels with the last
    /// batch only, so it is stored only once everything before it was applied.
    func pull(_ begin: SyncBeginReply, _ state: inout PassState) throws(PassError) {
        // What reminderd knew at its last pull, by path; its own spelling of each href is what
        // it is told back, so it matches its rows exactly.
        for resource in begin.resources {
            if let url = url(of: resource.href) { state.known[key(url)] = resource }
        }
        state.storedToken = begin.token
        state.listedFrom = begin.token
        try pull(try list(since: begin.token), &state)
    }

    /// The listing after the pass's own writes (docs/SYNC.md, "The token after a push"): reminderd
    /// forgot its token at the first confirmed write, because a token from before a write may
    /// never name what becomes of the resource written (Xandikos lists the difference between
    /// two states: a resource made after the token and deleted since is in neither). So the
    /// changes since the token of this pass's pull are listed again: they are this pass's own
    /// writes (known now: nothing to fetch) and whatever another device wrote meanwhile. Every
    /// resource this pass wrote must be named there; one that is not means the listing cannot
    /// be trusted, and everything is listed instead and compared with what reminderd knows.
    func pullAfterWrites(_ state: inout PassState) throws(PassError) {
        guard state.wrote, session.offersSyncCollection else { return }
        var listing = try list(since: state.listedFrom)
        let named = Set(listing.changed.map { key($0.href) } + listing.removed.map { key($0) })
        if !listing.isFull, state.written.contains(where: { !named.contains($0) }) {
            listing = try list(since: nil)
        }
        try pull(listing, &state)
    }

    /// Hands `listing`'s changes to reminderd: what it does not know (or knows in another
    /// version) fetched, what is gone told as removed, and the token with the last batch.
    private func pull(_ listing: RemoteListing, _ state: inout PassState) throws(PassError) {
        let known = state.known
        var batches = PulledBatches(limit: limits.batchBytes)
        var gone = Set<String>()
        func remove(_ path: String, _ state: inout PassState) throws(PassError) {
            guard let resource = known[path], gone.insert(path).inserted else { return }
            state.summary.removed += 1
            if let full = batches.remove(resource.href) { try send(full, token: nil, &state) }
        }
        for url in listing.removed { try remove(key(url), &state) }
        if listing.isFull {
            let listed = Set(listing.changed.map { key($0.href) })
            for path in known.keys.sorted() where !listed.contains(path) { try remove(path, &state) }
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
            for url in missing { try remove(key(url), &state) }  // deleted between the listing and the fetch
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
        if !last.isEmpty || (listing.token != nil && listing.token != state.storedToken) {
            try send(last, token: listing.token, &state)
        }
        if let token = listing.token { state.listedFrom = token }
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
