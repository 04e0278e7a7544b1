/// The wheel's scheduled events by payload token, with when each is due: arrays with freed
/// slots reused, which at start-up (400k events for 100k items) inserts several times faster
/// than a dictionary, and which `Upcoming` scans as a plain array of deadlines.
///
/// A token is the slot in its low 32 bits and the slot's generation above them, so a token
/// whose event was removed never finds the slot's next event — an expired wheel entry still in
/// `advance`'s list after its item was rescheduled is simply not found.
struct EventSlab<Event> {
    private var events: [Event?] = []
    private var generations: [UInt32] = []
    /// When each slot's event is due; `Int64.max` for a free slot.
    private var deadlines: [Int64] = []
    private var free: [Int] = []

    /// How many events it holds.
    var count: Int { events.count - free.count }

    mutating func reserveCapacity(_ n: Int) {
        events.reserveCapacity(n)
        generations.reserveCapacity(n)
        deadlines.reserveCapacity(n)
    }

    /// Stores `event`, due at `deadline`; returns its token.
    mutating func insert(_ event: Event, at deadline: Int64) -> UInt64 {
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            events[slot] = event
            deadlines[slot] = deadline
        } else {
            slot = events.count
            events.append(event)
            generations.append(0)
            deadlines.append(deadline)
        }
        return UInt64(generations[slot]) << 32 | UInt64(slot)
    }

    private func slot(of token: UInt64) -> Int? {
        let slot = Int(token & 0xFFFF_FFFF)
        guard slot < events.count, generations[slot] == UInt32(token >> 32), events[slot] != nil else { return nil }
        return slot
    }

    subscript(token: UInt64) -> (event: Event, at: Int64)? {
        guard let slot = slot(of: token), let event = events[slot] else { return nil }
        return (event, deadlines[slot])
    }

    mutating func remove(_ token: UInt64) -> Event? {
        guard let slot = slot(of: token) else { return nil }
        let event = events[slot]
        events[slot] = nil
        generations[slot] &+= 1
        deadlines[slot] = .max
        free.append(slot)
        return event
    }

    /// Calls `body` with every event due at or before `limit` (all of them for `.max - 1`).
    func forEach(dueBy limit: Int64, _ body: (Event, Int64) -> Void) {
        for slot in deadlines.indices where deadlines[slot] <= limit {
            if let event = events[slot] { body(event, deadlines[slot]) }
        }
    }
}
