import CivilTime
import ReminderCore
import ReminderJSON
import ReminderProtocol
import ReminderStore

/// The methods reminderd-sync calls. reminderd owns all sync state and does all merging;
/// reminderd-sync only moves resources between the server and these calls (docs/SYNC.md).
extension ReminderEngine {
    func sync(_ request: ReminderRequest, now: Int64) throws -> [String: JSONValue] {
        switch request {
        case .syncBegin(let collection, let account):
            let begun = try stored { try store.beginSync(collection: collection, account: account, at: now) }
            syncPassNoted.removeAll()
            return SyncBeginReply(
                token: begun.token,
                resources: begun.resources.map { SyncBeginReply.Known(href: $0.href, etag: $0.etag) }
            ).parameters
        case .syncPulled(let resources, let removed, let token):
            return try pulled(resources, removed: removed, token: token, now: now).parameters
        case .syncPending(let limit):
            return SyncPendingReply(changes: try pending(limit: limit, now: now)).parameters
        case .syncPushed(let uid, let seq, let href, let etag, let body):
            try stored { try store.recordPushed(uid: uid, seq: seq, href: href, etag: etag, body: body, at: now) }
            return [:]
        case .syncReport(let error):
            try stored { try store.recordSyncReport(error: error, at: now) }
            return [:]
        case .syncStatus:
            return try syncStatus(now: now).parameters
        default:
            throw CommandError(
                error: VarlinkError(
                    name: ReminderInterface.ErrorName.syncFailed,
                    parameters: ["reason": .string("\(request.method.rawValue) is not available in this build")]))
        }
    }

    /// The store's answer, or its error as the command's.
    @discardableResult
    func stored<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as ReminderStoreError { throw CommandError.store(error) }
    }

    /// Up to `limit` waiting changes, oldest first, as the requests to make: a body to PUT
    /// (created when the server has no etag for it), or a DELETE for an item removed here.
    func pending(limit: Int, now: Int64) throws -> [SyncPendingReply.Change] {
        guard limit > 0 else { throw CommandError.invalidParameter("limit", "expected 1 or more") }
        let rows = try stored { try store.pendingSync(limit: limit) }
        guard !rows.isEmpty else { return [] }
        guard let collection = try stored({ try store.syncCollection() }) else {
            throw CommandError(
                error: VarlinkError(
                    name: ReminderInterface.ErrorName.syncFailed,
                    parameters: ["reason": .string("no task list yet: call SyncBegin first")]))
        }
        let context = syncContext(now: now)
        return rows.compactMap { row in
            let object = row.object
            if row.removed {
                guard let href = object.href else { return nil }
                return .init(uid: object.uid, href: href, etag: object.etag, body: nil, seq: row.seq)
            }
            guard let item = items[object.itemId] else { return nil }
            let href = object.href ?? ReminderEngine.syncHref(collection: collection, uid: object.uid)
            return .init(
                uid: object.uid, href: href, etag: object.etag,
                body: syncBody(of: item, object: object, href: href, context: context), seq: row.seq)
        }
    }

    /// Sync's state; times in the daemon's zone, conflicts of the last 30 days.
    func syncStatus(now: Int64) throws -> SyncStatusReply {
        let figures = try stored { try store.syncStatus(conflictsSince: now - 30 * 86_400) }
        let time = { (instant: Int64?) in instant.map { Timestamp.format($0, in: self.zone) } }
        return SyncStatusReply(
            account: figures.account, collection: figures.collection, lastSync: time(figures.lastSync),
            lastAttempt: time(figures.lastAttempt), error: figures.error, waiting: Int64(figures.waiting),
            waitingSince: time(figures.waitingSince), conflicts: Int64(figures.conflicts), connected: sync.connected)
    }
}
