import ReminderCore
import ReminderStore

/// The engine as the delivery controller sees it (`DeliveryCore`): what delivery may ask of the core.
extension ReminderEngine: DeliveryCore {
    func noteShown(_ shown: [ShownReminder], notificationId: UInt32, now: Int64) throws(ReminderStoreError) {
        defer { for reminder in shown { index.recordShown(reminder) } }
        try store.recordShown(shown, notificationId: Int64(notificationId), at: now)
    }

    // A pop-up's buttons call the commands themselves (`markDone`, `snooze`, `undo`).

    func noteLocalChange(now: Int64) { sync.noteLocalChange(now: now) }

    func armPauseEnd(at instant: Int64?) { schedule.armPauseEnd(at: instant) }
}
