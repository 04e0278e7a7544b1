import ReminderStore

/// The engine as the sync endpoint sees it (`SyncCore`): what sync may ask of the core.
extension ReminderEngine: SyncCore {
    /// What a pull changed: written to the store in one transaction with the listing's token,
    /// then, once that committed, the same changes in memory, pop-ups closed, schedules and
    /// notices.
    func applyPulledChanges(_ changes: PulledChanges, now: Int64) throws(ReminderStoreError) {
        if !changes.batch.isEmpty { try store.applySync(changes.batch, at: now) }
        try store.recordAcknowledgedElsewhere(changes.acknowledged)
        for id in changes.batch.removed {
            dropFromMemory(id)
            reschedule(id, now: now)
        }
        if !changes.batch.added.isEmpty { index.add(changes.batch.added) }
        for item in changes.batch.updated { index.update(item) }
        for record in changes.batch.occurrences { index.record(record) }
        delivery.closedElsewhere(closing: changes.closing, acknowledged: changes.acknowledged, now: now)
        for (id, instant) in changes.acknowledged { index.acknowledge(id, at: instant) }  // repeats stop, as stored
        for id in changes.touched where items[id] != nil { reschedule(id, now: now) }
        for notice in changes.notices { delivery.showNotice(notice) }
    }

    func hasReminder(of itemId: String, firedBy instant: Int64) -> Bool {
        delivery.hasReminder(of: itemId, firedBy: instant)
    }

    /// Shows the fires held for a refresh that are still due.
    func releaseRefresh(now: Int64) {
        delivery.releaseRefresh(now: now)
    }
}
