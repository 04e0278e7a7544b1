import CivilTime
import ReminderCore
import ReminderJSON
import ReminderProtocol
import ReminderStore

/// A backup that restores exactly: `Export` gives the items and, beside them, their state —
/// each occurrence's Done and snooze, what each Done redeemed (a card's fee return), the undo
/// steps, and on request the history — and `Import` writes that state in the same transaction
/// as the items, so a restore is all or nothing, state included. Times are RFC 3339 in `zone`.
/// Writing and reading a backup is this value's, apart from the engine: it is handed the items
/// and a check of an item's JSON, reads the store's ledger, throws the engine's refusals, and
/// leaves the engine only the storing of what a restore adds (`ReminderEngine.importItems`).
struct Backup {
    /// An item's JSON checked at a path, with the creation time to give one without
    /// (`ReminderEngine.decodeItem`), refused as `InvalidItem`.
    typealias ItemCheck = (_ json: JSONValue, _ path: String, _ defaultCreatedAt: Int64?) throws(EngineError) -> Item

    /// What an `Import` adds, for the store's one transaction (`ReminderEngine.insert`).
    struct Restore {
        var added: [Item]
        /// The ids of items restored over, deleted with their state first.
        var replacing: [String]
        var state: BackupState
    }

    let zone: TimeZoneRules

    /// `Export`: the items in creation order and their state, with the store's ledger (the
    /// redemptions, the undo steps and, when asked, the history). Other apps' tasks
    /// (`Coupon.taskList`) are left out: they are kept in their task list, which sync reads
    /// again, and `Import` refuses them.
    func export(_ index: ItemIndex, from store: ReminderStore, history: Bool) throws(EngineError) -> ExportReply {
        ExportReply(
            items: index.order.compactMap { index.items[$0].flatMap(Backup.exported) },
            state: try exportState(index, from: store, history: history))
    }

    /// An item as a backup holds it; nil for another app's task, which it leaves out.
    static func exported(_ item: Item) -> JSONValue? { item.isFromTaskList ? nil : item.json }

    /// `Export`'s `state`: the occurrence records of `index`, and the store's ledger read now.
    func exportState(_ index: ItemIndex, from store: ReminderStore, history: Bool) throws(EngineError) -> JSONValue {
        let time = { (instant: Int64) in JSONValue.string(Timestamp.format(instant, in: self.zone)) }
        var occurrenceRows: [JSONValue] = []
        let tasks = Set(index.order.filter { index.items[$0]?.isFromTaskList == true })
        for id in index.order where !tasks.contains(id) {
            for record in (index.occurrences[id] ?? [:]).values.sorted(by: { $0.due < $1.due }) {
                var fields: [String: JSONValue] = ["item": .string(id), "due": time(record.due)]
                if let doneAt = record.doneAt { fields["doneAt"] = time(doneAt) }
                if let until = record.snoozedUntil { fields["snoozedUntil"] = time(until) }
                if let passed = record.passedAt { fields["passedAt"] = time(passed) }
                occurrenceRows.append(.object(fields))
            }
        }
        var state: [String: JSONValue] = ["occurrences": .array(occurrenceRows)]
        let ledger: (redemptions: [Redemption], undoSteps: [UndoStep], history: [HistoryRecord])
        do { ledger = try store.backupLedger(history: history) } catch { throw EngineError.store(error) }
        state["redemptions"] = .array(
            ledger.redemptions.map { redemption in
                .object([
                    "item": .string(redemption.itemId), "card": .string(redemption.card), "at": time(redemption.at),
                    "amount": .string(redemption.amount),
                ])
            })
        state["undo"] = .array(
            ledger.undoSteps.filter { !tasks.contains($0.itemId) }.map { step in
                var fields: [String: JSONValue] = [
                    "item": .string(step.itemId),
                    "before": (try? JSONValue.parse(Array(step.itemJSON.utf8), source: "undo")) ?? .null,
                    "doneAt": time(step.doneAt),
                ]
                // A Done that marked no occurrence (a rebuy's, a partial use) has none to name:
                // the epoch it is stored as reads as 1969 west of UTC, before any date allowed.
                if step.due != 0 { fields["due"] = time(step.due) }
                return .object(fields)
            })
        if history {
            state["history"] = .array(
                ledger.history.filter { !tasks.contains($0.itemId) }.map { entry in
                    .object([
                        "at": time(entry.at), "item": .string(entry.itemId), "title": .string(entry.title),
                        "event": .string(entry.event.rawValue), "reason": .string(entry.reason),
                    ])
                })
        }
        return .object(state)
    }

    /// What an `Import` adds, all or none: its items checked, each with its id (the backup's, or
    /// a new one from `newID`) and creation time, and the backup's state; `replace` restores items
    /// over those of `index` with the same ids (an unreadable item's id is never replaced: remove
    /// it first).
    func restore(
        _ elements: [JSONValue], state: JSONValue?, replace: Bool, over index: ItemIndex, now: Int64,
        decodeItem: ItemCheck, newID: () -> String
    ) throws(EngineError) -> Restore {
        let quarantined = index.quarantined
        var added: [Item] = []
        var ids = Set(quarantined.keys).union(replace ? [] : index.order)
        var replacing: [String] = []
        for (number, element) in elements.enumerated() {
            var item = try decodeItem(element, "items[\(number)]", now)
            if let id = item.id, ids.contains(id) {
                throw EngineError.invalidItem(
                    .invalidValue(
                        field: "items[\(number)].id",
                        reason: "\"\(id)\" is already in use"
                            + (replace || quarantined[id] != nil
                                ? ""
                                : " (to restore a backup over the items it has: reminderctl import --replace FILE, "
                                    + "or replace: true)")
                    ))
            }
            if let id = item.id, index.items[id] != nil { replacing.append(id) }
            if item.id == nil {
                var id = newID()
                while ids.contains(id) { id = newID() }
                item.id = id
            }
            if item.createdAt == nil { item.createdAt = now }
            ids.insert(item.id!)
            added.append(item)
        }
        let restored = try decodeState(state, ids: Set(added.map { $0.id! }), decodeItem: decodeItem)
        return Restore(added: added, replacing: replacing, state: restored)
    }

    /// A backup's state, checked: every entry names one of the items imported with it (history
    /// may also name items no longer there).
    private func decodeState(_ state: JSONValue?, ids: Set<String>, decodeItem: ItemCheck) throws(EngineError)
        -> BackupState
    {
        var result = BackupState()
        guard let state, state != .null else { return result }
        result.restoring = true
        guard case .object(let sections) = state else {
            throw EngineError.invalidParameter(
                "state", Wording(N_("expected an object of occurrences, redemptions, undo, history")))
        }
        var reader = FieldReader(fields: sections, path: "state")
        let sectionNames = ["occurrences", "redemptions", "undo", "history"]
        for name in sectionNames { _ = reader.value(name) }
        do { try reader.rejectUnknown() } catch { throw EngineError.invalidParameter(error.field, Wording(N_("unknown section"))) }
        /// A section's entries, each an object read on its own `FieldReader` (path `state.undo[2]`).
        func entries(_ name: String) throws(EngineError) -> [FieldReader] {
            let path = reader.fieldPath(name)
            let elements: [JSONValue]?
            do { elements = try reader.array(name) } catch {
                throw EngineError.invalidParameter(path, Wording(N_("expected an array")))
            }
            return try (elements ?? []).enumerated().map { (index, element) throws(EngineError) in
                do { return try FieldReader(element, path: "\(path)[\(index)]") } catch {
                    throw EngineError.invalidParameter("\(path)[\(index)]", Wording(N_("expected an object")))
                }
            }
        }
        func text(_ entry: inout FieldReader, _ key: String) throws(EngineError) -> String {
            guard let value = try? entry.string(key) else {
                throw EngineError.invalidParameter(entry.fieldPath(key), Wording(N_("missing or not a string")))
            }
            return value
        }
        func instant(_ entry: inout FieldReader, _ key: String, optional: Bool = false) throws(EngineError) -> Int64? {
            if optional, entry.value(key) == nil { return nil }
            let value = try text(&entry, key)
            guard case .success(let at) = Timestamp.parse(value) else {
                throw EngineError.invalidParameter(
                    entry.fieldPath(key), Wording(N_("\"%1$s\" is not an RFC 3339 time"), .text(value)))
            }
            return at
        }
        func item(_ entry: inout FieldReader) throws(EngineError) -> String {
            let id = try text(&entry, "item")
            guard ids.contains(id) else {
                throw EngineError.invalidParameter(
                    entry.fieldPath("item"), Wording(N_("\"%1$s\" is not among the items imported with it"), .text(id)))
            }
            return id
        }
        for var entry in try entries("occurrences") {
            result.occurrences.append(
                OccurrenceRecord(
                    itemId: try item(&entry), due: try instant(&entry, "due")!,
                    doneAt: try instant(&entry, "doneAt", optional: true),
                    snoozedUntil: try instant(&entry, "snoozedUntil", optional: true),
                    passedAt: try instant(&entry, "passedAt", optional: true)))
        }
        for var entry in try entries("redemptions") {
            let amount = try text(&entry, "amount")
            guard case .success = Money.parse(amount) else {
                throw EngineError.invalidParameter(
                    entry.fieldPath("amount"), Wording(N_("\"%1$s\" is not a decimal amount"), .text(amount)))
            }
            result.redemptions.append(
                Redemption(
                    itemId: try item(&entry), card: try text(&entry, "card"), at: try instant(&entry, "at")!,
                    amount: amount))
        }
        for var entry in try entries("undo") {
            guard let before = entry.value("before"), case .object = before else {
                throw EngineError.invalidParameter(
                    entry.fieldPath("before"), Wording(N_("expected the item as it was, an object")))
            }
            _ = try decodeItem(before, entry.fieldPath("before"), nil)
            result.undoSteps.append(
                UndoStep(
                    itemId: try item(&entry), itemJSON: before.text(pretty: false),
                    due: try instant(&entry, "due", optional: true) ?? 0, doneAt: try instant(&entry, "doneAt")!))
        }
        for var entry in try entries("history") {
            let eventName = try text(&entry, "event")
            guard let event = HistoryEvent(rawValue: eventName) else {
                throw EngineError.invalidParameter(
                    entry.fieldPath("event"),
                    Wording(
                        N_("\"%1$s\" is not a history event; use %2$s"), .text(eventName),
                        .text(HistoryEvent.allCases.map(\.rawValue).joined(separator: ", "))))
            }
            result.history.append(
                HistoryRecord(
                    at: try instant(&entry, "at")!, itemId: try text(&entry, "item"), title: try text(&entry, "title"),
                    event: event, reason: try text(&entry, "reason")))
        }
        return result
    }
}
