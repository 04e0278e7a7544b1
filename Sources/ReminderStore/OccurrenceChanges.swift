internal import GRDB

/// Changes to one occurrence's state that come with a history line: a snooze, a pass.
extension ReminderStore {
    /// Stores a snoozed occurrence (its `snoozedUntil` set) with its `snoozed` history line.
    /// A snooze is synced (other clients show it), so the item waits to be pushed.
    public func recordSnooze(_ occurrence: OccurrenceRecord, history: HistoryRecord) throws(ReminderStoreError) {
        try recordOccurrences([(occurrence, history)], changing: true)
    }

    /// Stores occurrences that passed without Done (`passedAt` set), each with its history line
    /// (`expired`, or `missed` when their reminders were never shown), in one transaction.
    public func recordPassed(_ passes: [(occurrence: OccurrenceRecord, history: HistoryRecord)])
        throws(ReminderStoreError)
    {
        try recordOccurrences(passes, changing: false)
    }

    /// `changing`: the change is one the server hears of (a pass is not: every device works it
    /// out for itself).
    private func recordOccurrences(
        _ changes: [(occurrence: OccurrenceRecord, history: HistoryRecord)], changing: Bool
    ) throws(ReminderStoreError) {
        try write { db in
            for change in changes {
                try change.occurrence.save(db)
                if changing { try ReminderStore.markChanged(change.occurrence.itemId, at: change.history.at, db) }
                try ReminderStore.appendHistory(change.history, db)
            }
        }
    }
}
