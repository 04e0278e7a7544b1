import Dispatch
import ReminderJSON
import ReminderProtocol
import ReminderStore

/// The varlink calls that found the store locked by another program (a `sqlite3` shell in a
/// transaction, a backup tool), put aside and tried again from the engine's queue until
/// `lockWait` has passed since each came, then refused in words. Meanwhile the queue serves
/// everything else — queries, timers, pop-up buttons — instead of sitting in SQLite's busy
/// handler for up to 10 s. Trying a whole call again is safe: a command changes memory only
/// after its one store write committed, and a write the lock refused committed nothing.
///
/// Order is kept: a call from a connection that has one put aside waits behind it (a later call
/// must not act before an earlier one of the same client, nor its reply overtake), and so does
/// a change from any connection, so changes are made in the order they came. Queries from other
/// connections are answered at once.
final class LockedCalls {  // confined to the engine's queue, as the engine is
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
    var waiting: [Waiting] = []
    var retryArmed = false

    /// A call that must wait behind those put aside, without trying the store itself.
    func mustWait(_ method: ReminderMethod, connection: UInt64?) -> Bool {
        guard !waiting.isEmpty else { return false }
        if !method.isQuery { return true }
        guard let connection else { return false }
        return waiting.contains { $0.caller.connectionID == connection && $0.call.isOpen }
    }
}

extension ReminderEngine {
    /// Parks the call on `caller` (keeping its place in the connection's replies) and tries it
    /// again shortly.
    func putAside(_ method: ReminderMethod, _ parameters: [String: JSONValue], caller: any CallParking) {
        let call = caller.park()
        lockedCalls.waiting.append(
            LockedCalls.Waiting(
                method: method, parameters: parameters, caller: caller, call: call,
                deadline: .now() + LockedCalls.lockWait))
        armLockRetry()
    }

    private func armLockRetry() {
        guard !lockedCalls.retryArmed, !lockedCalls.waiting.isEmpty else { return }
        lockedCalls.retryArmed = true
        queue.asyncAfter(deadline: .now() + LockedCalls.retryInterval) { [weak self] in self?.retryLockedCalls() }
    }

    /// Tries the calls put aside, oldest first, until one still finds the lock held (it and
    /// those behind it wait for the next try); one whose time is up is refused in words.
    private func retryLockedCalls() {
        dispatchPrecondition(condition: .onQueue(queue))
        lockedCalls.retryArmed = false
        while let first = lockedCalls.waiting.first {
            lockedCalls.waiting.removeFirst()
            // Its connection closed: nobody waits for it, and nothing is done for nobody.
            guard first.call.isOpen else { continue }
            let before = store.commitCount
            switch store.failingFastWhenLocked({ attempt(first.method, first.parameters, caller: first.caller) }) {
            case .done(let reply?):
                first.call.answer(reply, acknowledgesChange: store.commitCount > before)
            case .done(nil):
                // The method parked the call itself (`SyncWait`, `SyncNow`): it answers it.
                first.call.drop()
            case .locked(let error):
                guard DispatchTime.now() < first.deadline else {
                    first.call.answer(.failure(varlinkError(error, now: clock())))
                    continue
                }
                lockedCalls.waiting.insert(first, at: 0)
                armLockRetry()
                return
            }
        }
    }
}
