import CivilTime
import ReminderCore
import ReminderJSON
import ReminderProtocol
import ReminderStore

extension ReminderEngine {
    // MARK: - Changing items

    func add(_ json: JSONValue, force: Bool = false, newCard: Bool = false, now: Int64) throws(EngineError)
        -> AddReply
    {
        if json.hasField("id") {
            throw EngineError.invalidItem(.invalidValue(field: "id", reason: "assigned by the daemon"))
        }
        if json.hasField("createdAt") {
            throw EngineError.invalidItem(.invalidValue(field: "createdAt", reason: "set by the daemon"))
        }
        var item = try decodeItem(json, path: "", defaultCreatedAt: now)
        if !newCard { item = try index.spellingCard(of: item) }
        if !force { try index.refuseDuplicate(of: item) }
        item.id = newID()
        item.createdAt = now
        try insert([item], now: now)
        return AddReply(id: item.id!, item: queries(now: now).view(item.id!))
    }

    /// Adds `added` in one transaction; for a restore, first deletes the items of the same ids
    /// (`replacing`, with their state) and writes the backup's `state` in the same transaction.
    func insert(
        _ added: [Item], now: Int64, replacing: [String] = [], state: BackupState = BackupState()
    ) throws(EngineError) {
        do { try store.addItems(added, at: now, replacing: replacing, state: state) } catch {
            throw EngineError.store(error)
        }
        for id in replacing { dropFromMemory(id) }
        for record in state.occurrences { index.record(record) }
        index.add(added)
        for item in added { reschedule(item.id!, now: now) }
    }

    /// Validates an item's JSON, refusing with `InvalidItem`. Dates in the future are judged
    /// against the engine's present, not the item's creation (a rebuy is bought again later).
    func decodeItem(_ json: JSONValue, path: String, defaultCreatedAt: Int64?) throws(EngineError) -> Item {
        if json.hasField("taskList") {
            // Only sync reads another app's task (`sync.otherTasks`); given here it has no task behind it.
            throw EngineError.invalidItem(
                .invalidValue(field: path.isEmpty ? "taskList" : path + ".taskList", reason: "set by sync only"))
        }
        let context = Item.DecodingContext(zone: zone, defaultCreatedAt: defaultCreatedAt, present: .instant(clock()))
        let result: Result<Item, ReminderCoreError> = Result { () throws(ReminderCoreError) in
            try Item(json: json, path: path, context: context)
        }
        switch result {
        case .success(let item): return stampingUsedPeriod(item, now: clock())
        case .failure(let error): throw EngineError.invalidItem(error)
        }
    }

    /// A short, lowercase id not in use: 4 characters while that leaves room, more after. Nor
    /// one in `taken`, or that a removed item's sync state still holds until its DELETE is
    /// pushed (a new item under that id would take the removed one's place on the server).
    func newID(avoiding taken: Set<String> = []) -> String {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        var length = 4
        while true {
            for _ in 0..<20 {
                let id = String((0..<length).map { _ in alphabet.randomElement()! })
                if !index.sortedIds.overlaps(id), quarantined[id] == nil, !taken.contains(id),
                    ((try? store.syncObject(itemId: id)) ?? nil) == nil
                {
                    return id
                }
            }
            length += 1
        }
    }

    func edit(_ id: String, changes: JSONValue, newCard: Bool = false, now: Int64) throws(EngineError) -> ItemReply {
        guard let item = items[id], case .object(var fields) = item.json, case .object(let updates) = changes else {
            throw EngineError.invalidParameter("changes", Wording(N_("expected an object of fields")))
        }
        if item.isFromTaskList {
            throw EngineError.notApplicable(
                id,
                Wording(
                    N_("it is another app's task from the synced task list: change it in that app (reminderd only reminds of it, and marks it done)")
                ))
        }
        // A used amount belongs to its period as a Done to its occurrence: one of the current
        // period stays with the current period (whose due date an edit of the schedule may move:
        // stamped again on decoding), one of a period that is over is dropped — it counts nowhere
        // and must not hold a new amount down. A used amount given in `changes` is of the
        // current period unless its period is given too.
        if updates["amountUsedPeriod"] == nil {
            fields["amountUsedPeriod"] = nil
            if updates["amountUsed"] == nil, usedThisPeriod(of: item, now: now) == nil { fields["amountUsed"] = nil }
        }
        for (key, value) in updates {
            if ["id", "createdAt", "kind"].contains(key) {
                throw EngineError.invalidItem(.invalidValue(field: key, reason: "cannot be changed"))
            }
            fields[key] = value == .null ? nil : value
        }
        var edited = try decodeItem(.object(fields), path: "", defaultCreatedAt: nil)
        edited.id = id
        if updates["card"] != nil, !newCard { edited = try index.spellingCard(of: edited, besides: id) }
        let moves = occurrenceMoves(from: item, to: edited, now: now)
        do {
            try store.recordEdit(
                edited, changedFields: updates.keys.sorted().joined(separator: ", "), moving: moves, at: now)
        } catch { throw EngineError.store(error) }
        index.update(edited)
        index.move(id, moves)
        delivery.moveOccurrences(of: id, moves)
        reschedule(id, now: now)
        return ItemReply(item: queries(now: now).view(id))
    }

    func remove(_ id: String, now: Int64) throws(EngineError) -> RemoveReply {
        if let unreadable = quarantined[id] { return try removeQuarantined(unreadable, now: now) }
        guard let item = items[id] else { return RemoveReply(id: id) }
        if item.isFromTaskList {
            throw EngineError.notApplicable(
                id,
                Wording(
                    N_("it is another app's task from the synced task list: delete it in that app, or mark it done (removing it here would delete it there)")
                ))
        }
        let removed = queries(now: now).view(id)
        do { try store.removeItem(id: id, title: item.title, reason: "", at: now) } catch {
            throw EngineError.store(error)
        }
        dropFromMemory(id)
        reschedule(id, now: now)
        return RemoveReply(id: id, item: removed)
    }

    /// Deletes an unreadable item, stored first, with a history line.
    func removeQuarantined(_ item: QuarantinedItem, now: Int64) throws(EngineError) -> RemoveReply {
        do {
            try store.removeItem(id: item.id, title: item.title ?? "(unreadable)", reason: "was unreadable", at: now)
        } catch { throw EngineError.store(error) }
        index.remove(item.id)
        return RemoveReply(id: item.id)
    }

    /// Drops a deleted item from memory: its state, pending reminders and pop-ups.
    func dropFromMemory(_ id: String) {
        index.remove(id)
        delivery.forget(id)
    }

    /// Snoozes the current occurrence by `duration`; a snooze that would end after the due time
    /// is shortened to a minute before it, and the answer says so (`shortened`).
    func snooze(_ id: String, _ duration: CalendarDuration, now: Int64) throws(EngineError) -> SnoozeReply {
        guard let item = items[id], let occurrence = currentOccurrence(of: item, now: now) else {
            throw EngineError.notApplicable(id, Wording(N_("nothing is due")))
        }
        guard let (end, shortened) = snoozeEnd(duration, from: now, due: occurrence.due) else {
            throw EngineError.notApplicable(
                id, Wording(N_("due %1$s, too soon to snooze"), .text(Timestamp.format(occurrence.due, in: zone))))
        }
        let reply = try snooze(id, until: end, label: "\(duration)" + (shortened ? ", shortened" : ""), now: now)
        guard shortened else { return reply }
        return SnoozeReply(
            until: Timestamp.format(end, in: zone),
            shortened: Wording(
                N_("%1$s would end after the due time %2$s"), .text("\(duration)"),
                .text(Timestamp.format(occurrence.due, in: zone))))
    }

    /// Snoozes the current occurrence until a wall time (`snooze ID until 18:00`, `tomorrow`),
    /// clamped as a snooze by a duration is (`PopUpComposer.snoozeEnd(at:)`); the answer says
    /// when the time meant tomorrow and when the clamp moved it.
    func snooze(_ id: String, _ target: SnoozeTarget, now: Int64) throws(EngineError) -> SnoozeReply {
        guard let item = items[id], let occurrence = currentOccurrence(of: item, now: now) else {
            throw EngineError.notApplicable(id, Wording(N_("nothing is due")))
        }
        let (asked, tomorrow) = target.instant(from: now, rules: rules)
        guard
            let (end, shortened) = PopUpComposer.snoozeEnd(
                at: asked, from: now, due: occurrence.due, configuration: configuration, rules: rules)
        else {
            throw EngineError.notApplicable(
                id, Wording(N_("due %1$s, too soon to snooze"), .text(Timestamp.format(occurrence.due, in: zone))))
        }
        let reply = try snooze(id, until: end, label: "\(target)" + (shortened ? ", shortened" : ""), now: now)
        var why: [Wording] = []
        if case .at(let time) = target, tomorrow {
            why.append(Wording(N_("%1$s has passed today"), .text(time.hourMinute)))
        }
        let askedText = Wording.Argument.text(Timestamp.format(asked, in: zone))
        if shortened {
            let dueText = Timestamp.format(occurrence.due, in: zone)
            why.append(Wording(N_("%1$s is not before the due time %2$s"), askedText, .text(dueText)))
        } else if end != asked {
            why.append(Wording(N_("%1$s is in quiet hours"), askedText))
        }
        guard let first = why.first else { return reply }
        // TRANSLATORS: two reasons a snooze ends at another time than asked, one after the other.
        let both = why.count == 2 ? Wording(N_("%1$s; %2$s"), .wording(first), .wording(why[1])) : first
        return SnoozeReply(until: reply.until, shortened: both)
    }

    /// Snoozes the current occurrence until `end` (before its due time).
    func snooze(_ id: String, until end: Int64, label: String? = nil, now: Int64) throws(EngineError) -> SnoozeReply {
        guard let item = items[id], let occurrence = currentOccurrence(of: item, now: now), end > now,
            end < occurrence.due
        else {
            throw EngineError.notApplicable(
                id, Wording(N_("nothing is due before %1$s"), .text(Timestamp.format(end, in: zone))))
        }
        let duration = label ?? "until a minute before the due time"
        var record = occurrences[id]?[occurrence.due] ?? OccurrenceRecord(itemId: id, due: occurrence.due)
        record.snoozedUntil = end
        do {
            try store.recordSnooze(
                record,
                history: HistoryRecord(
                    at: now, itemId: id, title: item.title, event: .snoozed,
                    reason: "\(duration), until \(Timestamp.format(end, in: zone))"))
        } catch { throw EngineError.store(error) }
        index.record(record)
        index.acknowledge(id, at: now)  // as stored: the repeats of what was shown stop
        delivery.closePopUps(of: id)
        reschedule(id, now: now)
        return SnoozeReply(until: Timestamp.format(end, in: zone))
    }

    /// When a snooze of `duration` from `now` would fire (`PopUpComposer.snoozeEnd`).
    func snoozeEnd(_ duration: CalendarDuration, from now: Int64, due: Int64) -> (end: Int64, shortened: Bool)? {
        PopUpComposer.snoozeEnd(duration, from: now, due: due, configuration: configuration, rules: rules)
    }

    /// Pause (CONTRACT): reminders are held for `duration` from now, or until resumed (nil);
    /// answered once the pause is stored.
    func pause(_ duration: CalendarDuration?, now: Int64) throws(EngineError) -> PauseReply {
        let until = duration.map { now + $0.nominalSeconds } ?? DeliveryController.untilResumed
        do { try delivery.pause(until: until) } catch { throw EngineError.store(error) }
        return PauseReply(until: duration == nil ? nil : Timestamp.format(until, in: zone))
    }

    /// The Resume command: answered only once the end of the pause is stored.
    func resumeCommand(now: Int64) throws(EngineError) {
        do { try delivery.resumeNow(now: now) } catch { throw EngineError.store(error) }
    }

    /// Import (`Backup.restore`): adds items, all or none, with a backup's state; `replace`
    /// restores items over those of the same ids.
    func importItems(_ elements: [JSONValue], state: JSONValue?, replace: Bool, now: Int64) throws(EngineError)
        -> ImportReply
    {
        let restore = try Backup(zone: zone).restore(
            elements, state: state, replace: replace, over: index, now: now, decodeItem: decodeItem,
            newID: { newID() })
        try insert(restore.added, now: now, replacing: restore.replacing, state: restore.state)
        // A replaced item's old reminders were dropped with it; its new ones were scheduled above.
        return ImportReply(ids: restore.added.map { $0.id! })
    }
}

extension JSONValue {
    func hasField(_ key: String) -> Bool {
        if case .object(let fields) = self, let value = fields[key], value != .null { return true }
        return false
    }
}
