import CivilTime
import ICalendar
import ReminderCore
import ReminderJSON

/// Reads a task resource back into a record, whoever wrote it last: reminderd's own fields,
/// then what other clients did to it (their completion shapes, acknowledgements, a retitle on
/// the phone, a coupon's due date moved).
public enum VTodoReader {
    /// What a resource says.
    public struct Reading: Sendable {
        public var calendar: Component
        public var uid: String
        public var record: SyncRecord
        /// Occurrences another client completed in its own way, now in `record.ledger`.
        public var foreignCompletions: [DoneEntry]
        /// Done occurrences another client unticked (an Undo made there), now out of
        /// `record.ledger`.
        public var foreignUndos: [LocalDateTime] = []
        /// A repeating item's date another client moved to a day that is not an occurrence: not
        /// taken (the date is derived), so the resource is to be written back with `derived`.
        public var movedDate: (shown: LocalDate, derived: LocalDate)?
    }

    /// Reads the body `bytes` of the resource `name`.
    public static func read(_ bytes: [UInt8], name: String, context: SyncContext)
        throws(SyncFormatError) -> Reading
    {
        let calendar: Component
        do { calendar = try Component.parse(bytes) } catch { throw .syntax(resource: name, error) }
        return try read(calendar, name: name, context: context)
    }

    public static func read(_ calendar: Component, name: String, context: SyncContext)
        throws(SyncFormatError) -> Reading
    {
        guard calendar.name == "VCALENDAR" else {
            throw .invalid(resource: name, reason: "BEGIN:\(calendar.name) where BEGIN:VCALENDAR was expected")
        }
        guard let todo = master(of: calendar) else {
            throw .invalid(resource: name, reason: "no VTODO without RECURRENCE-ID (the task itself)")
        }
        guard let uid = todo.property("UID")?.text, !uid.isEmpty else {
            throw .invalid(resource: name, reason: "the VTODO has no UID")
        }
        guard let fields = ItemProperties.read(todo) else {
            guard context.otherTasks, let record = TaskListTask.record(of: todo, context: context) else {
                throw .notAnItem(resource: name)
            }
            return Reading(calendar: calendar, uid: uid, record: record, foreignCompletions: [])
        }
        var record = SyncRecord(item: try item(from: fields, todo: todo, name: name, context: context))
        do { record.ledger = try LedgerProperties.read(todo) } catch {
            throw .invalid(resource: name, reason: error.reason)
        }
        record.alarms = AlarmProperties.read(todo, context: context)
        // Both against the ledger the client kept, whose derived date is the one it saw (the
        // master reminderd rolled past a done occurrence is no roll of the client's).
        let undone = ForeignCompletions.undone(calendar, record: record, context: context)
        let completions = ForeignCompletions.read(calendar, record: record, context: context)
        for occurrence in undone { record.undoDone(occurrence) }
        var foreign: [DoneEntry] = []
        for (occurrence, doneAt) in completions {
            let key = occurrence.key(in: context.zone)
            guard !record.ledger.contains(key), !undone.contains(key) else { continue }
            record.markDone(occurrence, at: doneAt, in: context)
            foreign.append(DoneEntry(occurrence: occurrence.key(in: context.zone), doneAt: doneAt))
        }
        readAmountUsedPeriod(todo, into: &record, context: context)
        return Reading(
            calendar: calendar, uid: uid, record: record, foreignCompletions: foreign, foreignUndos: undone,
            movedDate: ForeignCompletions.movedDate(calendar, record: record, context: context))
    }

    /// The item from reminderd's fields, the summary, the description and (for a coupon) DUE,
    /// checked by the same validator as `add`.
    private static func item(from fields: [String: JSONValue], todo: Component, name: String, context: SyncContext)
        throws(SyncFormatError) -> Item
    {
        var fields = fields
        if let description = todo.property("DESCRIPTION")?.text { fields["notes"] = .string(description) }
        if fields["kind"] == .string(ItemKind.coupon.rawValue) {
            guard let due = todo.dateTime("DUE") else {
                throw .invalid(resource: name, reason: "a coupon needs DUE (its expiry) as a date or date-time")
            }
            guard let expiry = due.onWallClock(of: context) else {
                throw .invalid(resource: name, reason: "DUE \(due) is outside the years reminderd supports")
            }
            fields["expires"] = .string(
                expiry.time == FireTimeRules.endOfDay ? expiry.date.description : expiry.description)
        }
        // A rebuy bought again after it was created has a purchase date later than its creation:
        // `add`'s "not in the future" check is about the day of adding, so it runs without it.
        let createdAt = fields.removeValue(forKey: "createdAt")
        do {
            // The summary's tail (amount, card) depends on the other fields: read those first.
            fields["title"] = .string("?")
            let untitled = try Item(json: .object(fields), context: .init(zone: context.zone))
            let summary = todo.property("SUMMARY")?.text ?? ""
            fields["title"] = .string(String(ItemProperties.title(in: summary, of: untitled).prefix(100)))
            var item = try Item(json: .object(fields), context: .init(zone: context.zone))
            if let createdAt {
                var stamp = try FieldReader(.object(["createdAt": createdAt]), path: "")
                item.createdAt = try stamp.parsed("createdAt", Timestamp.parse)
            }
            return item
        } catch {
            throw .invalid(resource: name, reason: propertyNamed(error))
        }
    }

    /// The period a benefit's used amount counts toward: as stamped, or the current one. An
    /// amount of a period that is over is dropped: that credit is gone.
    private static func readAmountUsedPeriod(_ todo: Component, into record: inout SyncRecord, context: SyncContext) {
        guard case .benefit(var benefit) = record.item.schedule, benefit.amountUsed != nil else { return }
        let stamped = todo.property(ItemProperties.propertyName("amountUsed"))?
            .parameter(ItemProperties.periodParameter).flatMap { DateTimeValue(text: $0)?.wallClock?.date }
        let current = record.currentOccurrence(in: context)?.dueDate
        if let stamped, let current, stamped < current {
            benefit.amountUsed = nil
            record.item.schedule = .benefit(benefit)
        } else {
            record.amountUsedPeriod = stamped ?? current
        }
    }

    /// The task itself: the first VTODO that is not an occurrence override.
    static func master(of calendar: Component) -> Component? {
        masterIndex(of: calendar).map { calendar.components[$0] }
    }

    /// Where the task itself is: the VTODO that is not one occurrence's override (`RECURRENCE-ID`).
    static func masterIndex(of calendar: Component) -> Int? {
        calendar.components.firstIndex { $0.name == "VTODO" && $0.property("RECURRENCE-ID") == nil }
    }

    /// The error with the property the field came from in place of the JSON key.
    private static func propertyNamed(_ error: ReminderCoreError) -> String {
        let names = ["title": "SUMMARY", "notes": "DESCRIPTION", "expires": "DUE"]
        let key = error.field.split(separator: "[").first.map(String.init) ?? error.field
        let index = error.field.dropFirst(key.count)
        return (names[key] ?? ItemProperties.propertyName(key)) + index + ": " + error.reason
    }
}
