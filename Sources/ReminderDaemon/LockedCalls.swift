import Dispatch
import ReminderJSON
import ReminderProtocol
import ReminderStore

/// The varlink calls, the engine's own writes and the pop-up events that found the store locked
/// by another program (a `sqlite3` shell in a transaction, a backup tool), put aside and tried
/// again from the engine's queue. Meanwhile the queue serves everything else — queries, timers,
/// pop-ups — instead of sitting in SQLite's busy handler for up to 10 s. A call is refused in
/// words, and an event handled with writes that wait only a moment, once `lockWait` has passed
/// since it came. Trying a whole call again is safe: a command changes memory only after its one
/// store write committed, and a write the lock refused committed nothing.
///
/// A write put aside is one whose change memory has already (a reminder shown, an occurrence
/// passed, a dismiss, the time last seen, a prune): it is kept for as long as the lock is held,
/// never dropped, and only a failure other than the lock (the disk's) is logged and given up.
/// Should one never land, the next start sees what it sees after a crash (the occurrence is past
/// its due by the clock, an unrecorded fire is shown again late), so memory being ahead of the
/// store until then shows nothing false.
///
/// Order is kept: a call from a connection that has one put aside waits behind it (a later call
/// must not act before an earlier one of the same client, nor its reply overtake), and so does
/// a change from any connection, a timer's write or an event, so they are stored in the order
/// they came.
/// Queries from other connections are answered at once.
final class LockedCalls {  // confined to the engine's queue, as the engine is
    enum Work {
        case call(Waiting)
        /// What is logged, with the error, should the write fail other than by the lock.
        case write(failure: String, () throws(ReminderStoreError) -> Void)
        /// A pop-up's button, close or menu click, handled once the lock is let go.
        case event(deadline: DispatchTime, () -> Void)
    }

    struct Waiting {
        let method: ReminderMethod
        let parameters: [String: JSONValue]
        let caller: any CallParking
        let call: ParkedCall
        /// When it is refused if the lock is still held.
        let deadline: DispatchTime
    }

    /// As long as opening the store waits for another process's lock.
    static let lockWait = DispatchTimeInterval.seconds(10)
    /// How often the calls put aside are tried again.
    static let retryInterval = DispatchTimeInterval.milliseconds(50)

    /// Oldest first.
    var waiting: [Work] = []
    var retryArmed = false

    /// A call that must wait behind those put aside, without trying the store itself.
    func mustWait(_ method: ReminderMethod, connection: UInt64?) -> Bool {
        guard !waiting.isEmpty else { return false }
        if !method.isQuery { return true }
        guard let connection else { return false }
        return waiting.contains { work in
            guard case .call(let waiting) = work else { return false }
            return waiting.caller.connectionID == connection && waiting.call.isOpen
        }
    }

    /// Whether a call or an event waits, not only writes: an event that writes only through
    /// `writeUnlessLocked` may then be handled at once, its writes queued behind those.
    var holdsCallsOrEvents: Bool {
        waiting.contains { work in
            if case .write = work { return false }
            return true
        }
    }
}

extension ReminderEngine {
    /// Parks the call on `caller` (keeping its place in the connection's replies) and tries it
    /// again shortly.
    func putAside(_ method: ReminderMethod, _ parameters: [String: JSONValue], caller: any CallParking) {
        let call = caller.park(on: queue)
        lockedCalls.waiting.append(
            .call(
                LockedCalls.Waiting(
                    method: method, parameters: parameters, caller: caller, call: call,
                    deadline: .now() + LockedCalls.lockWait)))
        armLockRetry()
    }

    /// Makes `write` now, or after the work put aside when another program holds the store's
    /// lock; `failure` is logged with the error should it fail.
    func writeUnlessLocked(_ failure: String, _ write: @escaping () throws(ReminderStoreError) -> Void) {
        if lockedCalls.waiting.isEmpty {
            do throws(ReminderStoreError) {
                try store.failingFastWhenLocked(write)
                return
            } catch {
                guard error.isLocked else {
                    logger.error("\(failure): \(error)")
                    return
                }
            }
        }
        lockedCalls.waiting.append(.write(failure: failure, write))
        armLockRetry()
    }

    /// Runs `body` (a pop-up closed: it writes only through `writeUnlessLocked`) now unless a call
    /// or an event came before it and waits for the lock; then after them, in order.
    func afterEarlierEvents(_ body: @escaping () -> Void) {
        guard lockedCalls.holdsCallsOrEvents else { return body() }
        lockedCalls.waiting.append(.event(deadline: .now() + LockedCalls.lockWait, body))
        armLockRetry()
    }

    /// At stop: the writes still put aside and then the time last seen, in order, waiting for the
    /// lock as long as opening the store does (10 s); once one finds it still held, those after it
    /// are not tried (a later one stored without an earlier would break their order: `lastSeen`
    /// past a pass not stored would keep the next start from working that pass out). What is not
    /// stored is logged (the next start sees it as after a crash, `LockedCalls`).
    func writeBeforeStop() {
        dispatchPrecondition(condition: .onQueue(queue))
        var writes: [(failure: String, write: () throws(ReminderStoreError) -> Void)] = []
        for case .write(let failure, let write) in lockedCalls.waiting { writes.append((failure, write)) }
        lockedCalls.waiting.removeAll()
        let seen = lastSeen(clock())
        writes.append(
            ("cannot record the time", { [store] () throws(ReminderStoreError) in try store.saveLastSeen(seen) }))
        var stillLocked = false
        for (failure, write) in writes {
            guard !stillLocked else {
                logger.error("\(failure) before stopping: the store is still locked by another program")
                continue
            }
            do throws(ReminderStoreError) { try write() } catch {
                stillLocked = error.isLocked
                logger.error("\(failure) before stopping: \(error)")
            }
        }
    }

    /// Runs `body` (a button, a close or a menu click) now when the store is free and nothing
    /// waits for it, else after the work put aside once the lock is let go; 10 s on, it runs
    /// with writes that wait only a moment, so a change it makes is refused in words at once.
    /// Put aside, it is logged (`what` names it): nothing else shows that the press arrived.
    func whenStoreUnlocked(_ what: String, _ body: @escaping () -> Void) {
        if lockedCalls.waiting.isEmpty, !store.isLockedByAnother() {
            body()
            return
        }
        logger.info("\(what) waits: another program holds the store's lock; handled once it is let go")
        lockedCalls.waiting.append(.event(deadline: .now() + LockedCalls.lockWait, body))
        armLockRetry()
    }

    private func armLockRetry() {
        guard !lockedCalls.retryArmed, !lockedCalls.waiting.isEmpty else { return }
        lockedCalls.retryArmed = true
        queue.asyncAfter(deadline: .now() + LockedCalls.retryInterval) { [weak self] in self?.retryLockedCalls() }
    }

    /// Tries the work put aside, oldest first, until one still finds the lock held (it and
    /// those behind it wait for the next try, but a call or an event whose time is up behind a
    /// write is settled now); a call whose time is up is refused in words, a write's failure
    /// other than the lock logged. Once work went through, the deadlines are published: a write
    /// may have told reminderd-sync of a change (a dismiss, `noteLocalChange`), whose settling
    /// time the timer must wake for — else a parked `SyncWait` would hear of it only at the next
    /// unrelated wake-up, minutes or hours on.
    private func retryLockedCalls() {
        dispatchPrecondition(condition: .onQueue(queue))
        lockedCalls.retryArmed = false
        var done = false
        defer { if done { publish() } }
        while let work = lockedCalls.waiting.first {
            lockedCalls.waiting.removeFirst()
            let stillLocked: Bool
            switch work {
            case .call(let waiting): stillLocked = retry(waiting)
            case .write(let failure, let write):
                do throws(ReminderStoreError) {
                    try store.failingFastWhenLocked(write)
                    stillLocked = false
                } catch {
                    stillLocked = error.isLocked
                    if !stillLocked { logger.error("\(failure): \(error)") }
                }
            case .event(let deadline, let body):
                if !store.isLockedByAnother() {
                    body()
                    stillLocked = false
                } else if DispatchTime.now() < deadline {
                    stillLocked = true
                } else {
                    store.failingFastWhenLocked(body)
                    stillLocked = false
                }
            }
            if stillLocked {
                lockedCalls.waiting.insert(work, at: 0)
                settleOverdue()
                armLockRetry()
                return
            }
            done = true
        }
    }

    /// Behind a write that waits as long as the lock is held: the calls refused and the events
    /// handled (with writes that wait only a moment) whose `lockWait` has passed, as at the head.
    private func settleOverdue() {
        let now = DispatchTime.now()
        var index = 1
        while index < lockedCalls.waiting.count {
            switch lockedCalls.waiting[index] {
            case .call(let waiting) where now >= waiting.deadline:
                lockedCalls.waiting.remove(at: index)
                _ = retry(waiting)
            case .event(let deadline, let body) where now >= deadline:
                lockedCalls.waiting.remove(at: index)
                store.failingFastWhenLocked(body)
            default:
                index += 1
            }
        }
    }

    /// Tries a call put aside once more: true when it found the lock still held and has time left.
    private func retry(_ waiting: LockedCalls.Waiting) -> Bool {
        // Its connection closed: nobody waits for it, and nothing is done for nobody.
        guard waiting.call.isOpen else { return false }
        let before = store.commitCount
        switch store.failingFastWhenLocked({ attempt(waiting.method, waiting.parameters, caller: waiting.caller) }) {
        case .done(let reply?):
            waiting.call.answer(reply, acknowledgesChange: store.commitCount > before)
        case .done(nil):
            // The method parked the call itself (`SyncWait`, `SyncNow`): it answers it.
            waiting.call.drop()
        case .locked(let error):
            guard DispatchTime.now() < waiting.deadline else {
                waiting.call.answer(.failure(varlinkError(error, now: clock())))
                return false
            }
            return true
        }
        return false
    }
}

extension ReminderStoreError {
    /// Another program held the store's lock: nothing was written.
    var isLocked: Bool {
        if case .locked = self { return true }
        return false
    }
}
