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

    /// The occurrences another client unticked: Undos made elsewhere, each a done occurrence of
    /// the resource's own ledger (`X-REMINDERD-DONE`, which clients keep) that the client now
    /// shows as not done, in a body another program wrote:
    /// - a one-off (coupon, rebuy) whose ledger holds the occurrence it shows, with
    ///   `STATUS:COMPLETED` and `COMPLETED` gone (any client unticking a ticked task);
    /// - a repeating master whose `DUE` (or `DTSTART`, or KOrganizer's
    ///   `X-KDE-LIBKCAL-DTRECURRENCE`) is back on a done occurrence before the one derived from
    ///   the ledger, and not completed (Tasks.org's, Apple's, Evolution's, Nextcloud's untick
    ///   moves the date back; a client that completed the master puts its status back): every
    ///   done occurrence from that date up to the derived one;
    /// - an override (`RECURRENCE-ID`) of a done occurrence that is not completed (Thunderbird,
    ///   jtx Board).
    /// A roll is never one: it moves the date forward, past the derived occurrence, to one the
    /// ledger does not hold.
    static func undone(_ calendar: Component, record: SyncRecord, context: SyncContext) -> [LocalDateTime] {
        guard let todo = VTodoReader.master(of: calendar), !record.ledger.entries.isEmpty else { return [] }
        let zone = context.zone
        let held = { (occurrence: Occurrence) in record.ledger.contains(occurrence.key(in: zone)) }
        var found: [LocalDateTime] = []
        for override in calendar.components where override.name == "VTODO" && isUnticked(override) {
            guard let date = override.dateTime("RECURRENCE-ID")?.onWallClock(of: context)?.date,
                let occurrence = record.occurrence(on: date, in: context), held(occurrence)
            else { continue }
            found.append(occurrence.key(in: zone))
        }
        guard calendar.property("PRODID")?.text != ownProductID, isUnticked(todo),
            let derived = record.currentOccurrence(in: context)
        else { return found }
        guard record.repeats else { return found + (held(derived) ? [derived.key(in: zone)] : []) }
        let shown = [date(todo, "DUE", context) ?? date(todo, "DTSTART", context),
                     date(todo, "X-KDE-LIBKCAL-DTRECURRENCE", context)].compactMap { $0 }
        for date in shown where date < derived.dueDate {
            guard let occurrence = record.occurrence(on: date, in: context), held(occurrence) else { continue }
            found += record.ledger.entries.map(\.occurrence).filter { $0.date >= date && $0.date < derived.dueDate }
        }
        var unique: [LocalDateTime] = []
        for key in found where !unique.contains(key) { unique.append(key) }
        return unique
    }

    /// The date a repeating master shows when another client moved it to a day that is not one
    /// of the item's occurrences: an edit reminderd does not take, because the date is derived
    /// from the item's rules and the ledger (the writer puts `derived` back). Nil when the date
    /// is an occurrence (a roll, an untick, or one that expired since) or in reminderd's own body.
    static func movedDate(_ calendar: Component, record: SyncRecord, context: SyncContext)
        -> (shown: LocalDate, derived: LocalDate)?
    {
        guard record.repeats, calendar.property("PRODID")?.text != ownProductID,
            let todo = VTodoReader.master(of: calendar),
            let shown = date(todo, "DUE", context) ?? date(todo, "DTSTART", context),
            let derived = record.currentOccurrence(in: context)?.dueDate, shown != derived,
            record.occurrence(on: shown, in: context) == nil
        else { return nil }
        return (shown, derived)
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

    /// Not done and not cancelled: how a client leaves a task it unticked.
    static func isUnticked(_ todo: Component) -> Bool {
        !isCompleted(todo) && todo.property("STATUS")?.value.uppercased() != "CANCELLED"
    }

    static func isCompleted(_ todo: Component) -> Bool {
        todo.property("STATUS")?.value.uppercased() == "COMPLETED" || todo.property("COMPLETED") != nil
    }
}
