import CivilTime
import ICalendar
import ReminderCore

/// Another app's task (no `X-REMINDERD-KIND`: Tasks.org, Thunderbird, Endeavour, jtx Board) read
/// as a one-off reminder when `sync.otherTasks` is on, and written back by changing only what
/// Done, Undo, a snooze or a dismissal change — everything else stays as that app wrote it
/// (docs/SYNC-FORMAT.md, "Other apps' tasks").
///
/// A repeating task (`RRULE`) is not read: completing one of its occurrences is each app's own
/// roll of the series (Tasks.org moves DUE, Thunderbird writes an override), and a
/// `STATUS:COMPLETED` written on the master would end the whole series for all of them.
public enum TaskListTask {
    /// The title a task without a summary is shown with.
    static let untitled = "(untitled task)"

    /// `todo` as a record, or nil when it is not reminded: no DUE (or one outside reminderd's
    /// years), or repeating. Its DUE is the coupon's expiry; each VALARM's trigger a lead (none:
    /// the configured leads); COMPLETED or CANCELLED a Done of that occurrence.
    public static func record(of todo: Component, context: SyncContext) -> SyncRecord? {
        guard todo.property("RRULE") == nil, let dueValue = todo.dateTime("DUE"),
            let due = dueValue.onWallClock(of: context)
        else { return nil }
        let expiry: Coupon.Expiry = dueValue.isDate ? .date(due.date) : .dateTime(due)
        let occurrence =
            dueValue.isDate ? context.rules.occurrence(dueOn: due.date) : context.rules.occurrence(dueAt: due)
        let title = plain(todo.property("SUMMARY")?.text ?? "", limit: 100, multiline: false)
        let notes = plain(todo.property("DESCRIPTION")?.text ?? "", limit: 500, multiline: true)
        let leads = self.leads(of: todo, occurrence: occurrence, dateOnly: dueValue.isDate, context: context)
        let item = Item(
            title: title.isEmpty ? untitled : title, notes: notes.isEmpty ? nil : notes,
            lead: leads.isEmpty ? nil : leads, createdAt: todo.dateTime("CREATED")?.instant(in: context),
            schedule: .coupon(Coupon(expires: expiry, taskList: true)))
        var record = SyncRecord(item: item)
        if isFinished(todo) {
            record.ledger.record(
                DoneEntry(occurrence: occurrence.key(in: context.zone), doneAt: todo.completionTime(in: context)))
        }
        record.alarms = AlarmProperties.read(todo, context: context)
        return record
    }

    /// `calendar` (the server's body) with the master VTODO's completion and alarm state set to
    /// `record`'s, and nothing else touched: a Done is `STATUS:COMPLETED`, `COMPLETED` (now, in
    /// UTC) and `PERCENT-COMPLETE:100`, as those apps write it; an Undo puts it back to
    /// `NEEDS-ACTION`; acknowledgements and snoozes go as `X-MOZ-LASTACK` and `X-MOZ-SNOOZE-TIME`.
    /// A task already finished the same way (or CANCELLED) keeps its own stamps.
    public static func write(_ record: SyncRecord, into calendar: Component, context: SyncContext) -> Component {
        var calendar = calendar
        // Only a master VTODO is reminded (`read`); a body without one is left as the other app wrote it.
        if let index = VTodoReader.masterIndex(of: calendar) {
            write(record, into: &calendar.components[index], context: context)
        }
        return calendar
    }

    private static func write(_ record: SyncRecord, into todo: inout Component, context: SyncContext) {
        let done = record.currentOccurrence(in: context).flatMap { record.ledger.entry(for: $0.key(in: context.zone)) }
        if let done, !isFinished(todo) {
            todo.set("STATUS", "COMPLETED")
            todo.set("COMPLETED", DateTimeValue.utc(done.doneAt).description)
            todo.set("PERCENT-COMPLETE", "100")
        } else if done == nil, isFinished(todo) {
            todo.set("STATUS", "NEEDS-ACTION")
            todo.remove("COMPLETED")
            if todo.property("PERCENT-COMPLETE") != nil { todo.set("PERCENT-COMPLETE", "0") }
        }
        if record.alarms != AlarmProperties.read(todo, context: context) {
            AlarmProperties.writeAcknowledgements(record.alarms, into: &todo)
        }
    }

    /// Whether the app counts the task as finished: completed or cancelled.
    static func isFinished(_ todo: Component) -> Bool {
        ForeignCompletions.isCompleted(todo) || todo.property("STATUS")?.value.uppercased() == "CANCELLED"
    }

    /// One lead per alarm: how long before the due moment it rings. An alarm on the due moment or
    /// after it rings a minute before it (a reminder comes before its due time). A date-only DUE takes a
    /// relative trigger in whole days (`-P1D`: the day before, at the reminder time); any other
    /// trigger is elapsed time before the due instant.
    static func leads(of todo: Component, occurrence: Occurrence, dateOnly: Bool, context: SyncContext)
        -> [CalendarDuration]
    {
        var leads: [CalendarDuration] = []
        for alarm in todo.components("VALARM") {
            guard let trigger = alarm.property("TRIGGER") else { continue }
            var lead: CalendarDuration
            if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" {
                guard let at = DateTimeValue(text: trigger.value)?.instant(in: context) else { continue }
                lead = minutes(before: occurrence.due, at)
            } else {
                guard let offset = DurationValue(text: trigger.value) else { continue }
                let fromStart = (trigger.parameter("RELATED")?.uppercased() ?? "START") == "START"
                let start = fromStart ? todo.dateTime("DTSTART")?.instant(in: context) : nil
                if dateOnly, start == nil {
                    let days = max(0, -offset.approximateSeconds + 86_399) / 86_400
                    lead = CalendarDuration(Int(days), .days)
                } else {
                    lead = minutes(before: occurrence.due, (start ?? occurrence.due) + offset.approximateSeconds)
                }
            }
            if lead.count > 366 * 24 * 60 { lead = CalendarDuration(366, .days) }
            if !leads.contains(lead) { leads.append(lead) }
        }
        return leads
    }

    /// The elapsed-time lead of an alarm at `at` for a task due at `due`: at least a minute.
    private static func minutes(before due: Int64, _ at: Int64) -> CalendarDuration {
        CalendarDuration(Int(max(60, due - at) / 60), .minutes)
    }

    /// Text from another app as an item holds it: control characters (other than a
    /// description's line breaks and tabs) as spaces, trimmed, at most `limit` characters.
    static func plain(_ text: String, limit: Int, multiline: Bool) -> String {
        let scalars = text.unicodeScalars.map { scalar -> Unicode.Scalar in
            let kept = multiline && (scalar == "\n" || scalar == "\t")
            return scalar.properties.generalCategory == .control && !kept ? " " : scalar
        }
        var cleaned = String(String.UnicodeScalarView(scalars))
        cleaned = String(cleaned.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        return String(cleaned.prefix(limit))
    }
}
