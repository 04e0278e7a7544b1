import CivilTime
import ICalendar
import ReminderCore

/// The ways other clients complete one occurrence of a repeating task, each read as
/// "occurrence X done at T":
/// - the master's `DUE`/`DTSTART` moved forward to a later occurrence (Apple Reminders,
///   Tasks.org, Evolution, Nextcloud Tasks): every occurrence from the old due date up to the
///   new one;
/// - an override (`RECURRENCE-ID`) with `STATUS:COMPLETED` (Thunderbird, jtx Board);
/// - `X-KDE-LIBKCAL-DTRECURRENCE` moved forward (KOrganizer), like a moved `DUE`;
/// - `STATUS:COMPLETED` on the repeating master (a client ending the series by mistake): the
///   occurrence it shows.
/// For one-offs, `STATUS:COMPLETED` is the completion.
///
/// A date counts as moved when it is later than the occurrence reminderd derives from the
/// resource's own ledger: the client kept the ledger, so that is the date it saw (or an earlier
/// one, when an occurrence expired since; a late completion of an expired credit is missed, which
/// changes nothing). Comparing with the body this device last saw instead would miss a phone's
/// roll made after another device's Undo. Moved dates and a completed master count only in a body
/// another program wrote (its PRODID is not reminderd's): reminderd itself rolls a master past
/// an occurrence that expired undone, which is not a Done. A date moved to a day that is not an
/// occurrence is an edit, not a Done.
enum ForeignCompletions {
    static let ownProductID = "-//reminderd//reminderd-sync//EN"

    static func read(_ calendar: Component, record: SyncRecord, context: SyncContext)
        -> [(Occurrence, Int64)]
    {
        guard let todo = VTodoReader.master(of: calendar) else { return [] }
        let foreignWriter = calendar.property("PRODID")?.text != ownProductID
        let completed = isCompleted(todo)
        guard record.repeats else {
            guard completed, let current = record.currentOccurrence(in: context) else { return [] }
            return [(current, todo.completionTime(in: context))]
        }
        var found: [(Occurrence, Int64)] = []
        for override in calendar.components where override.name == "VTODO" && isCompleted(override) {
            guard let date = override.dateTime("RECURRENCE-ID")?.onWallClock(of: context)?.date,
                let occurrence = record.occurrence(on: date, in: context)
            else { continue }
            found.append((occurrence, override.completionTime(in: context)))
        }
        guard foreignWriter else { return found }
        let expected = record.currentOccurrence(in: context)?.dueDate
        let remoteDue = date(todo, "DUE", context) ?? date(todo, "DTSTART", context)
        let doneAt = todo.completionTime(in: context)
        for moved in [remoteDue, date(todo, "X-KDE-LIBKCAL-DTRECURRENCE", context)] {
            guard let expected, let moved else { continue }
            found += movedForward(record, from: expected, to: moved, context).map { ($0, doneAt) }
        }
        if completed, let shown = remoteDue, let occurrence = record.occurrence(on: shown, in: context) {
            found.append((occurrence, doneAt))
        }
        return found
    }

    /// The occurrences in `[from, to)` when `to` is a later occurrence date; none otherwise.
    private static func movedForward(_ record: SyncRecord, from: LocalDate, to: LocalDate, _ context: SyncContext)
        -> [Occurrence]
    {
        guard to > from, record.occurrence(on: to, in: context) != nil else { return [] }
        return record.occurrences(from: from, to: to, in: context)
    }

    private static func date(_ todo: Component, _ name: String, _ context: SyncContext) -> LocalDate? {
        todo.dateTime(name)?.onWallClock(of: context)?.date
    }

    static func isCompleted(_ todo: Component) -> Bool {
        todo.property("STATUS")?.value.uppercased() == "COMPLETED" || todo.property("COMPLETED") != nil
    }
}
