/// The engine as the sync endpoint sees it (`SyncCore`): what sync may ask of the core.
extension ReminderEngine: SyncCore {
    /// Shows the fires held for a refresh that are still due.
    func releaseRefresh(now: Int64) {
        deliver(outbox.take(.refreshing).filter { stillDue($0, now: now) }, now: now)
    }
}
