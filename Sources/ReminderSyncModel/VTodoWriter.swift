import CivilTime
import ICalendar
import ReminderCore

/// Writes an item into its task resource in the rolling form: edits the server's VCALENDAR in
/// place (so what other clients added survives) or starts a new one.
public enum VTodoWriter {
    /// `resource` (the server's body, or nil for a new item) with `record` written into its
    /// master VTODO: `UID` set, `SEQUENCE` bumped, stamps refreshed, the current occurrence as
    /// `DUE` (and `DTSTART` when it repeats), the ledger, the alarms and the time zone.
    /// Occurrence overrides (`RECURRENCE-ID`) are dropped once read: Tasks.org's sync stalls on
    /// them and DAVx5 drops them.
    public static func write(_ record: SyncRecord, uid: String, into resource: Component?, context: SyncContext)
        -> Component
    {
        var calendar = resource ?? Component("VCALENDAR", properties: [Property("VERSION", "2.0")])
        // The writer's mark: a later read tells reminderd's own rolls from other clients' ones.
        calendar.set("PRODID", ForeignCompletions.ownProductID)
        var todo = VTodoReader.master(of: calendar) ?? Component("VTODO")
        let stamp = DateTimeValue.utc(context.now).description
        todo.set("UID", TextValue.escape(uid))
        todo.set("DTSTAMP", stamp)
        todo.set("LAST-MODIFIED", stamp)
        if todo.property("CREATED") == nil {
            todo.set("CREATED", DateTimeValue.utc(record.item.createdAt ?? context.now).description)
        }
        let sequence = todo.property("SEQUENCE").flatMap { Int($0.value) } ?? -1
        todo.set("SEQUENCE", String(min(max(sequence, -1), Int(Int32.max) - 1) + 1))
        let current = record.currentOccurrence(in: context)
        ItemProperties.write(record, currentPeriod: current?.dueDate, into: &todo)
        writeSchedule(record, current: current, into: &todo, context: context)
        LedgerProperties.write(record.ledger, into: &todo)
        AlarmProperties.write(record, into: &todo, summary: ItemProperties.summary(of: record.item), context: context)

        calendar.components.removeAll { $0.name == "VTODO" }
        let zoneID = context.zone.identifier
        calendar.components.removeAll { $0.name == "VTIMEZONE" && $0.property("TZID")?.text == zoneID }
        let timezone = TimeZoneComponent.build(context.zone, around: current?.due ?? context.now)
        let firstNonZone = calendar.components.firstIndex { $0.name != "VTIMEZONE" } ?? calendar.components.count
        calendar.components.insert(timezone, at: firstNonZone)
        calendar.components.append(todo)
        return calendar
    }

    /// DUE, DTSTART, RRULE and the completion state for the current occurrence (`CANCELLED` for a
    /// cancelled subscription, its last DUE kept). A free trial's
    /// last day is written without RRULE: a series starting on it would count it as a charge,
    /// and a weekly or 30-day rule would step from it onto days that are never charged; the
    /// renewals' rule comes once the current occurrence is the first charge.
    private static func writeSchedule(
        _ record: SyncRecord, current: Occurrence?, into todo: inout Component, context: SyncContext
    ) {
        let zone = context.zone
        if case .subscription(let subscription) = record.item.schedule, subscription.cancelled != nil {
            // A cancelled subscription has no occurrence left: without this a phone kept showing
            // an open task due on the trial's last day. An Undo writes the schedule back.
            todo.remove("RRULE")
            todo.remove("COMPLETED")
            todo.set("STATUS", "CANCELLED")
            return
        }
        guard let current else { return }
        let due = DateTimeValue(local: current.key(in: zone), zoneID: zone.identifier)
        todo.set(due.property("DUE"))
        let done = record.ledger.entry(for: current.key(in: zone))
        var trialEnd = false
        if case .subscription(let subscription) = record.item.schedule {
            trialEnd = subscription.trialEnds == current.dueDate
        }
        if record.repeats, !trialEnd, let rule = CalendarRecurrence.rule(for: record.item, first: current.dueDate) {
            todo.set(due.property("DTSTART"))
            todo.set("RRULE", rule)
            if todo.property("X-KDE-LIBKCAL-DTRECURRENCE") != nil {
                todo.set(due.property("X-KDE-LIBKCAL-DTRECURRENCE"))
            }
        } else {
            todo.remove("RRULE")
            // A start after the new due date (a rebuy re-dated backwards) would make the task invalid.
            if let start = todo.property("DTSTART").flatMap({ DateTimeValue(text: $0.value)?.wallClock }),
                start > current.key(in: zone)
            {
                todo.remove("DTSTART")
            }
        }
        if let done, !record.repeats {
            todo.set("STATUS", "COMPLETED")
            todo.set("PERCENT-COMPLETE", "100")
            todo.set("COMPLETED", DateTimeValue.utc(done.doneAt).description)
        } else {
            todo.set("STATUS", "NEEDS-ACTION")
            todo.set("PERCENT-COMPLETE", "0")
            todo.remove("COMPLETED")
        }
    }
}
