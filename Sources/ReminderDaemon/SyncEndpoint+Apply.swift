import CivilTime
import ReminderCore
import ReminderJSON
import ReminderStore
import ReminderSyncModel

/// A merged record applied to the item it came from, as changes for the pull's batch: the item,
/// its occurrences, history lines that say what another device did, and a pop-up per conflict
/// (the other device's value was kept; this one's is named, so nothing is lost silently).
extension SyncEndpoint {
    /// Applies `merged` over `local` (this device's record of item `id`); `announce` writes the
    /// history of each Done, Undo and snooze (not for an item new here).
    func applyPulled(
        _ merged: SyncRecord, over local: SyncRecord, itemId id: String, conflicts: [SyncConflict],
        announce: Bool = true, into plan: inout SyncPullPlan, context: SyncContext
    ) {
        let now = context.now
        var item = merged.item
        item.id = id
        item.createdAt = item.createdAt ?? local.item.createdAt ?? now
        var changed = false
        /// A Done or snooze elsewhere closed the item's pop-ups already.
        var closedElsewhere = false
        func line(_ event: HistoryEvent, _ reason: String) {
            plan.changes.batch.history.append(
                HistoryRecord(at: now, itemId: id, title: item.title, event: event, reason: reason))
        }
        if announce, item != local.item {
            plan.changes.batch.updated.append(item)
            changed = true
            var fields = SyncEndpoint.changedFields(local.item, item)
            if case .rebuy = item.schedule, merged.ledger != local.ledger {
                // Its Done (or Undo) re-dated it: said as done (undone) elsewhere, not as an edit.
                fields.removeAll { $0 == "lastPurchased" }
            }
            if !fields.isEmpty { line(.editedElsewhere, fields.joined(separator: ", ")) }
        }
        var records = occurrences[id] ?? [:]
        func save(_ record: OccurrenceRecord) {
            records[record.due] = record
            plan.changes.batch.occurrences.append(record)
            changed = true
        }
        for entry in merged.ledger.entries where local.ledger.entry(for: entry.occurrence) != entry {
            let due = dueInstant(of: entry.occurrence)
            var record = records[due] ?? OccurrenceRecord(itemId: id, due: due)
            let wasDone = record.doneAt != nil
            record.doneAt = entry.doneAt
            save(record)
            if !wasDone, announce {
                line(.doneElsewhere, "for the occurrence due \(Timestamp.format(due, in: zone))")
                plan.changes.closing.append((id, due))
                closedElsewhere = true
                keepForUndo(entry, due: due, before: SyncEndpoint.beforeDone(item, here: local.item), into: &plan)
            }
        }
        // An entry that fell out of the ledger's kept window (the newest 24) was not undone.
        let window = merged.ledger.entries.count >= DoneLedger.kept ? merged.ledger.entries.first?.occurrence : nil
        for entry in local.ledger.entries where !merged.ledger.contains(entry.occurrence) {
            if let window, entry.occurrence < window { continue }
            let due = dueInstant(of: entry.occurrence)
            guard var record = records[due], record.doneAt != nil else { continue }
            record.doneAt = nil
            save(record)
            if announce { line(.undoneElsewhere, "for the occurrence due \(Timestamp.format(due, in: zone))") }
        }
        // The server holds one snooze, of the current occurrence (the first not done): after the
        // merge it is that occurrence's here, and no other occurrence not done keeps one. A snooze
        // left on another — of the next occurrence, made after a Done that an Undo then took back;
        // or of the current one, while a snooze elsewhere landed on the next as this one was done
        // — would remind on this device alone, and sync would never say so (nothing is pending).
        var snoozedDue: Int64?
        if let until = merged.alarms.snoozedUntil, until > now, !SyncEndpoint.snoozeEndedByDone(merged),
            let current = rules.firstOccurrence(of: item, dueAfter: now, where: {
                !merged.ledger.contains(zone.localDateTime(at: $0.due))
            }), until < current.due
        {
            snoozedDue = current.due
            var record = records[current.due] ?? OccurrenceRecord(itemId: id, due: current.due)
            if record.snoozedUntil != until {
                record.snoozedUntil = until
                save(record)
                // This device's own snooze, only moved to the current occurrence, is no news.
                if until != local.alarms.snoozedUntil {
                    if announce { line(.snoozedElsewhere, "until \(Timestamp.format(until, in: zone))") }
                    plan.changes.closing.append((id, nil))
                    closedElsewhere = true
                }
            }
        }
        for var record in records.values where record.doneAt == nil && record.due != snoozedDue {
            guard let until = record.snoozedUntil, until > now else { continue }
            record.snoozedUntil = nil
            save(record)
        }
        if announce, let acknowledged = merged.alarms.lastAcknowledged,
            acknowledged > local.alarms.lastAcknowledged ?? .min
        {
            // A dismiss elsewhere is said only here; a Done or snooze has its own line.
            plan.changes.acknowledged[id] = acknowledged
            if !closedElsewhere, core.hasReminder(of: id, firedBy: acknowledged) {
                let at = Timestamp.format(acknowledged, in: zone)
                line(.dismissedElsewhere, "acknowledged on another device at \(at)")
            }
        }
        for conflict in conflicts {
            let had = conflict.local.isEmpty ? "none" : "\"\(conflict.local)\""
            let kept = conflict.remote.isEmpty ? "none" : "\"\(conflict.remote)\""
            line(.conflict, "\(conflict.field) changed here and on another device: kept \(kept), this device had \(had)")
            plan.changes.notices.append(
                NotificationRequest(
                    summary: "\(item.title): changed on two devices",
                    body: "\(conflict.field): kept \(kept) from the other device; this device had \(had)",
                    urgency: .normal, category: "x-reminderd.sync", timeoutMilliseconds: 0))
        }
        plan.conflicts += conflicts.count
        if changed || !conflicts.isEmpty { plan.applied += announce ? 1 : 0 }
        plan.merged[id] = merged
        plan.changes.touched.insert(id)
    }

    /// Whether the record's snooze is older than its latest Done: a snooze is an acknowledgement
    /// (it sets `X-MOZ-LASTACK` with it), so one made after the Done has a later acknowledgement.
    /// An older one was of the occurrence done since (or an earlier one), left behind by a
    /// client that does not clear it; taken as new, it would remind of the next occurrence at
    /// its end. A Done acknowledges in its own second, so one in the same second is older too:
    /// reminderd writes a snooze made in that second after the Done one second later
    /// (`syncRecord`), so both devices keep it.
    static func snoozeEndedByDone(_ record: SyncRecord) -> Bool {
        guard let lastDone = record.ledger.entries.map(\.doneAt).max(),
            let acknowledged = record.alarms.lastAcknowledged
        else { return false }
        return acknowledged <= lastDone
    }

    /// Keeps what Undo needs of a Done made elsewhere, as a Done here would (`recordDone`): the
    /// item as it was `before`, the occurrence, and what the Done redeemed when its amount came
    /// with it. So a Done made on any device can be undone on any other.
    private func keepForUndo(_ entry: DoneEntry, due: Int64, before: Item, into plan: inout SyncPullPlan) {
        let id = before.id ?? ""
        plan.changes.batch.undoSteps.append(
            UndoStep(itemId: id, itemJSON: before.jsonText, due: due, doneAt: entry.doneAt))
        if let amount = entry.amount, amount > .zero, case .benefit(let benefit) = before.schedule {
            plan.changes.batch.redemptions.append(
                Redemption(itemId: id, card: benefit.card ?? "", at: entry.doneAt, amount: amount.description))
        }
    }

    /// The item as merged, but for what a Done changes in it (a benefit's used amount, a
    /// rebuy's purchase date), which is as it was `here`: undoing the Done takes back only that,
    /// not an edit that came with it.
    static func beforeDone(_ merged: Item, here: Item) -> Item {
        var before = merged
        switch (merged.schedule, here.schedule) {
        case (.benefit(var benefit), .benefit(let was)):
            (benefit.amountUsed, benefit.amountUsedPeriod) = (was.amountUsed, was.amountUsedPeriod)
            before.schedule = .benefit(benefit)
        case (.rebuy(var rebuy), .rebuy(let was)):
            rebuy.lastPurchased = was.lastPurchased
            before.schedule = .rebuy(rebuy)
        default: break
        }
        return before
    }

    /// The item's JSON fields that differ (its id and creation aside: not something a person edits).
    static func changedFields(_ before: Item, _ after: Item) -> [String] {
        guard case .object(let a) = before.json, case .object(let b) = after.json else { return [] }
        // A used amount's period goes with the amount, which names the change.
        return Set(a.keys).union(b.keys).filter {
            a[$0] != b[$0] && $0 != "id" && $0 != "createdAt" && $0 != "amountUsedPeriod"
        }.sorted()
    }
}
