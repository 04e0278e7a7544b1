import CivilTime
import ReminderCore
import ReminderJSON
import ReminderProtocol
import ReminderStore

/// A backup that restores exactly: `Export` gives the items and, beside them, their state —
/// each occurrence's Done and snooze, what each Done redeemed (a card's fee return), the undo
/// steps, and on request the history — and `Import` writes that state in the same transaction
/// as the items, so a restore is all or nothing, state included. Times are RFC 3339.
extension ReminderEngine {
    func exportState(history: Bool) throws(EngineError) -> JSONValue {
        let time = { (instant: Int64) in JSONValue.string(Timestamp.format(instant, in: self.zone)) }
        var occurrenceRows: [JSONValue] = []
        for id in order {
            for record in (occurrences[id] ?? [:]).values.sorted(by: { $0.due < $1.due }) {
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
            ledger.undoSteps.map { step in
                .object([
                    "item": .string(step.itemId),
                    "before": (try? JSONValue.parse(Array(step.itemJSON.utf8), source: "undo")) ?? .null,
                    "due": time(step.due), "doneAt": time(step.doneAt),
                ])
            })
        if history {
            state["history"] = .array(
                ledger.history.map { entry in
                    .object([
                        "at": time(entry.at), "item": .string(entry.itemId), "title": .string(entry.title),
                        "event": .string(entry.event.rawValue), "reason": .string(entry.reason),
                    ])
                })
        }
        return .object(state)
    }

    /// A backup's state, checked: every entry names one of the items imported with it (history
    /// may also name items no longer there).
    func decodeState(_ state: JSONValue?, ids: Set<String>) throws(EngineError) -> BackupState {
        var result = BackupState()
        guard let state, state != .null else { return result }
        result.restoring = true
        guard case .object(let sections) = state else {
            throw EngineError.invalidParameter(
                "state", "expected an object of occurrences, redemptions, undo, history")
        }
        if let unknown = sections.keys.filter({ !["occurrences", "redemptions", "undo", "history"].contains($0) })
            .sorted().first
        {
            throw EngineError.invalidParameter("state.\(unknown)", "unknown section")
        }
        func entries(_ name: String) throws(EngineError) -> [(path: String, fields: [String: JSONValue])] {
            guard let value = sections[name], value != .null else { return [] }
            guard case .array(let elements) = value else {
                throw EngineError.invalidParameter("state.\(name)", "expected an array")
            }
            return try elements.enumerated().map { (index, element) throws(EngineError) in
                guard case .object(let fields) = element else {
                    throw EngineError.invalidParameter("state.\(name)[\(index)]", "expected an object")
                }
                return ("state.\(name)[\(index)]", fields)
            }
        }
        func text(_ fields: [String: JSONValue], _ key: String, _ path: String) throws(EngineError) -> String {
            guard case .string(let value)? = fields[key] else {
                throw EngineError.invalidParameter("\(path).\(key)", "missing or not a string")
            }
            return value
        }
        func instant(
            _ fields: [String: JSONValue], _ key: String, _ path: String, optional: Bool = false
        ) throws(EngineError) -> Int64? {
            if optional, fields[key] == nil || fields[key] == .null { return nil }
            let value = try text(fields, key, path)
            guard case .success(let at) = Timestamp.parse(value) else {
                throw EngineError.invalidParameter("\(path).\(key)", "\"\(value)\" is not an RFC 3339 time")
            }
            return at
        }
        func item(_ fields: [String: JSONValue], _ path: String) throws(EngineError) -> String {
            let id = try text(fields, "item", path)
            guard ids.contains(id) else {
                throw EngineError.invalidParameter("\(path).item", "\"\(id)\" is not among the items imported with it")
            }
            return id
        }
        for (path, fields) in try entries("occurrences") {
            result.occurrences.append(
                OccurrenceRecord(
                    itemId: try item(fields, path), due: try instant(fields, "due", path)!,
                    doneAt: try instant(fields, "doneAt", path, optional: true),
                    snoozedUntil: try instant(fields, "snoozedUntil", path, optional: true),
                    passedAt: try instant(fields, "passedAt", path, optional: true)))
        }
        for (path, fields) in try entries("redemptions") {
            let amount = try text(fields, "amount", path)
            guard case .success = Money.parse(amount) else {
                throw EngineError.invalidParameter("\(path).amount", "\"\(amount)\" is not a decimal amount")
            }
            result.redemptions.append(
                Redemption(
                    itemId: try item(fields, path), card: try text(fields, "card", path),
                    at: try instant(fields, "at", path)!, amount: amount))
        }
        for (path, fields) in try entries("undo") {
            guard let before = fields["before"], case .object = before else {
                throw EngineError.invalidParameter("\(path).before", "expected the item as it was, an object")
            }
            _ = try decodeItem(before, path: "\(path).before", defaultCreatedAt: nil)
            result.undoSteps.append(
                UndoStep(
                    itemId: try item(fields, path), itemJSON: before.text(pretty: false),
                    due: try instant(fields, "due", path)!, doneAt: try instant(fields, "doneAt", path)!))
        }
        for (path, fields) in try entries("history") {
            let eventName = try text(fields, "event", path)
            guard let event = HistoryEvent(rawValue: eventName) else {
                throw EngineError.invalidParameter(
                    "\(path).event",
                    "\"\(eventName)\" is not a history event; use \(HistoryEvent.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            result.history.append(
                HistoryRecord(
                    at: try instant(fields, "at", path)!, itemId: try text(fields, "item", path),
                    title: try text(fields, "title", path), event: event, reason: try text(fields, "reason", path)))
        }
        return result
    }
}
