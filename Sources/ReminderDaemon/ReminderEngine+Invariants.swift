import Dispatch

extension ReminderEngine {
    /// How the engine's invariants are broken: empty when they hold. Each part's own (`ItemIndex`,
    /// `FireSchedule`, `FireOutbox`, the sync endpoint's `SyncLink`), and those across two: a fire is in exactly one
    /// place, so one still on the wheel is in none of the outbox's; fires held for a refresh have
    /// the refresh's end to go out at. O(items + fires): the tests call it after
    /// every step; the daemon does not.
    func checkInvariant() -> [String] {
        dispatchPrecondition(condition: .onQueue(queue))
        let outbox = delivery.outbox
        var broken = index.checkInvariant() + schedule.checkInvariant() + outbox.checkInvariant()
        let link = sync.link
        broken += link.checkInvariant()
        if !outbox.refreshing.isEmpty && link.refreshEnds == nil {
            broken.append("fires are held for a refresh that has no end")
        }
        var scheduled = Set<FireKey>()
        schedule.forEach(dueBy: .max - 1) { event, _ in
            guard case .fire(let itemId, let occurrence, let fires, _, _) = event else { return }
            for fire in fires { scheduled.insert(FireKey(itemId: itemId, due: occurrence.due, fireAt: fire.at)) }
        }
        outbox.forEachFire { key, place in
            if scheduled.contains(key) {
                broken.append("\(key.itemId) at \(key.fireAt) is both scheduled and \(place)")
            }
        }
        return broken
    }
}
