import CivilTime
import ReminderCore
import ReminderStore

/// The wheel's scheduled events by payload token, with when each is due: arrays with freed
/// slots reused, which at start-up (400k events for 100k items) inserts several times faster
/// than a dictionary, and which `Upcoming` scans as a plain array of deadlines.
///
/// An event is kept packed, 32 bytes with its wheel handle and its item's next event, instead
/// of an `Event` (88 bytes, and an array of one reminder on the heap: 150 bytes an event, ~3.5
/// events an item — the daemon's largest per-item cost, measured with massif at 10k items). It
/// names its item by a number (`itemIds`), and each item's events are a chain from its first, in
/// the order they were inserted, so the schedule needs no list of entries per item. A
/// reminder packs when it is one fire at the slot's own deadline, its lead one of a few strings kept
/// once (`leads`), and on time (no `LateReason`); the rare event that is not — a late pop-up,
/// one moved out of quiet hours, or one standing for reminders missed
/// while away — is kept whole in `spilled`. `subscript` and `forEach` give back the same
/// `Event` that was inserted.
///
/// A token is the slot in its low 32 bits and the slot's generation above them, so a token
/// whose event was removed never finds the slot's next event — an expired wheel entry still in
/// `advance`'s list after its item was rescheduled is simply not found.
struct EventSlab {
    typealias Event = ReminderEngine.ScheduledEvent

    /// No slot: the end of an item's list of events.
    static let none = UInt32.max

    private enum Kind: UInt8 {
        case free, fire, pass, spilled
    }

    /// One slot.
    private struct Packed {
        var due: Int64
        /// The wheel entry that stands for it.
        var handle: TimerWheel.Handle
        /// The occurrence's date: year << 9 | month << 5 | day.
        var dueDate: UInt32
        /// The item's next event (`EventSlab.none`: its last).
        var next: UInt32
        /// The item's number.
        var item: UInt32
        /// Its index in `leads`.
        var lead: UInt16
        var kind: Kind
    }

    private var slots: [Packed] = []
    private var generations: [UInt32] = []
    /// When each slot's event is due; `Int64.max` for a free slot.
    private var deadlines: [Int64] = []
    private var free: [UInt32] = []
    /// Events that do not fit a `Packed` (several fires, or one not at the slot's deadline).
    private var spilled: [UInt32: Event] = [:]
    /// The leads of the reminders, each once ("3d", "0d", "snooze", …).
    private var leads: [String] = []
    private var leadIndex: [String: UInt16] = [:]
    /// Each item with events: its number; by number, its id ("" when free) and first event.
    private var itemNumbers: [String: UInt32] = [:]
    private var itemIds: [String] = []
    private var firsts: [UInt32] = []
    private var freeNumbers: [UInt32] = []

    /// How many events it holds.
    var count: Int { slots.count - free.count }

    mutating func reserveCapacity(items: Int, events n: Int) {
        itemNumbers.reserveCapacity(items)
        itemIds.reserveCapacity(items)
        firsts.reserveCapacity(items)
        slots.reserveCapacity(n)
        generations.reserveCapacity(n)
        deadlines.reserveCapacity(n)
    }

    private mutating func leadNumber(_ lead: String) -> UInt16? {
        if let number = leadIndex[lead] { return number }
        guard leads.count < Int(UInt16.max) else { return nil }
        let number = UInt16(leads.count)
        leads.append(lead)
        leadIndex[lead] = number
        return number
    }

    private static func pack(_ date: LocalDate) -> UInt32 {
        UInt32(date.year) << 9 | UInt32(date.month) << 5 | UInt32(date.day)
    }

    private static func unpack(_ date: UInt32) -> LocalDate {
        LocalDate(uncheckedYear: Int(date >> 9), month: Int(date >> 5 & 15), day: Int(date & 31))
    }

    /// `event` as a slot, due at `deadline`, with no next event yet.
    private mutating func packed(_ event: Event, at deadline: Int64) -> Packed {
        var packed = Packed(
            due: event.dueInstant, handle: TimerWheel.Handle.none, dueDate: 0, next: EventSlab.none,
            item: itemNumber(event.itemId), lead: 0, kind: .spilled)
        switch event {
        case .pass(_, let occurrence):
            if LocalDate.supportedYears.contains(occurrence.dueDate.year) {
                packed.dueDate = EventSlab.pack(occurrence.dueDate)
                packed.kind = .pass
            }
        case .fire(_, let occurrence, let fires, let lead, let late):
            if late == nil, fires.count == 1, fires[0].at == deadline, fires[0].lead == lead,
                LocalDate.supportedYears.contains(occurrence.dueDate.year), let number = leadNumber(lead)
            {
                packed.dueDate = EventSlab.pack(occurrence.dueDate)
                packed.lead = number
                packed.kind = .fire
            }
        }
        return packed
    }

    /// The event of a live slot.
    private func event(at slot: Int) -> Event? {
        let packed = slots[slot]
        switch packed.kind {
        case .free: return nil
        case .spilled: return spilled[UInt32(slot)]
        case .pass:
            return .pass(
                itemId: itemIds[Int(packed.item)],
                occurrence: Occurrence(due: packed.due, dueDate: EventSlab.unpack(packed.dueDate)))
        case .fire:
            let lead = leads[Int(packed.lead)]
            return .fire(
                itemId: itemIds[Int(packed.item)],
                occurrence: Occurrence(due: packed.due, dueDate: EventSlab.unpack(packed.dueDate)),
                fires: [ReminderFire(at: deadlines[slot], lead: lead)], lead: lead, late: nil)
        }
    }

    /// Stores `event`, due at `deadline`, last of its item's events, with no wheel entry yet
    /// (`setHandle`); returns its token.
    mutating func insert(_ event: Event, at deadline: Int64) -> UInt64 {
        let packed = packed(event, at: deadline)
        let slot: Int
        if let reused = free.popLast() {
            slot = Int(reused)
            deadlines[slot] = deadline
        } else {
            slot = slots.count
            precondition(slot < Int(EventSlab.none), "EventSlab holds at most 2^32-1 events")
            slots.append(packed)
            generations.append(0)
            deadlines.append(deadline)
        }
        if packed.kind == .spilled { spilled[UInt32(slot)] = event }
        slots[slot] = packed
        append(UInt32(slot), to: packed.item)
        return UInt64(generations[slot]) << 32 | UInt64(slot)
    }

    /// The slot of a token whose event is there.
    func slot(of token: UInt64) -> UInt32? {
        let slot = Int(token & 0xFFFF_FFFF)
        guard slot < slots.count, generations[slot] == UInt32(token >> 32), slots[slot].kind != .free else {
            return nil
        }
        return UInt32(slot)
    }

    /// A live slot's event and deadline.
    subscript(slot slot: UInt32) -> (event: Event, at: Int64)? {
        guard let event = event(at: Int(slot)) else { return nil }
        return (event, deadlines[Int(slot)])
    }

    /// A live slot's wheel entry and its item's next event.
    func handle(of slot: UInt32) -> TimerWheel.Handle { slots[Int(slot)].handle }
    mutating func setHandle(of slot: UInt32, to handle: TimerWheel.Handle) { slots[Int(slot)].handle = handle }
    func next(of slot: UInt32) -> UInt32 { slots[Int(slot)].next }

    /// The item's first event (`EventSlab.none`: it has none).
    func first(of id: String) -> UInt32 { itemNumbers[id].map { firsts[Int($0)] } ?? EventSlab.none }

    /// Every item with events, with its first.
    func forEachItem(_ body: (String, UInt32) -> Void) {
        for (id, number) in itemNumbers { body(id, firsts[Int(number)]) }
    }

    /// The number of an item, given it now if it has none.
    private mutating func itemNumber(_ id: String) -> UInt32 {
        if let number = itemNumbers[id] { return number }
        let number: UInt32
        if let reused = freeNumbers.popLast() {
            number = reused
            itemIds[Int(number)] = id
        } else {
            number = UInt32(itemIds.count)
            itemIds.append(id)
            firsts.append(EventSlab.none)
        }
        itemNumbers[id] = number
        return number
    }

    /// Puts a slot last in its item's chain.
    private mutating func append(_ slot: UInt32, to item: UInt32) {
        guard firsts[Int(item)] != EventSlab.none else {
            firsts[Int(item)] = slot
            return
        }
        var last = firsts[Int(item)]
        while slots[Int(last)].next != EventSlab.none { last = slots[Int(last)].next }
        slots[Int(last)].next = slot
    }

    /// Takes a slot out of its item's chain; the item's number is freed with its last event.
    private mutating func unlink(_ slot: UInt32) {
        let item = Int(slots[Int(slot)].item)
        let next = slots[Int(slot)].next
        if firsts[item] == slot {
            firsts[item] = next
        } else {
            var previous = firsts[item]
            while previous != EventSlab.none, slots[Int(previous)].next != slot { previous = slots[Int(previous)].next }
            if previous != EventSlab.none { slots[Int(previous)].next = next }
        }
        if firsts[item] == EventSlab.none {
            itemNumbers[itemIds[item]] = nil
            itemIds[item] = ""
            freeNumbers.append(UInt32(item))
        }
    }

    /// When a live slot's reminder is shown (the latest of its fires); nil for a pass.
    func reminderTime(of slot: UInt32) -> Int64? {
        switch slots[Int(slot)].kind {
        case .fire: return deadlines[Int(slot)]
        case .spilled: return spilled[slot]?.reminderTime
        case .pass, .free: return nil
        }
    }

    /// Frees a live slot.
    mutating func remove(slot: UInt32) {
        let i = Int(slot)
        guard i < slots.count, slots[i].kind != .free else { return }
        if slots[i].kind == .spilled { spilled[slot] = nil }
        unlink(slot)
        slots[i].kind = .free
        slots[i].next = EventSlab.none
        generations[i] &+= 1
        deadlines[i] = .max
        free.append(slot)
    }

    /// Calls `body` with every event due at or before `limit` (all of them for `.max - 1`).
    func forEach(dueBy limit: Int64, _ body: (Event, Int64) -> Void) {
        for slot in deadlines.indices where deadlines[slot] <= limit {
            if let event = event(at: slot) { body(event, deadlines[slot]) }
        }
    }

    /// Calls `body` with the reminder time of every reminder (not the passes).
    func forEachReminderTime(_ body: (Int64) -> Void) {
        for slot in slots.indices {
            if let at = reminderTime(of: UInt32(slot)) { body(at) }
        }
    }
}
