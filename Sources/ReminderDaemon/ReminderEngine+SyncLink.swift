import ReminderJSON
import ReminderProtocol

/// reminderd-sync's wake-ups (docs/SYNC.md): `SyncWait` and `SyncNow` are parked calls
/// (`ParkedCall`) kept by `syncLink`, answered on this queue when there is work — local changes
/// (2 s after the latest), `SyncNow`, or fires about to be shown (a refresh, which holds them
/// ≤ 2 s so a Done made on another device first is not shown here).
extension ReminderEngine {
    /// A reminderd-sync is running (`SyncStatus.connected`): true while a `SyncWait` is parked or
    /// a pass is under way (`SyncBegin` came, its `SyncReport` not yet, and its connection is
    /// open), so `status` does not call it stopped in the middle of a pass.
    var syncConnected: Bool { syncLink.connected }

    /// The methods after which, when they succeed, reminderd-sync has changes to push. The
    /// `Sync…` methods are not among them: what they change came from the server.
    static let itemChangingMethods: Set<ReminderMethod> = [.add, .edit, .remove, .done, .undo, .snooze, .importItems]

    /// `SyncWait`: answered at once when there is work, else parked on `caller` until there is
    /// (nil).
    func syncWait(caller: any CallParking, now: Int64) -> [String: JSONValue]? {
        if let reason = syncLink.workWaiting(now: now) { return SyncWaitReply(reason: reason).parameters }
        syncLink.park(kept(caller.park()))
        publish()  // a change waiting for a waiter now has its deadline
        return nil
    }

    /// `SyncNow`: tells the waiting reminderd-sync "now" and parks on `caller` until a pass begun
    /// after it is reported (`SyncLink.reported`); refused in words when no reminderd-sync is there.
    func syncNow(caller: any CallParking, now: Int64) throws {
        guard syncLink.reachable(now: now) else {
            throw CommandError(
                error: syncFailure("reminderd-sync is not running (start it: systemctl --user enable --now reminderd-sync)"))
        }
        answer(syncLink.now(kept(caller.park()), at: now), .success(SyncWaitReply(reason: .now).parameters))
        publish()
    }

    /// A local change of an item's stored state (a command, a pop-up's button, a dismiss): told
    /// to reminderd-sync once it settled. The caller publishes the new deadline.
    func noteLocalChange(now: Int64) { syncLink.changed(at: now) }

    /// After `SyncBegin` from `caller`: a pass is under way until its report or until `caller`'s
    /// connection closes; its report answers the `SyncNow` calls made so far.
    /// After `SyncPulled` or `SyncReport`: the fires held for a refresh go out (those the pull
    /// marked done are not shown), and a report answers the `SyncNow` calls of its pass.
    func syncHeard(_ request: ReminderRequest, caller: any CallParking, now: Int64) {
        switch request {
        case .syncBegin:
            answer(syncLink.begun(on: kept(caller.watch())).map { [$0] } ?? [], .success([:]))
            return
        case .syncPulled: break
        case .syncReport(let error):
            let (answered, pass) = syncLink.reported()
            answer(answered, error.map { .failure(syncFailure($0)) } ?? .success([:]))
            pass?.answer(.success([:]))  // writes nothing: lets the watch of its connection go
        default: return
        }
        syncLink.endRefresh()
        releaseRefresh(now: now)
    }

    /// Runs the link's deadlines that passed (from `advance`).
    func syncDeadlines(now: Int64) {
        let (changed, timedOut, refreshOver) = syncLink.due(now: now)
        answer(changed, .success(SyncWaitReply(reason: .changed).parameters))
        answer(timedOut, .failure(syncFailure("reminderd-sync did not finish a pass within 2 minutes")))
        if refreshOver { releaseRefresh(now: now) }
    }

    /// Fires come due: with a reminderd-sync waiting, it is asked to pull their items first and
    /// they are held (`FireOutbox`'s `.refreshing`) until the pull comes or 2 s pass. Returns
    /// what goes out now: everything, when no reminderd-sync waits.
    func heldForRefresh(_ due: [ScheduledEvent], now: Int64) -> [ScheduledEvent] {
        guard !due.isEmpty, syncLink.hasWaiter else { return due }
        var itemIds: [String] = []
        for event in due where !itemIds.contains(event.itemId) { itemIds.append(event.itemId) }
        outbox.keep(due, in: .refreshing)
        let uids = syncUIDs(of: itemIds)
        answer(syncLink.refresh(at: now), .success(SyncWaitReply(reason: .refresh, uids: uids).parameters))
        return []
    }

    /// Shows the fires held for a refresh that are still due.
    func releaseRefresh(now: Int64) {
        deliver(outbox.take(.refreshing).filter { stillDue($0, now: now) }, now: now)
    }

    /// `call`, told to forget itself here when its connection closes.
    private func kept(_ call: ParkedCall) -> ParkedCall {
        call.dropped = { [weak self, weak call] in
            guard let self, let call else { return }
            self.syncLink.forget(call)
            self.publish()
        }
        return call
    }

    /// Answers calls the link let go of (never while it is being changed: see `SyncLink`); a
    /// watch is let go, nothing written.
    private func answer(_ calls: [ParkedCall], _ reply: VarlinkReply) {
        for call in calls { call.answer(reply) }
    }

    private func syncFailure(_ reason: String) -> VarlinkError {
        VarlinkError(name: ReminderInterface.ErrorName.syncFailed, parameters: ["reason": .string(reason)])
    }
}
