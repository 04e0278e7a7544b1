import CivilTime
import ReminderCore
import ReminderStore

/// What an interrupted run left undone — reminderd stopped, or the machine slept — worked out
/// from plain values (the items with their records and accepted fires, the rules, now): the
/// reminders a previous run handed to the server without recording the outcome, and the
/// occurrences that passed meanwhile with a reminder never shown. The engine reads the store,
/// asks this, and writes and shows the outcome; nothing here changes anything.
struct InterruptedRun {
    let index: ItemIndex
    let rules: FireTimeRules
    /// The configured lead times, for items without their own.
    let leadTimes: [CalendarDuration]
    let now: Int64

    /// The deliveries a previous run left without an outcome, sorted: those of an occurrence still
    /// ahead and not done are `owed` (the start's planning shows them once more, late; see
    /// `DeliveryRecord`); an occurrence that passed meanwhile is reported missed (`missed`), as
    /// `lastSeen` never passed its due time. The rest (shown after all, done, gone) are `settled`:
    /// their rows end.
    func owed(_ deliveries: [DeliveryRecord]) -> (owed: Set<FireKey>, settled: [DeliveryRecord]) {
        var owed: Set<FireKey> = []
        var settled: [DeliveryRecord] = []
        for record in deliveries {
            let key = FireKey(itemId: record.itemId, due: record.due, fireAt: record.fireAt)
            if record.due > now, !index.fired.contains(key),
                index.record(of: record.itemId, due: record.due)?.doneAt == nil
            {
                owed.insert(key)
            } else {
                settled.append(record)
            }
        }
        return (owed, settled)
    }

    /// At start: occurrences that passed since `lastSeen` (or their item's creation), not done
    /// nor recorded passed — `missed` those with a reminder never shown, `expired` the others
    /// (every reminder shown before the stop, or none to show), which a running reminderd would
    /// have recorded when their due moment came.
    func passed(since lastSeen: Int64?) -> (missed: [(Item, Occurrence)], expired: [(Item, Occurrence)]) {
        var missed: [(Item, Occurrence)] = []
        var expired: [(Item, Occurrence)] = []
        // Every item at every start: one fire-time buffer for all, one lookup of fires per item.
        var fires: [FireTime] = []
        for id in index.order {
            guard let item = index.items[id], let createdAt = item.createdAt else { continue }
            let from = max(lastSeen ?? createdAt, createdAt)
            let shown = index.fired.of(id)
            rules.forEachOccurrence(of: item, dueAfter: from, before: now + 1) { occurrence in
                let record = index.record(of: id, due: occurrence.due)
                guard record?.doneAt == nil, record?.passedAt == nil else { return true }
                fires.removeAll(keepingCapacity: true)
                rules.fireTimes(of: occurrence, leads: item.lead ?? leadTimes, createdAt: createdAt, into: &fires)
                if fires.contains(where: {
                    !shown.contains(due: occurrence.due, ReminderFire(at: $0.fireAt, lead: $0.lead.description))
                }) {
                    missed.append((item, occurrence))
                } else {
                    expired.append((item, occurrence))
                }
                return true
            }
        }
        return (missed, expired)
    }

    /// How passed occurrences are recorded: passed now, and `event` (`missed`, or `expired`) in
    /// history, due when and `reason`.
    func passes(of missed: [(Item, Occurrence)], event: HistoryEvent = .missed, reason: String) -> [(
        occurrence: OccurrenceRecord, history: HistoryRecord
    )] {
        missed.compactMap { item, occurrence in
            guard let id = item.id else { return nil }
            var record = index.record(of: id, due: occurrence.due) ?? OccurrenceRecord(itemId: id, due: occurrence.due)
            record.passedAt = now
            return (
                record,
                HistoryRecord(
                    at: now, itemId: id, title: item.title, event: event,
                    reason: "due \(Timestamp.format(occurrence.due, in: rules.zone)) \(reason)")
            )
        }
    }

    /// The one "While You Were Away" pop-up that names `missed`.
    static func notice(naming missed: [(Item, Occurrence)]) -> NotificationRequest {
        let titles = missed.map { $0.0.title }
        let body =
            titles.count == 1
            ? "\(titles[0]) passed while you were away"
            : "\(titles.count) deadlines passed while you were away: \(titles.prefix(5).joined(separator: ", "))\(titles.count > 5 ? ", …" : "")"
        return NotificationRequest(
            summary: "While You Were Away", body: body, urgency: .normal, category: "x-reminderd.missed",
            timeoutMilliseconds: 0)
    }
}
