import CivilTime
import ICalendar
import ReminderCore
import ReminderPlatform
import ReminderStore
import ReminderSyncModel

/// Between the engine's items (with their occurrence records) and the sync model's records and
/// resources (docs/SYNC-FORMAT.md).
extension SyncEndpoint {
    /// What converting needs: this daemon's rules and leads, `now`, and the zone database for
    /// times other clients wrote in their own zone.
    func syncContext(now: Int64) -> SyncContext {
        SyncContext(
            planner: Planner(configuration: core.configuration, zone: zone), now: now,
            zoneNamed: { try? ZoneDatabase.shared.zone(named: $0) },
            otherTasks: core.configuration.sync?.otherTasks ?? false)
    }

    /// The item as a record: its done occurrences are the ledger; acknowledgements and the
    /// used amount's period start from `base` (what the server last agreed to), so that a
    /// record built again with nothing changed here equals the base — the merge counts only
    /// real local changes as changes. `acknowledged` is the item's last acknowledgement here
    /// (`SyncObject.acknowledgedAt`: a dismiss leaves no other trace). A Done here later than
    /// every acknowledgement the base holds ends the snooze the base has (it was of that
    /// occurrence or an earlier one); left on the server, another device would take it for a
    /// snooze of the next occurrence. Only the current occurrence's snooze is pushed, and with
    /// an acknowledgement newer than the latest Done, as a reader wants (`snoozeEndedByDone`):
    /// a snooze in the same second as the Done before it is acknowledged one second after it.
    func syncRecord(of item: Item, base: SyncRecord?, acknowledged: Int64? = nil, context: SyncContext) -> SyncRecord
    {
        var record = SyncRecord(item: item, alarms: base?.alarms ?? AlarmState())
        var lastAcknowledged = acknowledged
        var snoozes: [Int64: Int64] = [:]
        for occurrence in (occurrences[item.id ?? ""] ?? [:]).values {
            if occurrence.doneAt == nil, let until = occurrence.snoozedUntil { snoozes[occurrence.due] = until }
            guard let doneAt = occurrence.doneAt else { continue }
            if doneAt > base?.alarms.lastAcknowledged ?? .min { record.alarms.snoozedUntil = nil }
            let key = zone.localDateTime(at: occurrence.due)
            // An amount another device wrote stays with its entry.
            let known = base?.ledger.entry(for: key).flatMap { $0.doneAt == doneAt ? $0 : nil }
            record.ledger.record(known ?? DoneEntry(occurrence: key, doneAt: doneAt))
            lastAcknowledged = max(lastAcknowledged ?? doneAt, doneAt)
        }
        if let lastAcknowledged, lastAcknowledged > record.alarms.lastAcknowledged ?? .min {
            record.alarms.lastAcknowledged = lastAcknowledged
        }
        // The snooze that reminds here: the current occurrence's (the first not done), even when
        // earlier than the base's. Another occurrence's — of the next one, made after a Done that
        // an Undo took back — is not the server's to hold: a reader puts the task's snooze on its
        // current occurrence. With none here, the base's stays (a pull put it on the current
        // occurrence, unless it had ended).
        let ledger = record.ledger
        let current = rules.firstOccurrence(of: item, dueAfter: context.now) {
            !ledger.contains(zone.localDateTime(at: $0.due))
        }
        let snoozedUntil = current.flatMap { snoozes[$0.due] }
        if let snoozedUntil { record.alarms.snoozedUntil = snoozedUntil }
        if let snoozedUntil, record.alarms.snoozedUntil == snoozedUntil, SyncEndpoint.snoozeEndedByDone(record),
            let lastDone = record.ledger.entries.map(\.doneAt).max()
        {
            // Snoozed here in the second of the latest Done, after it (the snooze is of an
            // occurrence not done): a reader would take the snooze for one the Done ended.
            record.alarms.lastAcknowledged = lastDone + 1
        }
        if let used = record.amountUsed {
            // The item's own period (stamped by every Done and on the way in; as the server last
            // agreed, else the current period, only for an item that has none). An amount of a
            // period that is over is left out, as a reader of the server's copy leaves it out
            // (VTodoReader): kept, it would differ from every copy read back, and be pushed again.
            let current = record.currentOccurrence(in: context)?.dueDate
            let period =
                record.amountUsedPeriod ?? (base?.amountUsed == used ? base?.amountUsedPeriod : nil) ?? current
            if let period, let current, period < current {
                (record.amountUsed, record.amountUsedPeriod) = (nil, nil)
            } else {
                record.amountUsedPeriod = period
            }
        }
        return record
    }

    /// The server's body `text` of `href` read back (nil when there is none, or it no longer
    /// reads as an item), and its component tree, which a write edits in place.
    func readBase(_ text: String?, href: String, context: SyncContext) -> (
        record: SyncRecord?, calendar: Component?
    ) {
        guard let text else { return (nil, nil) }
        let bytes = Array(text.utf8)
        if let reading = try? VTodoReader.read(bytes, name: href, context: context) {
            return (reading.record, reading.calendar)
        }
        return (nil, try? Component.parse(bytes))
    }

    /// The body to PUT for `item`: its record written into the server's last body (so what other
    /// clients added there survives), or into a new resource. Another app's task changes only in
    /// its completion and alarm state (`TaskListTask.write`).
    func syncBody(of item: Item, object: SyncObject, href: String, context: SyncContext) -> String {
        let base = readBase(object.body, href: href, context: context)
        let record = syncRecord(of: item, base: base.record, acknowledged: object.acknowledgedAt, context: context)
        if item.isFromTaskList, let calendar = base.calendar {
            return TaskListTask.write(record, into: calendar, context: context).serialized()
        }
        return VTodoWriter.write(record, uid: object.uid, into: base.calendar, context: context).serialized()
    }

    /// A new resource's href: the task list's path and `<uuid>.ics`.
    static func syncHref(collection: String, uid: String) -> String {
        var path = Substring(collection)
        if let scheme = path.firstRange(of: "://") {
            path = path[scheme.upperBound...]
            path = path.firstIndex(of: "/").map { path[$0...] } ?? "/"
        }
        if let query = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<query] }
        let name = uid.hasSuffix("@reminderd") ? String(uid.dropLast("@reminderd".count)) : uid
        return path + (path.hasSuffix("/") ? "" : "/") + name + ".ics"
    }

    /// Two records the server would hold alike: the item id is each device's own alias.
    static func sameOnServer(_ a: SyncRecord, _ b: SyncRecord) -> Bool {
        var (a, b) = (a, b)
        (a.item.id, b.item.id) = (nil, nil)
        return a == b
    }

    /// The due instant of a ledger key (the occurrence's due time on the wall clock).
    func dueInstant(of key: LocalDateTime) -> Int64 { zone.resolve(key).instant }
}
