/// Changes to one occurrence's state that come with a history line: a snooze, a dismiss, a pass.
extension ReminderStore {
    /// Stores a snoozed occurrence (its `snoozedUntil` set) with its `snoozed` history line.
    /// A snooze is synced (other clients show it and its acknowledgement), so the item waits to
    /// be pushed.
    public func recordSnooze(_ occurrence: OccurrenceRecord, history: HistoryRecord) throws(ReminderStoreError) {
        try recordOccurrences([(occurrence, history)], changing: true)
    }

    /// A pop-up closed without a button (`dismissed` in `history`): an acknowledgement other
    /// devices hear of (they close the same reminder), so the item waits to be pushed with it.
    public func recordDismiss(_ history: HistoryRecord) throws(ReminderStoreError) {
        try write { db in
            try ReminderStore.appendHistory(history, db)
            try ReminderStore.markAcknowledged(history.itemId, at: history.at, db)
        }
    }

    /// Stores occurrences that passed without Done (`passedAt` set), each with its history line
    /// (`expired`, or `missed` when their reminders were never shown), in one transaction.
    public func recordPassed(_ passes: [(occurrence: OccurrenceRecord, history: HistoryRecord)])
        throws(ReminderStoreError)
    {
        try recordOccurrences(passes, changing: false)
    }

    /// `changing`: the change is an acknowledgement the server hears of (a pass is not: every
    /// device works it out for itself).
    private func recordOccurrences(
        _ changes: [(occurrence: OccurrenceRecord, history: HistoryRecord)], changing: Bool
    ) throws(ReminderStoreError) {
        try write { db in
            for change in changes {
                try change.occurrence.save(db)
                if changing { try ReminderStore.markAcknowledged(change.occurrence.itemId, at: change.history.at, db) }
                try ReminderStore.appendHistory(change.history, db)
            }
        }
    }
}
