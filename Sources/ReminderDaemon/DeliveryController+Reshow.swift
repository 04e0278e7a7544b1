import ReminderCore
import ReminderJSON
import ReminderStore

/// The pop-ups on screen when reminderd stops (issue 27, found by the desktop model test): a new
/// run does not know their server ids, so their buttons would do nothing, a Done from
/// `reminderctl` would leave them on screen and a later restart of the server would lose them.
/// Their reminders are stored with those to be shown again on the next server whenever either
/// changes; after a start, once a server is known, the old pop-ups are closed by id and their
/// reminders still due are shown again, once (history `reshown`), as on a new server. Closing
/// first keeps them off the screen twice whether or not the server is the one that showed them;
/// one the person closed while reminderd was stopped comes back (never lost, over never repeated).
extension DeliveryController {
    /// Stores the reminders to show again after a start when they changed since last stored
    /// (after each change the engine publishes): those on screen alone or grouped — but the one
    /// gone through in turn, which `persistTurn` keeps — and those to be shown again on the next
    /// server, with the ids of their pop-ups and of the Done confirmations offering Undo. A failure is logged: they are still shown while this run lasts,
    /// and the next change stores them again.
    func persistReshow() {
        let outbox = outbox
        var ids = state.value.closeAtStart
        var events = outbox.repost
        for (id, popUp) in outbox.onScreen.sorted(by: { $0.key < $1.key }) where id != outbox.turnOnScreen {
            ids.append(id)
            events.append(popUp.event)
        }
        for (id, group) in outbox.groupsOnScreen.sorted(by: { $0.key < $1.key }) {
            ids.append(id)
            events += group
        }
        // A Done's confirmation: its Undo would do nothing in the next run, so it is taken back too.
        ids += outbox.undoOffers.keys.sorted()
        let text =
            events.isEmpty && ids.isEmpty
            ? nil
            : String(
                decoding: JSONValue.object([
                    "close": .array(ids.map { .integer(Int64($0)) }),
                    "reminders": DeliveryController.remindersJSON(events),
                ]).serialized(), as: UTF8.self)
        guard text != state.value.storedReshow else { return }
        // As every write made for a pop-up: after the lock another program holds is let go, so
        // the engine's queue (reads, timers, buttons) does not wait on it (issue 27, case 11).
        core.writeUnlessLocked("cannot store the reminders on screen (a restart now would not show them again)") {
            [store, weak self] () throws(ReminderStoreError) in
            try store.saveReshow(text)
            self?.state.value.storedReshow = text
        }
    }

    /// At start: the reminders the previous run had on screen or to show again, those still due,
    /// to be shown again on the server (`handle(.serverAppeared)`), after their old pop-ups are closed.
    func restoreReshow(now: Int64) throws(ReminderStoreError) {
        guard let text = try store.savedReshow() else { return }
        state.value.storedReshow = text
        guard case .object(let fields)? = try? JSONValue.parse(Array(text.utf8), source: "reshow"),
            let events = DeliveryController.decodeReminders(fields["reminders"]),
            case .array(let ids)? = fields["close"]
        else {
            logger.error("the stored reminders on screen are unreadable and were dropped: \(text)")
            return
        }
        outbox.keep(events.filter { stillDue($0, now: now) }, in: .repost)
        state.value.closeAtStart = ids.compactMap { if case .integer(let id) = $0 { UInt32(exactly: id) } else { nil } }
    }

    /// Closes the pop-ups the previous run left on screen (a server is known now); their
    /// reminders are shown again with the others to be shown again.
    func closeLeftOnScreen() {
        for id in state.value.closeAtStart { notifier.close(id: id) }
        state.value.closeAtStart = []
    }
}
