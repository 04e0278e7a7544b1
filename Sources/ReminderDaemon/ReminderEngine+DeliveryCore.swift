import ReminderCore
import ReminderStore

/// The engine as the delivery controller sees it (`DeliveryCore`): what delivery may ask of the core.
extension ReminderEngine: DeliveryCore {
    func noteShown(_ shown: [ShownReminder], notificationId: UInt32, now: Int64) throws(ReminderStoreError) {
        defer { for reminder in shown { index.recordShown(reminder) } }
        try store.recordShown(shown, notificationId: Int64(notificationId), at: now)
    }

    // A pop-up's buttons: the same commands as a client's, their replies not needed.
    func doneFromButton(_ itemId: String, now: Int64) throws { _ = try markDone(itemId, amount: nil, now: now) }
    func snoozeFromButton(_ itemId: String, by duration: CalendarDuration, now: Int64) throws {
        _ = try snooze(itemId, duration, now: now)
    }
    func snoozeFromButton(_ itemId: String, until end: Int64, now: Int64) throws {
        _ = try snooze(itemId, until: end, now: now)
    }
    func undoFromButton(_ itemId: String, now: Int64) throws { _ = try undo(itemId, now: now) }

    func noteLocalChange(now: Int64) { sync.noteLocalChange(now: now) }

    func armPauseEnd(at instant: Int64?) { schedule.armPauseEnd(at: instant) }
}
