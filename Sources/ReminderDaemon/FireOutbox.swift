import ReminderCore
import ReminderStore

/// The reminders that came due, from the moment the wheel lets go of them until they are gone
/// (shown and closed, done, or no longer due): handed to the server and not answered yet (in
/// flight), on screen (alone or in a group), waiting for a server (none on the bus, or it refused),
/// held (reminderd's pause or the desktop's do-not-disturb), held for a refresh (reminderd-sync
/// pulls their items first), or to be shown again on the next server (on screen, or unanswered,
/// when the last one went away), or gone through one at a time (a grouped pop-up's "One at a
/// time": each shown alone in turn). Beside them, two kinds of pop-up that are no reminders:
/// notices waiting for a server, and Undo offers on screen.
///
/// Invariant: a fire — one reminder of one occurrence, `FireKey` — is in exactly one place: no
/// two places, nor twice in one, hold it; a server id names one pop-up, alone or grouped; a pop-up
/// on screen is filed under its own reminder's item and due instant.
struct FireOutbox {
    typealias Event = ReminderEngine.ScheduledEvent

    /// Where a reminder is kept until it can go out.
    enum Place {
        /// No server can take it (none on the bus, or it refused): sent when one appears, or retried.
        case waiting
        /// Paused, or the desktop's do-not-disturb: sent, as a digest, when that ends.
        case held
        /// Held for a refresh, a place of its own: reminderd-sync was asked to pull the items
        /// first (a Done made on another device is not shown here); sent when the pull comes or
        /// 2 s pass, if still due (`ReminderEngine.advance`, `SyncEndpoint.refresh`).
        case refreshing
        /// May be on the screen of a server that went away: shown again, once, on the next.
        case repost
    }

    /// A reminder on screen, and what it was shown for (to show it again on a new server).
    struct PopUp {
        let itemId: String
        let due: Int64
        let event: Event
    }

    private(set) var waiting: [Event] = []
    private(set) var held: [Event] = []
    private(set) var refreshing: [Event] = []
    private(set) var repost: [Event] = []
    /// Pop-ups on screen: server id → (item, due).
    private(set) var onScreen: [UInt32: PopUp] = [:]
    /// Grouped pop-ups on screen (several reminders at one instant): server id → their reminders.
    private(set) var groupsOnScreen: [UInt32: [Event]] = [:]
    /// Those of `groupsOnScreen` that are the pause's digest (shown again as one, not as a burst).
    private(set) var digestsOnScreen: Set<UInt32> = []
    /// Reminders of grouped pop-ups being gone through one at a time, those still to come, in
    /// order; the one being shown is in flight or on screen under `turn`.
    private(set) var inTurn: [Event] = []
    /// The reminder being gone through: handed to the server (its ticket), or on screen (its id).
    private(set) var turn: Turn?

    /// Where the reminder shown in turn is (`turn`).
    enum Turn: Equatable {
        case inFlight(ticket: UInt64)
        case onScreen(id: UInt32)
    }
    /// Reminders handed to the server, by the ticket their answer brings back.
    private var inFlight: [UInt64: [Event]] = [:]
    private var nextTicket: UInt64 = 0
    /// Pop-ups that are no reminders (the missed ones' summary) waiting for a server.
    private(set) var notices: [NotificationRequest] = []
    /// "Done" confirmations on screen with an Undo button: server id → item.
    private(set) var undoOffers: [UInt32: String] = [:]

    /// Keeps a notice (a pop-up that is no reminder) until a server is known.
    mutating func keepNotice(_ request: NotificationRequest) { notices.append(request) }

    /// Takes the notices kept for a server, oldest first.
    mutating func takeNotices() -> [NotificationRequest] {
        defer { notices.removeAll() }
        return notices
    }

    /// A "Done" confirmation is on screen as server id `id`, its Undo button undoing `itemId`'s Done.
    mutating func offerUndo(_ id: UInt32, for itemId: String) { undoOffers[id] = itemId }

    /// The item whose Done the Undo button of pop-up `id` undoes, taken: pressed once, it is gone.
    mutating func takeUndoOffer(_ id: UInt32) -> String? { undoOffers.removeValue(forKey: id) }

    /// Keeps `events` in `place`; `reason`, when given, is why they go out late (`LateReason`),
    /// noted on each unless an earlier delay already is.
    mutating func keep(_ events: [Event], in place: Place, because reason: LateReason? = nil) {
        for event in events { keep(event, in: place, because: reason) }
    }

    mutating func keep(_ event: Event, in place: Place, because reason: LateReason? = nil) {
        let event = reason.map { event.delayed($0) } ?? event
        switch place {
        case .waiting: FireOutbox.add(event, to: &waiting)
        case .held: FireOutbox.add(event, to: &held)
        case .refreshing: FireOutbox.add(event, to: &refreshing)
        case .repost: FireOutbox.add(event, to: &repost)
        }
    }

    /// Appends `event`, or — a reminder of the same occurrence of the same item is kept there
    /// already — joins its fires to that one, so an occurrence waits as one reminder and is shown
    /// once. (An overdue rebuy's reminder waiting for a server, then a Done and its Undo: the
    /// Undo plans a second one, and both were shown when a server came.)
    private static func add(_ event: Event, to list: inout [Event]) {
        guard case .fire(let itemId, let occurrence, let fires, let lead, let late) = event,
            let at = list.firstIndex(where: {
                guard case .fire(let id, let kept, _, _, _) = $0 else { return false }
                return id == itemId && kept == occurrence
            }),
            case .fire(_, _, let keptFires, let keptLead, let keptLate) = list[at]
        else {
            list.append(event)
            return
        }
        let joined = (keptFires + fires.filter { !keptFires.contains($0) }).sorted { $0.at < $1.at }
        let newer = (fires.map(\.at).max() ?? .min) >= (keptFires.map(\.at).max() ?? .min)
        list[at] = .fire(
            itemId: itemId, occurrence: occurrence, fires: joined, lead: newer ? lead : keptLead,
            late: late.map { LateReason.kept($0, after: keptLate) } ?? keptLate)
    }

    /// Takes the reminders waiting for a server and those to be shown again on it, one per
    /// occurrence: a repeat (`RepeatRule`) that came due while reminderd was stopped joins the
    /// reminder taken back from the screen at start, one late pop-up instead of two.
    mutating func takeForNewServer() -> [Event] {
        var merged: [Event] = []
        for event in waiting + repost { FireOutbox.add(event, to: &merged) }
        waiting.removeAll()
        repost.removeAll()
        return merged
    }

    /// Takes every reminder kept in `place`.
    mutating func take(_ place: Place) -> [Event] {
        switch place {
        case .waiting:
            defer { waiting.removeAll() }
            return waiting
        case .held:
            defer { held.removeAll() }
            return held
        case .refreshing:
            defer { refreshing.removeAll() }
            return refreshing
        case .repost:
            defer { repost.removeAll() }
            return repost
        }
    }

    /// Notes reminders as handed to the server; `answered` with the ticket gives them back.
    mutating func send(_ events: [Event]) -> UInt64 {
        nextTicket += 1
        inFlight[nextTicket] = events
        return nextTicket
    }

    /// The reminders of a ticket, once the server answered; the caller puts them where they go.
    mutating func answered(_ ticket: UInt64) -> [Event] { inFlight.removeValue(forKey: ticket) ?? [] }

    /// A reminder shown alone, as server id `id`.
    mutating func onScreen(_ event: Event, as id: UInt32) {
        onScreen[id] = PopUp(itemId: event.itemId, due: event.dueInstant, event: event)
    }

    /// Reminders shown as one pop-up, server id `id` (`digest`: the pause's digest).
    mutating func onScreen(group events: [Event], as id: UInt32, digest: Bool = false) {
        groupsOnScreen[id] = events
        if digest { digestsOnScreen.insert(id) }
    }

    /// Sets what grouped pop-up `id` stands for, now as server id `newId` (the same when the
    /// server kept it): reminders acknowledged elsewhere leave it, and it is re-shown without them.
    mutating func regroup(_ id: UInt32, as newId: UInt32, _ events: [Event]) {
        groupsOnScreen[id] = nil
        groupsOnScreen[newId] = events
        if digestsOnScreen.remove(id) != nil { digestsOnScreen.insert(newId) }
    }

    /// Takes a grouped pop-up off the screen (closed by reminderd): its reminders are gone.
    /// Returns them.
    @discardableResult
    mutating func offScreen(group id: UInt32) -> [Event] {
        digestsOnScreen.remove(id)
        return groupsOnScreen.removeValue(forKey: id) ?? []
    }

    /// Queues reminders (a grouped pop-up's, taken off the screen) to be shown one at a time
    /// after those queued already.
    mutating func goThrough(_ events: [Event]) {
        for event in events { FireOutbox.add(event, to: &inTurn) }
    }

    /// The next reminder to show in turn, taken off the queue — only once the one shown before
    /// is gone from the screen (acted on, dismissed, or closed) and not while it is in flight.
    mutating func nextInTurn() -> Event? {
        switch turn {
        case .inFlight: return nil
        case .onScreen(let id) where onScreen[id] != nil: return nil
        default: turn = nil
        }
        return inTurn.isEmpty ? nil : inTurn.removeFirst()
    }

    /// Notes the reminder taken by `nextInTurn` as handed to the server; `answered` gives it back.
    mutating func sendInTurn(_ event: Event) -> UInt64 {
        let ticket = send([event])
        turn = .inFlight(ticket: ticket)
        return ticket
    }

    /// The server answered the reminder shown in turn with `ticket`: on screen as `id`, or not
    /// shown (nil), and the next may go.
    mutating func turnAnswered(_ ticket: UInt64, shownAs id: UInt32?) {
        guard turn == .inFlight(ticket: ticket) else { return }
        turn = id.map { .onScreen(id: $0) }
    }

    /// The reminders being gone through one at a time, in order: the one shown in turn (in flight
    /// or on screen) first, then those still to come (`DeliveryController.persistTurn`).
    var turnQueue: [Event] {
        var queue: [Event] = []
        switch turn {
        case .inFlight(let ticket): queue += inFlight[ticket] ?? []
        case .onScreen(let id): if let popUp = onScreen[id] { queue.append(popUp.event) }
        case nil: break
        }
        return queue + inTurn
    }

    /// The server id of the reminder on screen in turn, if one is.
    var turnOnScreen: UInt32? {
        if case .onScreen(let id) = turn, onScreen[id] != nil { return id }
        return nil
    }

    /// Takes every reminder still to be gone through (the server went away, or refused one).
    mutating func takeInTurn() -> [Event] {
        defer { inTurn.removeAll() }
        return inTurn
    }

    /// Takes the reminders `leaves` picks out of those still to be gone through.
    mutating func leaveTurn(where leaves: (Event) -> Bool) { inTurn.removeAll(where: leaves) }

    /// Takes a reminder's pop-up off the screen (closed by reminderd, or replaced).
    @discardableResult
    mutating func offScreen(_ id: UInt32) -> PopUp? { onScreen.removeValue(forKey: id) }

    /// The server closed pop-up `id`: it is none of these any more. Returns the reminder's, if it was one.
    mutating func closed(_ id: UInt32) -> PopUp? {
        undoOffers[id] = nil
        offScreen(group: id)
        return onScreen.removeValue(forKey: id)
    }

    /// The server went away: its ids mean nothing to the next one; what was open is shown again there.
    mutating func serverVanished() {
        repost += onScreen.values.map(\.event) + groupsOnScreen.values.joined() + inTurn
        onScreen.removeAll()
        groupsOnScreen.removeAll()
        digestsOnScreen.removeAll()
        inTurn.removeAll()
        turn = nil
        undoOffers.removeAll()
    }

    /// Moves every reminder it holds — in flight, on screen, waiting, held — to the occurrence due
    /// at `move(due)`: the zone changed, and the stored occurrences moved with it
    /// (`ReminderEngine.moveStoredOccurrences`); one left at its old due would not be known as
    /// shown when it is shown again on a new server. With `itemId`, only that item's: an edit (or
    /// an Undo of one) moved its occurrences, and one left at its old due would not be known as
    /// done when it comes to be shown.
    mutating func moveOccurrences(of itemId: String? = nil, _ move: (Int64) -> Int64) {
        func moved(_ event: Event) -> Event {
            guard itemId == nil || event.itemId == itemId else { return event }
            switch event {
            case .fire(let itemId, let occurrence, let fires, let lead, let late):
                let to = Occurrence(due: move(occurrence.due), dueDate: occurrence.dueDate)
                return .fire(itemId: itemId, occurrence: to, fires: fires, lead: lead, late: late)
            case .pass(let itemId, let occurrence):
                return .pass(itemId: itemId, occurrence: Occurrence(due: move(occurrence.due), dueDate: occurrence.dueDate))
            }
        }
        waiting = waiting.map(moved)
        held = held.map(moved)
        refreshing = refreshing.map(moved)
        repost = repost.map(moved)
        inTurn = inTurn.map(moved)
        onScreen = onScreen.mapValues {
            guard itemId == nil || $0.itemId == itemId else { return $0 }
            return PopUp(itemId: $0.itemId, due: move($0.due), event: moved($0.event))
        }
        groupsOnScreen = groupsOnScreen.mapValues { $0.map(moved) }
        inFlight = inFlight.mapValues { $0.map(moved) }
    }

    /// Forgets a removed item's reminders waiting or held (its pop-ups are closed by the caller).
    mutating func drop(_ itemId: String) {
        waiting.removeAll { $0.itemId == itemId }
        held.removeAll { $0.itemId == itemId }
        refreshing.removeAll { $0.itemId == itemId }
        inTurn.removeAll { $0.itemId == itemId }
    }

    /// Forgets the item's reminders waiting, held or to be shown again that `instant` covers
    /// (`covers`): acknowledged on another device by then. (Those held for a refresh go out
    /// through `stillDue`, which leaves them out.)
    mutating func drop(_ itemId: String, firedBy instant: Int64) {
        let covered = { (event: Event) in FireOutbox.covers(event, itemId, instant) }
        waiting.removeAll(where: covered)
        held.removeAll(where: covered)
        repost.removeAll(where: covered)
        inTurn.removeAll(where: covered)
    }

    /// Whether a reminder of the item that `instant` covers is here: in flight, on screen (alone
    /// or in a group, which is shown again without it), waiting, held (for a refresh too) or to
    /// be shown again.
    func holds(_ itemId: String, firedBy instant: Int64) -> Bool {
        let kept = [waiting, held, refreshing, repost, inTurn, Array(inFlight.values.joined())]
        return (kept + [onScreen.values.map(\.event), Array(groupsOnScreen.values.joined())]).joined().contains {
            FireOutbox.covers($0, itemId, instant)
        }
    }

    /// The server ids of the item's pop-ups on screen alone that `instant` covers.
    func popUps(of itemId: String, firedBy instant: Int64) -> [UInt32] {
        onScreen.compactMap { FireOutbox.covers($0.value.event, itemId, instant) ? $0.key : nil }
    }

    /// Whether `event` is a reminder of the item all of whose times are at or before `instant`.
    static func covers(_ event: Event, _ itemId: String, _ instant: Int64) -> Bool {
        guard case .fire(let id, _, let fires, _, _) = event, id == itemId else { return false }
        return fires.allSatisfy { $0.at <= instant }
    }

    /// The server ids of the item's pop-ups on screen alone — only the occurrence's with `due`.
    func popUps(of itemId: String, due: Int64? = nil) -> [UInt32] {
        onScreen.compactMap { $0.value.itemId == itemId && (due == nil || $0.value.due == due) ? $0.key : nil }
    }

    /// Calls `body` with each fire it holds, and where.
    func forEachFire(_ body: (FireKey, String) -> Void) {
        func each(_ events: some Sequence<Event>, _ place: String) {
            for case .fire(let itemId, let occurrence, let fires, _, _) in events {
                for fire in fires { body(FireKey(itemId: itemId, due: occurrence.due, fireAt: fire.at), place) }
            }
        }
        each(waiting, "waiting")
        each(held, "held")
        each(refreshing, "held for a refresh")
        each(repost, "to be shown again")
        each(inTurn, "to be shown in turn")
        each(onScreen.values.lazy.map(\.event), "on screen")
        each(groupsOnScreen.values.joined(), "on screen in a group")
        each(inFlight.values.joined(), "in flight")
    }

    /// How the invariant is broken: empty when it holds. O(fires); for tests and debugging.
    func checkInvariant() -> [String] {
        var broken: [String] = []
        var seen: [FireKey: String] = [:]
        forEachFire { key, place in
            if let other = seen[key] { broken.append("\(key.itemId) at \(key.fireAt) is both \(other) and \(place)") }
            seen[key] = place
        }
        for id in onScreen.keys where groupsOnScreen[id] != nil { broken.append("server id \(id) is two pop-ups") }
        for id in digestsOnScreen where groupsOnScreen[id] == nil {
            broken.append("digest \(id) is no pop-up on screen")
        }
        for (id, popUp) in onScreen where popUp.itemId != popUp.event.itemId || popUp.due != popUp.event.dueInstant {
            broken.append("pop-up \(id) is filed under \(popUp.itemId) at \(popUp.due), not its reminder's")
        }
        return broken
    }
}
