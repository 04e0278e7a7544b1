import CalDAV
import FoundationEssentials
import ReminderProtocol

extension SyncPass {
    /// Asks reminderd for its changes and writes them, round after round, until none is left or
    /// a round moves nothing (every change left has had its tries, or was refused). Each item
    /// gets at most `triesPerItem` writes per pass, so two writers fighting over one resource
    /// cannot keep a pass going.
    func push(_ state: inout PassState) throws(PassError) {
        var tries: [String: Int] = [:]
        while true {
            try checkStop()
            let pending = try ask(.syncPending(.init(limit: limits.pending)), as: SyncPendingReply.self)
            var progress = false
            for change in pending.changes where tries[change.uid, default: 0] < limits.triesPerItem {
                try checkStop()
                tries[change.uid, default: 0] += 1
                if try push(change, &state) { progress = true }
            }
            guard progress else {
                let stuck = pending.changes.filter { tries[$0.uid, default: 0] >= limits.triesPerItem }
                if let first = stuck.first {
                    state.note(
                        "\(first.href) changed on the server again at each of \(limits.triesPerItem) tries; "
                            + "the next pass tries again"
                            + (stuck.count > 1 ? " (\(stuck.count) such changes)" : ""))
                }
                return
            }
        }
    }

    /// Writes one change. True when reminderd's state moved on: the server took it (`SyncPushed`)
    /// or reminderd was given the server's version to merge with (`SyncPulled`, after a 412 or
    /// a 404). A change the server refuses is a problem in words, and the pass goes on.
    private func push(_ change: SyncPendingReply.Change, _ state: inout PassState) throws(PassError) -> Bool {
        guard let url = url(of: change.href) else {
            state.note("reminderd gave an href that is not a path: \(change.href)")
            return false
        }
        let held: (etag: String?, body: String?)
        do { held = try write(change, to: url) } catch .preconditionFailed {
            try refetch(change, url, &state)
            return true
        } catch .notFound where change.etag != nil && change.body != nil {
            // Gone on the server: reminderd decides between resurrecting the item and forgetting it.
            try pulled([], removed: [change.href], token: nil, &state)
            return true
        } catch {
            // The server refuses this change (400, 409, 415…): the others may still go.
            guard case .unexpectedStatus = error else { throw .server(error) }
            state.note("\(change.uid): \(ServerFailureWording.words(error))")
            return false
        }
        try confirm(change, url, etag: held.etag, body: held.body, &state)
        state.summary.pushed += 1
        return true
    }

    /// The request itself; returns what the server holds afterwards. Without an ETag in the
    /// answer the server may have changed what it stored, so it is read back: that is the base.
    private func write(_ change: SyncPendingReply.Change, to url: URL) throws(DAVError) -> (etag: String?, body: String?) {
        guard let body = change.body else {
            try client.delete(url, etag: change.etag)
            return (nil, nil)
        }
        if let etag = try client.put(url, calendarData: body, change.etag.map { .update(etag: $0) } ?? .create) {
            return (etag, body)
        }
        let stored = try client.get(url)
        return (stored.etag, stored.calendarData)
    }

    /// 412: someone else wrote the resource since reminderd's base. Its current version goes to
    /// reminderd, which merges 3-way and puts the merged result back among the pending changes.
    private func refetch(_ change: SyncPendingReply.Change, _ url: URL, _ state: inout PassState) throws(PassError) {
        let current: CalendarResource
        do { current = try client.get(url) } catch .notFound {
            // Deleted meanwhile: a delete is done; an update is reminderd's to decide.
            if change.body == nil { return try confirm(change, url, etag: nil, body: nil, &state) }
            return try pulled([], removed: [change.href], token: nil, &state)
        } catch { throw .server(error) }
        let resource = SyncResource(href: change.href, etag: current.etag, body: current.calendarData)
        try pulled([resource], removed: [], token: nil, &state)
    }

    /// Tells reminderd the server took the change, which makes it forget its sync token
    /// (`pullAfterWrites` brings a new one).
    private func confirm(
        _ change: SyncPendingReply.Change, _ url: URL, etag: String?, body: String?, _ state: inout PassState
    ) throws(PassError) {
        try tell(.syncPushed(.init(uid: change.uid, seq: change.seq, href: href(url), etag: etag, body: body)))
        state.wrote = true
        state.storedToken = nil
        if body == nil {
            state.known[key(url)] = nil
            state.written.remove(key(url))
        } else {
            state.known[key(url)] = .init(href: href(url), etag: etag)
            state.written.insert(key(url))
        }
    }
}
