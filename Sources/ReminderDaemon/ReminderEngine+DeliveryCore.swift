import ReminderCore
import ReminderStore

/// The engine as the delivery controller sees it (`DeliveryCore`): what delivery may ask of the core.
extension ReminderEngine: DeliveryCore {
    func noteShown(_ shown: [ShownReminder], notificationId: UInt32, now: Int64, failure: String) {
        // Stored later while another program holds the store's lock; on screen either way.
        writeUnlessLocked(failure) { [store] () throws(ReminderStoreError) in
            try store.recordShown(shown, notificationId: Int64(notificationId), at: now)
        }
        for reminder in shown { index.recordShown(reminder, at: now) }
        // An overdue rebuy reminds once: one waiting for a server that went out is that once,
        // so another planned meanwhile (its Done undone while it waited) goes off the wheel.
        // A reminder that repeats until acknowledged has its next repeat planned from now.
        for reminder in shown
        where reminder.fires.contains(where: { $0.lead == ReminderEngine.overdueLead })
            || items[reminder.itemId].flatMap({ RepeatRule.of($0, configuration) }) != nil
        {
            reschedule(reminder.itemId, now: now)
        }
    }

    /// A dismiss here, stored: the item's repeat stops (`RepeatRule`).
    func noteDismissed(_ itemId: String, at now: Int64) {
        index.acknowledge(itemId, at: now)
        reschedule(itemId, now: now)
    }

    // A pop-up's buttons call the commands themselves (`markDone`, `snooze`, `undo`).

    func noteLocalChange(now: Int64) { sync.noteLocalChange(now: now) }

    func armPauseEnd(at instant: Int64?) { schedule.armPauseEnd(at: instant) }
}
