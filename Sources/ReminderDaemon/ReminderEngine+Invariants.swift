import Dispatch

extension ReminderEngine {
    /// How the engine's invariants are broken: empty when they hold. Each part's own (`ItemIndex`,
    /// `FireSchedule`, `FireOutbox`), and the one across two: a fire is in exactly one place, so
    /// one still on the wheel is in none of the outbox's. O(items + fires): the tests call it after
    /// every step; the daemon does not.
    func checkInvariant() -> [String] {
        dispatchPrecondition(condition: .onQueue(queue))
        var broken = index.checkInvariant() + schedule.checkInvariant() + outbox.checkInvariant()
        var scheduled = Set<FireKey>()
        schedule.forEach(dueBy: .max - 1) { event, _ in
            guard case .fire(let itemId, let occurrence, let fireAts, _, _) = event else { return }
            for fireAt in fireAts { scheduled.insert(FireKey(itemId: itemId, due: occurrence.due, fireAt: fireAt)) }
        }
        outbox.forEachFire { key, place in
            if scheduled.contains(key) {
                broken.append("\(key.itemId) at \(key.fireAt) is both scheduled and \(place)")
            }
        }
        return broken
    }
}
