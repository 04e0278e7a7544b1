import ReminderCore
import ReminderProtocol
import ReminderStore
import ReminderSyncModel

/// What one `SyncPulled` changes, for the engine to apply (`SyncCore.applyPulledChanges`): the
/// batch the store writes — with the listing's token — in one transaction, and what changes in
/// memory only after that succeeded.
struct PulledChanges {
    var batch = SyncBatch()
    /// Pop-ups to close: an occurrence's (done elsewhere), or all of an item's (due nil).
    var closing: [(itemId: String, due: Int64?)] = []
    /// Items acknowledged on another device later than here, and when: their reminders fired by
    /// then are closed and not shown.
    var acknowledged: [String: Int64] = [:]
    var notices: [NotificationRequest] = []
    /// Items this batch changed: rescheduled afterwards.
    var touched: Set<String> = []
}

/// What one `SyncPulled` does, gathered first: the changes, and what the endpoint keeps while it
/// reads the batch's resources and for its reply.
struct SyncPullPlan {
    var changes = PulledChanges()
    var applied = 0
    var conflicts = 0
    /// Resources not applied, each with why (logged, and in the reply for reminderd-sync's report).
    var skipped: [SyncPulledReply.Skipped] = []
    /// Items a resource of this batch was applied to, with the record merged: a completed copy
    /// read after its item's resource builds on it.
    var merged: [String: SyncRecord] = [:]
    /// Ids new items took in this batch, and the uids new here it applied.
    var taken: Set<String> = []
    var newUIDs: Set<String> = []
    /// Loaded once, when a resource with an unknown uid first needs them.
    var known: [CompletedCopy.Known]?
    var unpushed: [String]?
}
