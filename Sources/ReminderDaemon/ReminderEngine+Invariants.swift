import Dispatch

extension ReminderEngine {
    /// How the engine's invariants are broken: empty when they hold. Each part's own (`ItemIndex`,
    /// `FireSchedule`, the sync endpoint's `SyncLink`), and delivery's, which it checks against
    /// the wheel and the link (`DeliveryController.checkInvariant`: a fire is in exactly one
    /// place; fires held for a refresh have its end to go out at). O(items + fires): the tests
    /// call it after every step; the daemon does not.
    func checkInvariant() -> [String] {
        dispatchPrecondition(condition: .onQueue(queue))
        let link = sync.link
        return index.checkInvariant() + schedule.checkInvariant() + link.checkInvariant()
            + delivery.checkInvariant(against: schedule, refreshEnds: link.refreshEnds)
    }
}
