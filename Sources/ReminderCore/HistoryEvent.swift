/// What one line of history records. Stored (and exported) as its raw value, so a case never
/// changes its name; the engine writes them and `reminderctl history` shows them.
public enum HistoryEvent: String, Sendable, Hashable, CaseIterable {
    case added, edited, removed
    /// A reminder the notification server accepted.
    case fired
    /// A pop-up open when its server went away, shown again on the next one.
    case reshown
    case done, undone, snoozed
    /// A pop-up the user closed without a button.
    case dismissed
    /// An occurrence that passed while reminderd was away or the machine slept, reminders unshown.
    case missed
    /// A reminder kept back by a pause or the desktop's do-not-disturb.
    case held
    /// An occurrence whose due moment came without Done.
    case expired
    /// A stored item set aside as unreadable.
    case quarantined
    // What sync brought from another device (a phone, another computer), and what it decided.
    case addedElsewhere = "added elsewhere"
    case editedElsewhere = "edited elsewhere"
    case removedElsewhere = "removed elsewhere"
    case doneElsewhere = "done elsewhere"
    case undoneElsewhere = "undone elsewhere"
    case snoozedElsewhere = "snoozed elsewhere"
    /// A reminder closed here because another device acknowledged the item after it fired.
    case dismissedElsewhere = "dismissed elsewhere"
    /// Both sides changed one field: the other device's value was taken, this one's is in the reason.
    case conflict
    /// Removed on one side while changed on the other: kept (or brought back), and why.
    case kept
}
