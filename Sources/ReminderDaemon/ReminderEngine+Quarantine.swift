import ReminderCore
import ReminderJSON
import ReminderProtocol
import ReminderStore

extension ReminderEngine {
    /// How `list` and `show` present an item whose stored data cannot be read: status
    /// "unreadable", the reason, and the way out.
    func quarantinedView(_ item: QuarantinedItem) -> ItemView {
        ItemView(fields: [
            "id": .string(item.id), "kind": .string("?"), "title": .string(item.title ?? "(unreadable)"),
            "status": .string(ItemStatus.unreadable.rawValue), "reason": .string(item.reason),
            "hint": .string("reminderctl remove \(item.id)"),
        ])
    }

    /// Deletes an unreadable item, stored first, with a history line.
    func removeQuarantined(_ item: QuarantinedItem, now: Int64) throws(EngineError) -> RemoveReply {
        do {
            try store.removeItem(id: item.id, title: item.title ?? "(unreadable)", reason: "was unreadable", at: now)
        } catch { throw EngineError.store(error) }
        index.remove(item.id)
        return RemoveReply(id: item.id)
    }
}
