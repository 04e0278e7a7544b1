import CivilTime
import GRDB
import ReminderCore
import ReminderJSON
import ReminderProtocol
import ReminderStore

/// A backup that restores exactly: `Export` gives the items and, beside them, their state —
/// each occurrence's Done and snooze, what each Done redeemed (a card's fee return), the undo
/// steps, and on request the history — and `Import` writes that state in the same transaction
/// as the items, so a restore is all or nothing, state included. Times are RFC 3339.
extension ReminderEngine {
    func exportState(history: Bool) throws -> JSONValue {
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
        do {
            try store.read { db in
                state["redemptions"] = .array(
                    try Row.fetchAll(db, sql: "SELECT itemId, card, at, amount FROM redemption ORDER BY id").map {
                        row in
                        .object([
                            "item": .string(row["itemId"]), "card": .string(row["card"]), "at": time(row["at"]),
                            "amount": .string(row["amount"]),
                        ])
                    })
                state["undo"] = .array(
                    try Row.fetchAll(db, sql: "SELECT itemId, itemJSON, due, doneAt FROM undoStep ORDER BY id").map {
                        row in
                        let json: String = row["itemJSON"]
                        return .object([
                            "item": .string(row["itemId"]),
                            "before": (try? JSONValue.parse(Array(json.utf8), source: "undo")) ?? .null,
                            "due": time(row["due"]), "doneAt": time(row["doneAt"]),
                        ])
                    })
                if history {
                    state["history"] = .array(
                        try HistoryRecord.fetchAll(db, sql: "SELECT * FROM history ORDER BY at, id").map { entry in
                            .object([
                                "at": time(entry.at), "item": .string(entry.itemId), "title": .string(entry.title),
                                "event": .string(entry.event), "reason": .string(entry.reason),
                            ])
                        })
                }
            }
        } catch { throw CommandError.store(error) }
        return .object(state)
    }

    /// A backup's state, checked: every entry names one of the items imported with it (history
    /// may also name items no longer there).
    struct ImportedState {
        var occurrences: [OccurrenceRecord] = []
        var redemptions: [(itemId: String, card: String, at: Int64, amount: String)] = []
        var undo: [(itemId: String, json: String, due: Int64, doneAt: Int64)] = []
        var history: [HistoryRecord] = []
        /// A backup's state was given: its redemptions replace any left by a removed item of the
        /// same id, so a restore never counts a redemption twice.
        var restoring = false
    }

    func decodeState(_ state: JSONValue?, ids: Set<String>) throws -> ImportedState {
        var result = ImportedState()
        guard let state, state != .null else { return result }
        result.restoring = true
        guard case .object(let sections) = state else {
            throw CommandError.invalidParameter(
                "state", "expected an object of occurrences, redemptions, undo, history")
        }
        if let unknown = sections.keys.filter({ !["occurrences", "redemptions", "undo", "history"].contains($0) })
            .sorted().first
        {
            throw CommandError.invalidParameter("state.\(unknown)", "unknown section")
        }
        func entries(_ name: String) throws -> [(path: String, fields: [String: JSONValue])] {
            guard let value = sections[name], value != .null else { return [] }
            guard case .array(let elements) = value else {
                throw CommandError.invalidParameter("state.\(name)", "expected an array")
            }
            return try elements.enumerated().map { index, element in
                guard case .object(let fields) = element else {
                    throw CommandError.invalidParameter("state.\(name)[\(index)]", "expected an object")
                }
                return ("state.\(name)[\(index)]", fields)
            }
        }
        func text(_ fields: [String: JSONValue], _ key: String, _ path: String) throws -> String {
            guard case .string(let value)? = fields[key] else {
                throw CommandError.invalidParameter("\(path).\(key)", "missing or not a string")
            }
            return value
        }
        func instant(_ fields: [String: JSONValue], _ key: String, _ path: String, optional: Bool = false) throws
            -> Int64?
        {
            if optional, fields[key] == nil || fields[key] == .null { return nil }
            let value = try text(fields, key, path)
            guard case .success(let at) = Timestamp.parse(value) else {
                throw CommandError.invalidParameter("\(path).\(key)", "\"\(value)\" is not an RFC 3339 time")
            }
            return at
        }
        func item(_ fields: [String: JSONValue], _ path: String) throws -> String {
            let id = try text(fields, "item", path)
            guard ids.contains(id) else {
                throw CommandError.invalidParameter("\(path).item", "\"\(id)\" is not among the items imported with it")
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
                throw CommandError.invalidParameter("\(path).amount", "\"\(amount)\" is not a decimal amount")
            }
            result.redemptions.append(
                (try item(fields, path), try text(fields, "card", path), try instant(fields, "at", path)!, amount))
        }
        for (path, fields) in try entries("undo") {
            guard let before = fields["before"], case .object = before else {
                throw CommandError.invalidParameter("\(path).before", "expected the item as it was, an object")
            }
            _ = try decodeItem(before, path: "\(path).before", defaultCreatedAt: nil)
            result.undo.append(
                (
                    try item(fields, path), before.text(pretty: false), try instant(fields, "due", path)!,
                    try instant(fields, "doneAt", path)!
                ))
        }
        for (path, fields) in try entries("history") {
            result.history.append(
                HistoryRecord(
                    at: try instant(fields, "at", path)!, itemId: try text(fields, "item", path),
                    title: try text(fields, "title", path), event: try text(fields, "event", path),
                    reason: try text(fields, "reason", path)))
        }
        return result
    }

    /// Writes a backup's state inside the items' transaction.
    static func writeState(_ state: ImportedState, _ db: Database) throws {
        for record in state.occurrences { try record.save(db) }
        for entry in state.redemptions {
            try db.execute(
                sql: "INSERT INTO redemption (itemId, card, at, amount) VALUES (?, ?, ?, ?)",
                arguments: [entry.itemId, entry.card, entry.at, entry.amount])
        }
        for step in state.undo {
            try db.execute(
                sql: "INSERT INTO undoStep (itemId, itemJSON, due, doneAt) VALUES (?, ?, ?, ?)",
                arguments: [step.itemId, step.json, step.due, step.doneAt])
        }
        for entry in state.history { try ReminderStore.appendHistory(entry, db) }
    }
}
