import CivilTime
import Dispatch
import Logging
import ReminderCore
import ReminderJSON
import ReminderPlatform
import ReminderProtocol
import ReminderStore

/// What the sync endpoint may reach of the engine: the core, which owns the items, their
/// schedule and the reminders in flight. Sync reads the items and settings, asks for a fresh id,
/// hands over what a pull changed, and keeps everything else to itself.
protocol SyncCore: AnyObject, Sendable {
    /// The items, their occurrence records and the unreadable ones.
    var index: ItemIndex { get }
    var configuration: Configuration { get }
    var zone: TimeZoneRules { get }
    var rules: FireTimeRules { get }
    /// An id free for a new item (`taken` too are not).
    func newID(avoiding taken: Set<String>) -> String
    /// Whether a reminder of the item that `instant` covers is in flight, on screen, waiting or
    /// held: a dismiss elsewhere is said in history only then.
    func hasReminder(of itemId: String, firedBy instant: Int64) -> Bool
    /// Writes what a pull changed to the store in one transaction, then to memory: items,
    /// occurrences, pop-ups closed, schedules, notices.
    func applyPulledChanges(_ changes: PulledChanges, now: Int64) throws(ReminderStoreError)
    /// The earliest deadline may have changed (the link's): the timer driver re-arms.
    func publish()
    /// A refresh is over (its pull came, or its time): the fires it held that are still due go out.
    func releaseRefresh(now: Int64)
}

/// reminderd's end of sync (docs/SYNC.md): the `Sync…` methods reminderd-sync calls — reminderd
/// owns all sync state and does all merging; reminderd-sync only moves resources between the
/// server and these calls — and the link to it (`SyncLink`: its parked calls and what they wait
/// for). A part of the engine on the engine's queue; its mutable state is in one box whose
/// confinement to that queue is checked on every access (`QueueBound`), and it reaches the engine
/// only through `SyncCore`.
final class SyncEndpoint: Sendable {
    /// What sync remembers between calls.
    struct State {
        /// reminderd-sync's parked calls and what they wait for: local changes, `SyncNow`, refreshes.
        var link = SyncLink()
        /// What this sync pass (since its `SyncBegin`) already recorded of the server's problems: a
        /// "kept" or "conflict" history line (item, event, reason) and a skipped resource's journal
        /// line (href, reason). A push that meets a 412 pulls the resource again, up to 3 times per
        /// pass, and the same unreadable copy or conflict is then found again: it is said once.
        var passNoted: Set<String> = []
        /// Hrefs of tasks of other apps (a phone's, without `X-REMINDERD-KIND`) already named in the
        /// journal: they come again at every pass (no item keeps their etag), said once a run.
        var foreignTasksNoted: Set<String> = []
    }

    /// The engine, which owns this endpoint.
    unowned let core: any SyncCore
    /// The store, for sync's own state in it (the task list, each item's server copy, the changes
    /// waiting); what a pull changes of the items goes through `core`.
    let store: ReminderStore
    let logger: Logger
    let state: QueueBound<State>

    init(core: any SyncCore, store: ReminderStore, logger: Logger, queue: DispatchQueue) {
        self.core = core
        self.store = store
        self.logger = logger
        state = QueueBound(State(), queue: queue)
    }

    // The state, read or changed on the engine's queue.
    var link: SyncLink {
        get { state.value.link }
        _modify { yield &state.value.link }
    }
    var passNoted: Set<String> {
        get { state.value.passNoted }
        _modify { yield &state.value.passNoted }
    }
    var foreignTasksNoted: Set<String> {
        get { state.value.foreignTasksNoted }
        _modify { yield &state.value.foreignTasksNoted }
    }

    // What sync reads of the core.
    var items: ItemTable { core.index.items }
    var order: [String] { core.index.order }
    var occurrences: [String: [Int64: OccurrenceRecord]] { core.index.occurrences }
    var quarantined: [String: QuarantinedItem] { core.index.quarantined }
    var zone: TimeZoneRules { core.zone }
    var rules: FireTimeRules { core.rules }

    /// `SyncBegin` from `caller`: a pass begins, under way until its report or until `caller`'s
    /// connection closes (`SyncEndpoint+Link.swift`). Answers the server's resources known here.
    func begin(collection: String, account: String, caller: any CallParking, now: Int64) throws(EngineError)
        -> SyncBeginReply
    {
        let otherTasks = core.configuration.sync?.otherTasks ?? false
        // Another task list's tasks are not this one's: they would be pushed into it as new items.
        let switching = try stored { try store.syncCollection() }.map { $0 != collection } ?? false
        if try stored({ try store.syncOtherTasks() }), switching || !otherTasks {
            try forgetTaskListTasks(
                because: switching ? "another task list is synced" : "sync.otherTasks is off", now: now)
        }
        let begun = try stored {
            try store.beginSync(collection: collection, account: account, otherTasks: otherTasks, at: now)
        }
        passNoted.removeAll()
        passBegun(by: caller)
        return SyncBeginReply(
            token: begun.token, resources: begun.resources.map { SyncBeginReply.Known(href: $0.href, etag: $0.etag) })
    }

    /// `sync.otherTasks` turned off (or another task list): other apps' tasks are no longer
    /// reminded. They go from here with their sync state, and nothing goes to the server: the tasks stay in the task
    /// list as their apps left them.
    private func forgetTaskListTasks(because reason: String, now: Int64) throws(EngineError) {
        var changes = PulledChanges()
        for id in order {
            guard let item = items[id], item.isFromTaskList else { continue }
            changes.batch.removed.append(id)
            changes.closing.append((id, nil))
            changes.touched.insert(id)
            changes.batch.history.append(
                HistoryRecord(
                    at: now, itemId: id, title: item.title, event: .removed,
                    reason: "\(reason): no longer reminded here (the task stays in its app)"))
        }
        guard !changes.batch.removed.isEmpty else { return }
        try stored { try core.applyPulledChanges(changes, now: now) }
    }

    /// `SyncPulled`: the pull is applied (`SyncEndpoint+Pull.swift`), then the fires held for a
    /// refresh go out. What the pull throws is the store's refusal (`stored`); anything else
    /// would be a fault here, said as one.
    func applyPull(_ resources: [SyncResource], removed: [String], token: String?, now: Int64) throws(EngineError)
        -> SyncPulledReply
    {
        let reply: SyncPulledReply
        do { reply = try pulled(resources, removed: removed, token: token, now: now) } catch let error as EngineError {
            throw error
        } catch { throw .internal("\(error)") }
        refreshOver(now: now)
        return reply
    }

    /// `SyncPushed`: the server took change `seq` of `uid`.
    func pushed(uid: String, seq: Int64, href: String, etag: String?, body: String?, now: Int64) throws(EngineError) {
        try stored { try store.recordPushed(uid: uid, seq: seq, href: href, etag: etag, body: body, at: now) }
    }

    /// `SyncReport`: a pass ended (`error` nil when it succeeded); its report answers the
    /// `SyncNow` calls of its pass, and the fires held for a refresh go out.
    func report(error: String?, now: Int64) throws(EngineError) {
        try stored { try store.recordSyncReport(error: error, at: now) }
        passReported(error: error)
        refreshOver(now: now)
    }

    /// The store's answer, or its error as the command's.
    @discardableResult
    func stored<T>(_ body: () throws -> T) throws(EngineError) -> T {
        do { return try body() } catch let error as ReminderStoreError { throw .store(error) } catch {
            throw .internal("\(error)")
        }
    }

    /// Up to `limit` waiting changes, oldest first, as the requests to make: a body to PUT
    /// (created when the server has no etag for it), or a DELETE for an item removed here.
    func pending(limit: Int, now: Int64) throws(EngineError) -> [SyncPendingReply.Change] {
        guard limit > 0 else { throw EngineError.invalidParameter("limit", "expected 1 or more") }
        let rows = try stored { try store.pendingSync(limit: limit) }
        guard !rows.isEmpty else {
            link.nothingWaiting()
            return []
        }
        guard let collection = try stored({ try store.syncCollection() }) else {
            throw EngineError.syncFailed("no task list yet: call SyncBegin first")
        }
        let context = syncContext(now: now)
        return rows.compactMap { row in
            let object = row.object
            if row.removed {
                guard let href = object.href else { return nil }
                return .init(uid: object.uid, href: href, etag: object.etag, body: nil, seq: row.seq)
            }
            guard let item = items[object.itemId] else { return nil }
            let href = object.href ?? SyncEndpoint.syncHref(collection: collection, uid: object.uid)
            return .init(
                uid: object.uid, href: href, etag: object.etag,
                body: syncBody(of: item, object: object, href: href, context: context), seq: row.seq)
        }
    }

    /// Sync's state; times in the daemon's zone, conflicts of the last 30 days.
    func syncStatus(now: Int64) throws(EngineError) -> SyncStatusReply {
        let figures = try stored { try store.syncStatus(conflictsSince: now - 30 * 86_400) }
        let time = { (instant: Int64?) in instant.map { Timestamp.format($0, in: self.zone) } }
        return SyncStatusReply(
            account: figures.account, collection: figures.collection, lastSync: time(figures.lastSync),
            lastAttempt: time(figures.lastAttempt), error: figures.error, waiting: Int64(figures.waiting),
            waitingSince: time(figures.waitingSince), conflicts: Int64(figures.conflicts), connected: connected)
    }
}
