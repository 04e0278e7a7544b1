import CivilTime
import Dispatch
import ReminderCore
import ReminderPlatform
import ReminderStore

/// The zone and settings the engine plans in: the stored zone adopted at start, stored instants
/// moved with a change of zone, and a reload's new settings.
extension ReminderEngine {
    /// At start: when the configured zone is not the one the store's instants are wall times of
    /// (`timeZone` was edited, or the system zone changed, while reminderd was stopped), moves
    /// them to it first — else a Done would be lost and a shown reminder shown again.
    func adoptZoneAtStart() throws(ReminderStoreError) {
        guard let stored = try store.storedZone() else {
            try store.saveZone(zone.identifier)
            return
        }
        guard stored != zone.identifier else { return }
        guard let old = try? ZoneDatabase.shared.zone(named: stored) else {
            logger.warning(
                "the stored reminders were kept in the zone \(stored), which cannot be read now; done and shown reminders keep their instants in \(zone.identifier)"
            )
            try store.saveZone(zone.identifier)
            return
        }
        try moveStoredOccurrences(from: old)
    }

    /// After a reload or a change of the system zone to `old`'s successor `zone`: moves what is
    /// stored of every occurrence to the same wall time in `zone`, then reads it back into the
    /// index. The engine is rescheduled by the caller.
    func moveStoredOccurrences(from old: TimeZoneRules) throws(ReminderStoreError) {
        let new = zone
        let move = { (due: Int64) in new.resolve(old.localDateTime(at: due)).instant }
        try store.moveOccurrences(toZone: new.identifier, move)
        delivery.moveOccurrences(move)
        index = ItemIndex(
            items: order.compactMap { items[$0] }, quarantined: Array(index.quarantined.values),
            records: try store.occurrences(), fires: try store.fires(), acknowledged: index.acknowledged)
        logger.info("time zone \(old.identifier) → \(new.identifier): done, snoozed and shown reminders moved with it")
    }

    /// New settings (after a reload): every item is rescheduled under them.
    func apply(_ configuration: Configuration, zone: TimeZoneRules) {
        dispatchPrecondition(condition: .onQueue(queue))
        self.configuration = configuration
        let old = self.zone
        self.zone = zone
        self.rules = FireTimeRules(zone: zone, configuration: configuration)
        if old != zone {
            do { try moveStoredOccurrences(from: old) } catch {
                logger.error("cannot move the stored reminders to the zone \(zone.identifier): \(error)")
            }
        }
        let now = clock()
        let before = now - Int64(configuration.historyDays) * 86_400
        writeUnlessLocked("cannot prune history") { [store] () throws(ReminderStoreError) in
            try store.pruneHistory(before: before)
        }
        for id in order { reschedule(id, now: now) }
        publish()
    }
}
