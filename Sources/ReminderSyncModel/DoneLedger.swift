import CivilTime
import ReminderCore

/// One done occurrence: `X-REMINDERD-DONE:<occurrence due>/<done at>/<amount>`, such as
/// `20261130T235900/20261124T140000Z/15` (the amount may be empty).
public struct DoneEntry: Hashable, Sendable {
    /// The occurrence's due time on the item's wall clock: the ledger's key.
    public var occurrence: LocalDateTime
    /// Unix seconds.
    public var doneAt: Int64
    public var amount: Money?

    public init(occurrence: LocalDateTime, doneAt: Int64, amount: Money? = nil) {
        self.occurrence = occurrence
        self.doneAt = doneAt
        self.amount = amount
    }
}

/// The done occurrences of one item, one entry per occurrence, oldest first. Keyed by
/// occurrence, Done is idempotent (two offline Dones of one occurrence are one entry) and Undo
/// is the removal of the entry; a merge is a 3-way set merge on the keys.
public struct DoneLedger: Hashable, Sendable {
    /// How many entries a resource keeps: two years of monthly credits.
    public static let kept = 24

    public private(set) var entries: [DoneEntry]

    public init(_ entries: [DoneEntry] = []) {
        self.entries = []
        for entry in entries { record(entry) }
    }

    public func contains(_ occurrence: LocalDateTime) -> Bool { entry(for: occurrence) != nil }

    public func entry(for occurrence: LocalDateTime) -> DoneEntry? { entries.first { $0.occurrence == occurrence } }

    /// Adds `entry` unless its occurrence is done already (the first Done stands); keeps the
    /// newest `kept` occurrences.
    public mutating func record(_ entry: DoneEntry) {
        guard !contains(entry.occurrence) else { return }
        let index = entries.firstIndex { $0.occurrence > entry.occurrence } ?? entries.count
        entries.insert(entry, at: index)
        if entries.count > DoneLedger.kept { entries.removeFirst(entries.count - DoneLedger.kept) }
    }

    /// Undo: the occurrence is no longer done.
    public mutating func remove(_ occurrence: LocalDateTime) {
        entries.removeAll { $0.occurrence == occurrence }
    }

    /// The 3-way set merge, per occurrence: a side that changed the entry since `base` (added it,
    /// removed it by Undo, or did it again after an Undo) wins over one that did not. When both
    /// changed it, an entry beats an absence (nothing done is lost) and of two entries the later
    /// Done stands, so every replica picks the same one. (Not the earlier: that one may be the
    /// very entry a third device undid meanwhile, and keeping it would let that Undo remove a
    /// Done made after it.)
    public static func merge(base: DoneLedger, local: DoneLedger, remote: DoneLedger) -> DoneLedger {
        var merged = DoneLedger()
        var keys = Set<LocalDateTime>()
        for entry in base.entries + local.entries + remote.entries where keys.insert(entry.occurrence).inserted {
            let key = entry.occurrence
            // Absence is a side's value too (not done, or undone), so a nil entry takes part.
            let chosen = SyncMerge.pick(
                base: base.entry(for: key), local: local.entry(for: key), remote: remote.entry(for: key)
            ) { l, r in
                guard let r else { return false }
                guard let l else { return true }
                return (l.doneAt, l.amount?.tenThousandths ?? -1) < (r.doneAt, r.amount?.tenThousandths ?? -1)
            }
            if let chosen { merged.record(chosen) }
        }
        return merged
    }
}
