import ReminderCore
import ReminderStore

/// The engine as the delivery controller sees it (`DeliveryCore`): what delivery may ask of the core.
extension ReminderEngine: DeliveryCore {
    func noteShown(_ shown: [ShownReminder], notificationId: UInt32, now: Int64) throws(ReminderStoreError) {
        defer {
            for reminder in shown { index.recordShown(reminder) }
            // An overdue rebuy reminds once: one waiting for a server that went out is that once,
            // so another planned meanwhile (its Done undone while it waited) goes off the wheel.
            for reminder in shown where reminder.fires.contains(where: { $0.lead == ReminderEngine.overdueLead }) {
                reschedule(reminder.itemId, now: now)
            }
        }
        try store.recordShown(shown, notificationId: Int64(notificationId), at: now)
    }

    // A pop-up's buttons call the commands themselves (`markDone`, `snooze`, `undo`).

    func noteLocalChange(now: Int64) { sync.noteLocalChange(now: now) }

    func armPauseEnd(at instant: Int64?) { schedule.armPauseEnd(at: instant) }
}
