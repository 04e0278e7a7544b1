import ReminderCore
import ReminderJSON
import ReminderProtocol

/// reminderd-sync's wake-ups (docs/SYNC.md): `SyncWait` and `SyncNow` are parked calls
/// (`ParkedCall`) kept by `link`, answered on the engine's queue when there is work — local changes
/// (2 s after the latest), `SyncNow`, or fires about to be shown (a refresh, which holds them
/// ≤ 2 s so a Done made on another device first is not shown here).
extension SyncEndpoint {
    /// A reminderd-sync is running (`SyncStatus.connected`): true while a `SyncWait` is parked or
    /// a pass is under way (`SyncBegin` came, its `SyncReport` not yet, and its connection is
    /// open), so `status` does not call it stopped in the middle of a pass.
    var connected: Bool { link.connected }

    /// `SyncWait`: answered at once when there is work, else parked on `caller` until there is
    /// (nil).
    func syncWait(caller: any CallParking, now: Int64) -> SyncWaitReply? {
        if let reason = link.workWaiting(now: now) { return SyncWaitReply(reason: reason) }
        link.park(kept(caller.park(on: state.queue)))
        core.publish()  // a change waiting for a waiter now has its deadline
        return nil
    }

    /// `SyncNow`: tells the waiting reminderd-sync "now" and parks on `caller` until a pass begun
    /// after it is reported (`SyncLink.reported`); refused in words when no reminderd-sync is there.
    func syncNow(caller: any CallParking, now: Int64) throws(EngineError) {
        guard link.reachable(now: now) else {
            throw EngineError.syncFailed(
                Wording(N_("reminderd-sync is not running (start it: systemctl --user enable --now reminderd-sync)")))
        }
        answer(link.now(kept(caller.park(on: state.queue)), at: now), .success(SyncWaitReply(reason: .now)))
        core.publish()
    }

    /// A local change of an item's stored state (a command, a pop-up's button, a dismiss): told
    /// to reminderd-sync once it settled. The caller publishes the new deadline.
    func noteLocalChange(now: Int64) { link.changed(at: now) }

    /// After `SyncBegin` from `caller`: a pass is under way until its report or until `caller`'s
    /// connection closes; its report answers the `SyncNow` calls made so far.
    func passBegun(by caller: any CallParking) {
        answer(link.begun(on: kept(caller.watch(on: state.queue))).map { [$0] } ?? [], .success(EmptyReply()))
    }

    /// After `SyncReport`: the report answers the `SyncNow` calls of its pass (`error`, nil when
    /// it succeeded), and the watch of the pass's connection goes.
    func passReported(error: String?) {
        let (answered, pass) = link.reported()
        let result: Result<any ReminderReply, EngineError> =
            if let error { .failure(.syncFailed(.verbatim(error))) } else { .success(EmptyReply()) }
        answer(answered, result)
        pass?.answer(.success(EmptyReply()))  // writes nothing: lets the watch of its connection go
    }

    /// After `SyncPulled` or `SyncReport`: the fires held for a refresh go out (those the pull
    /// marked done are not shown).
    func refreshOver(now: Int64) {
        link.endRefresh()
        core.releaseRefresh(now: now)
    }

    /// Runs the link's deadlines that passed (from `advance`).
    func deadlines(now: Int64) {
        let (changed, timedOut, refreshOver) = link.due(now: now)
        answer(changed, .success(SyncWaitReply(reason: .changed)))
        answer(timedOut, .failure(.syncFailed(Wording(N_("reminderd-sync did not finish a pass within 2 minutes")))))
        if refreshOver { core.releaseRefresh(now: now) }
    }

    /// The uids of `itemIds` (those that have one), for the pre-pop-up refresh.
    func uids(of itemIds: [String]) -> [String] {
        guard let uids = try? store.syncUIDs(of: itemIds) else { return [] }
        return itemIds.compactMap { uids[$0] }
    }

    /// Fires of `itemIds` come due: with a reminderd-sync waiting, it is asked to pull those
    /// items first, and the engine holds the fires (`FireOutbox`'s `.refreshing`) until the pull
    /// comes or 2 s pass (`SyncCore.releaseRefresh`). False when no reminderd-sync waits: they
    /// go out now.
    func refresh(_ itemIds: [String], now: Int64) -> Bool {
        guard !itemIds.isEmpty, link.hasWaiter else { return false }
        let uids = self.uids(of: itemIds)
        answer(link.refresh(at: now), .success(SyncWaitReply(reason: .refresh, uids: uids)))
        return true
    }

    /// `call`, told to forget itself here when its connection closes.
    private func kept(_ call: ParkedCall) -> ParkedCall {
        call.dropped = { [weak self, weak call] in
            guard let self, let call else { return }
            self.link.forget(call)
            self.core.publish()
        }
        return call
    }

    /// Answers calls the link let go of (never while it is being changed: see `SyncLink`); a
    /// watch is let go, nothing written.
    private func answer(_ calls: [ParkedCall], _ result: Result<any ReminderReply, EngineError>) {
        for call in calls { call.answer(result) }
    }
}
