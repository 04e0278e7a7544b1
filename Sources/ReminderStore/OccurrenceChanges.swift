internal import GRDB

/// Changes to one occurrence's state that come with a history line: a snooze, a pass.
extension ReminderStore {
    /// Stores a snoozed occurrence (its `snoozedUntil` set) with its `snoozed` history line.
    public func recordSnooze(_ occurrence: OccurrenceRecord, history: HistoryRecord) throws(ReminderStoreError) {
        try recordOccurrences([(occurrence, history)])
    }

    /// Stores occurrences that passed without Done (`passedAt` set), each with its history line
    /// (`expired`, or `missed` when their reminders were never shown), in one transaction.
    public func recordPassed(_ passes: [(occurrence: OccurrenceRecord, history: HistoryRecord)])
        throws(ReminderStoreError)
    {
        try recordOccurrences(passes)
    }

    private func recordOccurrences(_ changes: [(occurrence: OccurrenceRecord, history: HistoryRecord)])
        throws(ReminderStoreError)
    {
        try write { db in
            for change in changes {
                try change.occurrence.save(db)
                try ReminderStore.appendHistory(change.history, db)
            }
        }
    }
}
