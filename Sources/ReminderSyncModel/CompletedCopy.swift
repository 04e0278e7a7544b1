import CivilTime
import ICalendar
import ReminderCore

/// Apple Reminders completes one occurrence of a repeating reminder by moving the master
/// forward and writing a completed copy under a new UID. The copy is a completion record, not a
/// new item: this finds which item and occurrence it records.
public enum CompletedCopy {
    /// An item the device knows, as last written to the server.
    public struct Known: Sendable {
        public var uid: String
        public var record: SyncRecord

        public init(uid: String, record: SyncRecord) {
            self.uid = uid
            self.record = record
        }
    }

    /// The item (by UID) and occurrence that `calendar` records as done, when it is a completed
    /// one-off task under a UID none of `known` has, whose SUMMARY (or copied `X-REMINDERD-ITEM-ID`)
    /// names a known repeating item, and whose DUE is one of that item's occurrences.
    public static func match(_ calendar: Component, known: [Known], context: SyncContext) -> (
        uid: String, entry: DoneEntry
    )? {
        guard let todo = VTodoReader.master(of: calendar), ForeignCompletions.isCompleted(todo),
            todo.property("RRULE") == nil, let uid = todo.property("UID")?.text,
            !known.contains(where: { $0.uid == uid }),
            let due = todo.dateTime("DUE")?.onWallClock(of: context)?.date
        else { return nil }
        let summary = todo.property("SUMMARY")?.text
        let itemID = todo.property(ItemProperties.propertyName("id"))?.text
        for candidate in known where candidate.record.repeats {
            let item = candidate.record.item
            let named = (itemID != nil && itemID == item.id) || summary == ItemProperties.summary(of: item)
            guard named, let occurrence = candidate.record.occurrence(on: due, in: context) else { continue }
            let entry = DoneEntry(
                occurrence: occurrence.key(in: context.zone), doneAt: todo.completionTime(in: context))
            return (candidate.uid, entry)
        }
        return nil
    }
}
