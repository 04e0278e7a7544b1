import CivilTime
import ReminderCore
import ReminderJSON
import ReminderStore

/// The reminders gone through one at a time (a grouped pop-up's "One at a time") are as durable
/// as one on screen (issue 27, defect 5): they were recorded fired with their group, so nothing
/// else would show them again, and a restart in the middle would lose every one still waiting
/// its turn. They are stored whenever they change and gone through again after a start.
extension DeliveryController {
    /// Stores the reminders being gone through one at a time when they changed since last stored
    /// (after each change the engine publishes); after another program's lock on the store is
    /// let go (`LockedCalls`), so that a walk goes on meanwhile. A failure is logged: they are
    /// still gone through while this run lasts.
    func persistTurn() {
        let queue = outbox.turnQueue
        guard !(queue.isEmpty && storedTurn == nil) else { return }
        let text = queue.isEmpty ? nil : DeliveryController.encodeTurn(queue, shownAs: outbox.turnOnScreen)
        guard text != storedTurn else { return }
        storedTurn = text
        core.writeUnlessLocked("cannot store the reminders shown one at a time (a restart now would lose them)") {
            [store] () throws(ReminderStoreError) in try store.saveTurn(text)
        }
    }

    /// At start: the reminders a previous run was going through one at a time, those still due,
    /// queued again in their order; the first goes out once a server is known (`showNextInTurn`),
    /// in place of the pop-up it had on that server.
    func restoreTurn(now: Int64) throws(ReminderStoreError) {
        guard let text = try store.savedTurn() else { return }
        storedTurn = text
        guard let (events, shownAs) = DeliveryController.decodeTurn(text) else {
            logger.error("the stored reminders shown one at a time are unreadable and were dropped: \(text)")
            return
        }
        outbox.goThrough(events.filter { stillDue($0, now: now) })
        turnShownBefore = shownAs
    }

    /// How many reminders are being gone through one at a time (Status, `upcoming`).
    var inTurnCount: Int { outbox.turnQueue.count }

    /// `{"shownAs": id, "reminders": [{"item", "due", "date", "lead", "fires": [[at, lead], …]}, …]}`.
    static func encodeTurn(_ events: [ScheduledEvent], shownAs: UInt32?) -> String {
        var fields: [String: JSONValue] = ["reminders": remindersJSON(events)]
        if let shownAs { fields["shownAs"] = .integer(Int64(shownAs)) }
        return String(decoding: JSONValue.object(fields).serialized(), as: UTF8.self)
    }

    /// Reminders as stored (the turn's, those to show again after a start): their item, occurrence and fires.
    static func remindersJSON(_ events: [ScheduledEvent]) -> JSONValue {
        var reminders: [JSONValue] = []
        for case .fire(let itemId, let occurrence, let fires, let lead, _) in events {
            reminders.append(
                .object([
                    "item": .string(itemId), "due": .integer(occurrence.due),
                    "date": .integer(occurrence.dueDate.dayNumber), "lead": .string(lead),
                    "fires": .array(fires.map { .array([.integer($0.at), .string($0.lead)]) }),
                ]))
        }
        return .array(reminders)
    }

    /// The reminders `encodeTurn` wrote, and the server id of the one on screen; nil when unreadable.
    static func decodeTurn(_ text: String) -> (events: [ScheduledEvent], shownAs: UInt32?)? {
        guard case .object(let fields)? = try? JSONValue.parse(Array(text.utf8), source: "turn"),
            let events = decodeReminders(fields["reminders"])
        else { return nil }
        var shownAs: UInt32?
        if case .integer(let id)? = fields["shownAs"], let server = UInt32(exactly: id) { shownAs = server }
        return (events, shownAs)
    }

    /// The reminders `remindersJSON` wrote; nil when unreadable.
    static func decodeReminders(_ value: JSONValue?) -> [ScheduledEvent]? {
        guard case .array(let reminders)? = value else { return nil }
        var events: [ScheduledEvent] = []
        for reminder in reminders {
            guard case .object(let fields) = reminder, case .string(let itemId)? = fields["item"],
                case .integer(let due)? = fields["due"], case .integer(let day)? = fields["date"],
                case .string(let lead)? = fields["lead"], case .array(let list)? = fields["fires"]
            else { return nil }
            var fires: [ReminderFire] = []
            for fire in list {
                guard case .array(let pair) = fire, pair.count == 2, case .integer(let at) = pair[0],
                    case .string(let lead) = pair[1]
                else { return nil }
                fires.append(ReminderFire(at: at, lead: lead))
            }
            let occurrence = Occurrence(due: due, dueDate: LocalDate(dayNumber: day))
            events.append(.fire(itemId: itemId, occurrence: occurrence, fires: fires, lead: lead, late: nil))
        }
        return events
    }
}
