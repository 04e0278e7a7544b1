import ICalendar
import ReminderCore
import ReminderProtocol
import ReminderStore
import ReminderSyncModel

extension SyncEndpoint {
    /// Applies the server's new or changed `resources` and `removed` hrefs: each is merged with
    /// the item here (3-way, against the body both last agreed on), and an item is left waiting
    /// only when the merged result differs from what the server holds.
    func pulled(_ resources: [SyncResource], removed: [String], token: String?, now: Int64) throws -> SyncPulledReply
    {
        let context = syncContext(now: now)
        var plan = SyncPullPlan()
        plan.changes.batch.token = token
        // Another app's task read before: its ETag goes (it may read as an item now, or be gone);
        // one still foreign is kept again below.
        let foreign = try stored { try store.foreignHrefs() }
        plan.changes.batch.notForeign = (resources.map(\.href) + removed).filter(foreign.contains)
        var later: [(SyncResource, Component, VTodoReader.Reading?)] = []
        for resource in resources {
            let calendar: Component
            do { calendar = try Component.parse(Array(resource.body.utf8)) } catch {
                try pullUnreadable(resource, reason: "\(error)", into: &plan, now: now)
                continue
            }
            let reading: VTodoReader.Reading
            do { reading = try VTodoReader.read(calendar, name: resource.href, context: context) } catch {
                if case .notAnItem = error { later.append((resource, calendar, nil)) } else {
                    try pullUnreadable(resource, reason: error.reason, into: &plan, now: now)
                }
                continue
            }
            if let object = try stored({ try store.syncObject(uid: reading.uid) }) {
                try pull(reading, of: resource, object: object, into: &plan, context: context)
            } else {
                later.append((resource, calendar, reading))
            }
        }
        // Resources of uids never seen here, after the known ones: an Apple completed copy
        // then builds on its item's merged record.
        for (resource, calendar, reading) in later {
            if try pullCompletedCopy(calendar, into: &plan, context: context) { continue }
            guard let reading else {
                try forgetTaskListTask(at: resource.href, into: &plan, now: now)
                noteForeignTask(resource.href)
                // Kept with its ETag: a full listing does not fetch it again while it is unchanged.
                if let etag = resource.etag {
                    plan.changes.batch.foreign.append(.init(href: resource.href, etag: etag))
                }
                continue
            }
            try pullNew(reading, of: resource, into: &plan, context: context)
        }
        for href in removed { try pullRemoval(href, into: &plan, now: now) }
        for skipped in plan.skipped
        where passNoted.insert("skipped\u{0}\(skipped.href)\u{0}\(skipped.reason)").inserted {
            logger.warning("sync: skipped \(skipped.href): \(skipped.reason)")
        }
        // A problem's history line found again within the pass (after a 412) is not recorded twice.
        let repeated = { (record: HistoryRecord) in
            [.kept, .conflict].contains(record.event) && self.passNoted.contains(SyncEndpoint.passKey(record))
        }
        plan.changes.batch.history.removeAll(where: repeated)
        try stored { try core.applyPulledChanges(plan.changes, now: now) }
        for record in plan.changes.batch.history where [.kept, .conflict].contains(record.event) {
            passNoted.insert(SyncEndpoint.passKey(record))
        }
        return SyncPulledReply(applied: Int64(plan.applied), conflicts: Int64(plan.conflicts), skipped: plan.skipped)
    }

    /// What identifies a history line within a pass: its item, event and reason.
    static func passKey(_ record: HistoryRecord) -> String {
        "history\u{0}\(record.itemId)\u{0}\(record.event.rawValue)\u{0}\(record.reason)"
    }

    /// A resource of an item known here: merged with it; or, for an item removed here whose
    /// DELETE waits, brought back when the server's copy changed since (SYNC.md: a local delete
    /// against a remote edit keeps the item).
    private func pull(
        _ reading: VTodoReader.Reading, of resource: SyncResource, object: SyncObject, into plan: inout SyncPullPlan,
        context: SyncContext
    ) throws {
        guard plan.merged[object.itemId] == nil else {
            let reason = "a second resource of item \(object.itemId), left for the next pass"
            plan.skipped.append(.init(href: resource.href, reason: reason))
            return
        }
        if let item = items[object.itemId] {
            merge(item, object: object, reading: reading, resource: resource, into: &plan, context: context)
            return
        }
        guard quarantined[object.itemId] == nil else { return }
        let base = readBase(object.body, href: resource.href, context: context).record
        if let base, SyncEndpoint.sameOnServer(base, reading.record) {
            // Unchanged there: the DELETE goes on, against the server's current etag.
            plan.changes.batch.objects.append(SyncObject(
                itemId: object.itemId, uid: object.uid, href: resource.href, etag: resource.etag, body: resource.body))
            return
        }
        add(
            reading, of: resource, id: object.itemId,
            event: (.kept, "removed here; brought back because it was changed on another device"), into: &plan,
            context: context)
    }

    /// A resource that does not read, at the href of an item known here (another client wrote
    /// a bad value into it): the item here wins, or it would wait behind the resource forever.
    /// The item's server state takes the resource's etag, so that the push is conditional on
    /// it (a newer good write is merged, not overwritten), and keeps the body last agreed on as
    /// the base it is written over. Any other unreadable resource is only skipped.
    private func pullUnreadable(_ resource: SyncResource, reason: String, into plan: inout SyncPullPlan, now: Int64)
        throws
    {
        guard let object = try stored({ try store.syncObject(href: resource.href) }),
            plan.merged[object.itemId] == nil, items[object.itemId] != nil || quarantined[object.itemId] == nil
        else {
            plan.skipped.append(.init(href: resource.href, reason: reason))
            return
        }
        let id = object.itemId
        plan.changes.batch.objects.append(
            SyncObject(itemId: id, uid: object.uid, href: resource.href, etag: resource.etag, body: object.body))
        guard let item = items[id] else {
            // Removed here: its DELETE goes on, against the current etag.
            plan.skipped.append(.init(href: resource.href, reason: "\(reason); item \(id) was removed here: deleted"))
            return
        }
        plan.changes.batch.history.append(
            HistoryRecord(
                at: now, itemId: id, title: item.title, event: .kept,
                reason: "the server's copy was unreadable (\(reason)); replaced with this device's"))
        settle(id, differs: true, into: &plan)
        plan.skipped.append(
            .init(href: resource.href, reason: "\(reason); item \(id) “\(item.title)” of this device replaces it"))
    }

    /// Another app's task reminded here that no longer reads as one (its DUE gone, a repeat
    /// added, `sync.otherTasks` off): it goes from here, and nothing goes to the server.
    private func forgetTaskListTask(at href: String, into plan: inout SyncPullPlan, now: Int64) throws {
        guard let object = try stored({ try store.syncObject(href: href) }), let item = items[object.itemId],
            item.isFromTaskList, plan.merged[object.itemId] == nil
        else { return }
        plan.merged[object.itemId] = SyncRecord(item: item)
        plan.changes.batch.removed.append(object.itemId)
        plan.changes.closing.append((object.itemId, nil))
        plan.changes.batch.history.append(
            HistoryRecord(
                at: now, itemId: object.itemId, title: item.title, event: .removedElsewhere,
                reason: "no longer a task with a due date that does not repeat"))
        plan.applied += 1
    }

    /// A task of another app is not an item and does not remind: said once in the journal, so
    /// that a person who made it on a phone can learn why (docs/SYNC-FORMAT.md).
    private func noteForeignTask(_ href: String) {
        guard foreignTasksNoted.insert(href).inserted else { return }
        logger.notice("sync: \(href) is another app's task (no X-REMINDERD-KIND), not a reminderd item: no reminders")
    }

    /// A resource whose uid is new here: a first join's catalog item that exists here too
    /// (the local one takes the server's uid and the two are merged), or a new item.
    private func pullNew(
        _ reading: VTodoReader.Reading, of resource: SyncResource, into plan: inout SyncPullPlan, context: SyncContext
    ) throws {
        guard plan.newUIDs.insert(reading.uid).inserted else {
            let reason = "UID \(reading.uid) is in another resource of this batch too"
            plan.skipped.append(.init(href: resource.href, reason: reason))
            return
        }
        if CatalogMatch.key(reading.record.item) != nil {
            if plan.unpushed == nil { plan.unpushed = try stored { try store.syncUnpushed() } }
            let candidates = (plan.unpushed ?? []).filter { items[$0] != nil && plan.merged[$0] == nil }
            if let pair = CatalogMatch.pairs(local: candidates.map { items[$0]! }, remote: [reading.record.item]).first {
                let id = candidates[pair.local]
                let here = try stored { try store.syncObject(itemId: id) }
                merge(
                    items[id]!, object: SyncObject(itemId: id, uid: reading.uid, acknowledgedAt: here?.acknowledgedAt),
                    reading: reading, resource: resource, into: &plan, context: context)
                return
            }
        }
        var id = reading.record.item.id ?? ""
        if !isFreeForSync(id, plan: plan) { id = core.newID(avoiding: plan.taken) }
        add(reading, of: resource, id: id, event: (.addedElsewhere, reading.record.item.kind.rawValue), into: &plan,
            context: context)
    }

    /// Whether a new item from the server can keep the id its device gave it.
    private func isFreeForSync(_ id: String, plan: SyncPullPlan) -> Bool {
        !id.isEmpty && !core.index.sortedIds.overlaps(id) && quarantined[id] == nil && !plan.taken.contains(id)
            && ((try? store.syncObject(itemId: id)) ?? nil) == nil
    }

    /// The 3-way merge of `item` with the server's `reading`, against the body both last agreed
    /// on (none on a first join: every difference is then a change on both sides).
    private func merge(
        _ item: Item, object: SyncObject, reading: VTodoReader.Reading, resource: SyncResource,
        into plan: inout SyncPullPlan, context: SyncContext
    ) {
        let id = object.itemId
        var base = readBase(object.body, href: resource.href, context: context).record
        var local = syncRecord(of: item, base: base, acknowledged: object.acknowledgedAt, context: context)
        var remote = reading.record
        remote.item.id = id
        base?.item.id = id
        if base == nil {
            // Never agreed (a first join): the earlier creation stands on both devices.
            let created = [local.item.createdAt, remote.item.createdAt].compactMap { $0 }.min()
            (local.item.createdAt, remote.item.createdAt) = (created, created)
        }
        let (merged, conflicts) = SyncMerge.merge(base: base, local: local, remote: remote, zone: zone)
        // Applied over the item as it is here (its creation may be the later one).
        var here = local
        here.item = item
        // `local` leaves out a used amount of a period that is over (`syncRecord`); so does
        // `here`, or the merge's leaving it out would read as an edit made elsewhere.
        (here.amountUsed, here.amountUsedPeriod) = (local.amountUsed, local.amountUsedPeriod)
        applyPulled(merged, over: here, itemId: id, conflicts: conflicts, into: &plan, context: context)
        if let moved = reading.movedDate {
            // The date of a repeating item is derived from its rules and ledger
            // (docs/SYNC-FORMAT.md): the move is not taken, and the write-back below puts the
            // derived date on every client at once.
            let derived = merged.currentOccurrence(in: context)?.dueDate ?? moved.derived
            plan.changes.batch.history.append(
                HistoryRecord(
                    at: context.now, itemId: id, title: merged.item.title, event: .kept,
                    reason: "date moved to \(moved.shown) on another device, which is not a date of its schedule; "
                        + "put back to \(derived) (edit the item here to change its dates)"))
        }
        plan.changes.batch.objects.append(
            SyncObject(itemId: id, uid: reading.uid, href: resource.href, etag: resource.etag, body: resource.body))
        if item.isFromTaskList {
            // Another app's task: written back only when a Done, Undo, snooze or dismissal here
            // changes what the server holds (its other fields are the app's, never pushed).
            let written = TaskListTask.write(merged, into: reading.calendar, context: context)
            settle(id, differs: written != reading.calendar, into: &plan)
            return
        }
        settle(id, differs: !SyncEndpoint.sameOnServer(merged, remote) || SyncEndpoint.inOtherClientsForm(reading),
            into: &plan)
    }

    /// Whether the server's body is in a shape only reminderd's rewrite turns back into the
    /// rolling form: another client's completion or untick, or a date moved off the schedule.
    /// Its record may equal the merged one, so it must be written back all the same.
    static func inOtherClientsForm(_ reading: VTodoReader.Reading) -> Bool {
        !reading.foreignCompletions.isEmpty || !reading.foreignUndos.isEmpty || reading.movedDate != nil
    }

    /// A new local item from the server's record, under `id`, with `event` in history.
    private func add(
        _ reading: VTodoReader.Reading, of resource: SyncResource, id: String, event: (HistoryEvent, String),
        into plan: inout SyncPullPlan, context: SyncContext
    ) {
        plan.taken.insert(id)
        var item = reading.record.item
        item.id = id
        item.createdAt = item.createdAt ?? context.now
        plan.changes.batch.added.append(item)
        plan.changes.batch.history.append(
            HistoryRecord(at: context.now, itemId: id, title: item.title, event: event.0, reason: event.1))
        applyPulled(
            reading.record, over: SyncRecord(item: item), itemId: id, conflicts: [], announce: false, into: &plan,
            context: context)
        plan.applied += 1
        plan.changes.batch.objects.append(
            SyncObject(itemId: id, uid: reading.uid, href: resource.href, etag: resource.etag, body: resource.body))
        // A body in another client's completion shape is written back in the rolling form.
        settle(id, differs: SyncEndpoint.inOtherClientsForm(reading), into: &plan)
    }

    /// An Apple completed copy: a Done of the occurrence it names, on the item it copies (the
    /// copy itself is not an item). True when `calendar` was one.
    private func pullCompletedCopy(_ calendar: Component, into plan: inout SyncPullPlan, context: SyncContext) throws
        -> Bool
    {
        if plan.known == nil {
            let uids = try stored { try store.syncUIDs(of: order) }
            plan.known = order.compactMap { id in
                guard let uid = uids[id], let item = items[id] else { return nil }
                return CompletedCopy.Known(
                    uid: uid, record: plan.merged[id] ?? syncRecord(of: item, base: nil, context: context))
            }
        }
        guard let (uid, entry) = CompletedCopy.match(calendar, known: plan.known ?? [], context: context) else {
            return false
        }
        guard let object = try stored({ try store.syncObject(uid: uid) }), let item = items[object.itemId] else {
            return true
        }
        let local = plan.merged[object.itemId] ?? syncRecord(of: item, base: nil, context: context)
        guard !local.ledger.contains(entry.occurrence) else { return true }
        var done = local
        done.ledger.record(entry)
        applyPulled(done, over: local, itemId: object.itemId, conflicts: [], into: &plan, context: context)
        // The item's own resource does not hold this Done yet.
        settle(object.itemId, differs: true, into: &plan)
        return true
    }

    /// A resource removed on the server. An item with a change waiting here is kept and pushed
    /// back as a new resource; otherwise it is removed here too. One removed here as well is
    /// forgotten.
    private func pullRemoval(_ href: String, into plan: inout SyncPullPlan, now: Int64) throws {
        guard let object = try stored({ try store.syncObject(href: href) }), plan.merged[object.itemId] == nil else {
            return
        }
        let id = object.itemId
        guard let item = items[id] else {
            if quarantined[id] == nil { plan.changes.batch.forgotten.append(id) }
            return
        }
        plan.merged[id] = SyncRecord(item: item)
        plan.applied += 1
        // Another app's task deleted there goes here too, whatever was done to it here.
        if !item.isFromTaskList, try stored({ try store.syncChangedHere(itemId: id) }) {
            plan.changes.batch.objects.append(SyncObject(itemId: id, uid: object.uid))
            plan.changes.batch.waiting.append(id)
            plan.changes.batch.history.append(
                HistoryRecord(
                    at: now, itemId: id, title: item.title, event: .kept,
                    reason: "removed on another device; kept because it was changed here"))
        } else {
            plan.changes.batch.removed.append(id)
            plan.changes.batch.history.append(
                HistoryRecord(
                    at: now, itemId: id, title: item.title, event: .removedElsewhere, reason: "removed on another device"
                ))
        }
    }

    private func settle(_ id: String, differs: Bool, into plan: inout SyncPullPlan) {
        plan.changes.batch.waiting.removeAll { $0 == id }
        plan.changes.batch.settled.removeAll { $0 == id }
        if differs { plan.changes.batch.waiting.append(id) } else { plan.changes.batch.settled.append(id) }
    }
}
