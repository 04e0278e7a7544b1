import ReminderCore

/// The pending reminders and passes on the timer wheel: the wheel itself, what each of its
/// entries stands for (the event slab), each item's entries, so an item is rescheduled at once,
/// the earliest pending reminder, and the wheel entry that ends a timed pause.
///
/// Invariant: an item's filed entries and the wheel agree. Every filed (handle, token) names a
/// live event of that item, due when its wheel entry is; every live event is filed under its item;
/// the wheel holds exactly those entries (and the pause's end); a known `earliestFire` is the
/// earliest reminder among the events. So no wheel entry outlives its event, and a token whose
/// event was cancelled finds nothing when its expired entry comes round (`EventSlab`'s
/// generations): a stale token never fires.
struct FireSchedule {
    typealias Event = ReminderEngine.ScheduledEvent

    private var wheel: TimerWheel
    /// What each wheel entry stands for, by payload token, with its wheel handle; each item's
    /// events are a chain there (`EventSlab.first(of:)`, `next(of:)`), in the order installed.
    private var events = EventSlab()
    /// The earliest pending reminder (for Status and systemd's STATUS=), kept up to date as
    /// reminders are scheduled; when that one went (`earliestFireKnown` false), the next lookup
    /// searches `events` once.
    private var earliestFire: Int64?
    private var earliestFireKnown = true
    /// The wheel entry that ends a timed pause.
    private var pauseEnd: TimerWheel.Handle?
    /// `expire`'s list of expired entries, kept to save an allocation per run.
    private var expired: [TimerWheel.Expired] = []

    /// The wheel payload of a timed pause's end. Event tokens carry a slot number below 2^32 - 1
    /// in their low bits, so this one never names a scheduled event: `expire` finds no event for
    /// it, and the engine, the pause having ended by then, resumes.
    static let pauseEndToken = UInt64.max

    init(now: Int64) { wheel = TimerWheel(now: now) }

    /// Room for `items` items and `events` wheel entries (their reminders and the moment each passes).
    mutating func reserveCapacity(items: Int, events count: Int) {
        events.reserveCapacity(items: items, events: count)
        wheel.reserveCapacity(count)
    }

    /// Puts an item's planned events on the wheel, after `cancel(id)` (or at start).
    mutating func install(_ planned: [(event: Event, at: Int64)], for id: String) {
        for planned in planned {
            assert(planned.event.itemId == id, "an event of \(planned.event.itemId) installed for \(id)")
            let token = events.insert(planned.event, at: planned.at)
            events.setHandle(of: UInt32(token & 0xFFFF_FFFF), to: wheel.insert(deadline: planned.at, payload: token))
            if earliestFireKnown, let at = planned.event.reminderTime { earliestFire = min(earliestFire ?? at, at) }
        }
    }

    /// Takes every wheel entry of the item off the wheel.
    mutating func cancel(_ id: String) {
        var slot = events.first(of: id)
        while slot != EventSlab.none {
            let next = events.next(of: slot)
            wheel.cancel(events.handle(of: slot))
            forget(events.reminderTime(of: slot))
            events.remove(slot: slot)
            slot = next
        }
    }

    /// Runs the wheel to `now`: calls `body` with each event that came due, in deadline order,
    /// once it is off the schedule. Expired entries whose event is gone (the pause's end) are skipped.
    mutating func expire(to now: Int64, _ body: (Event) -> Void) {
        expired.removeAll(keepingCapacity: true)
        wheel.advance(to: now, into: &expired)
        expired.sort { $0.deadline < $1.deadline }
        for entry in expired {
            guard let slot = events.slot(of: entry.payload), let (event, _) = events[slot: slot] else { continue }
            forget(events.reminderTime(of: slot))
            events.remove(slot: slot)
            body(event)
        }
    }

    /// Keeps `earliestFire` true when a reminder at `reminderTime` leaves the wheel.
    private mutating func forget(_ reminderTime: Int64?) {
        if let at = reminderTime, at == earliestFire { earliestFireKnown = false }
    }

    /// The wheel's next deadline: a reminder, a pass or the pause's end.
    mutating func nextDeadline() -> Int64? { wheel.nextDeadline() }

    /// The earliest pending reminder (not the pass events).
    mutating func nextFireTime() -> Int64? {
        if !earliestFireKnown {
            earliestFire = earliestReminder()
            earliestFireKnown = true
        }
        return earliestFire
    }

    /// The earliest reminder among the events, searched.
    private func earliestReminder() -> Int64? {
        var earliest: Int64?
        events.forEachReminderTime { at in earliest = min(earliest ?? at, at) }
        return earliest
    }

    /// Calls `body` with every event due at or before `limit`, and when it is due.
    func forEach(dueBy limit: Int64, _ body: (Event, Int64) -> Void) { events.forEach(dueBy: limit, body) }

    /// The item's pending pop-ups: (when, occurrence, lead, late — going out after its time).
    func fires(of id: String) -> [(at: Int64, occurrence: Occurrence, lead: String, late: Bool)] {
        var fires: [(at: Int64, occurrence: Occurrence, lead: String, late: Bool)] = []
        var slot = events.first(of: id)
        while slot != EventSlab.none {
            if let scheduled = events[slot: slot],
                case .fire(_, let occurrence, _, let lead, let late) = scheduled.event
            {
                fires.append((scheduled.at, occurrence, lead, late?.isLate == true))
            }
            slot = events.next(of: slot)
        }
        return fires
    }

    /// Puts the end of a timed pause on the wheel (nil: none), replacing an earlier one. The wheel
    /// runs on wall-clock deadlines, so the end comes on time after a suspend.
    mutating func armPauseEnd(at until: Int64?) {
        if let handle = pauseEnd { wheel.cancel(handle) }
        pauseEnd = until.map { wheel.insert(deadline: $0, payload: FireSchedule.pauseEndToken) }
    }

    /// How the invariant is broken: empty when it holds. O(entries); for tests and debugging.
    func checkInvariant() -> [String] {
        var broken: [String] = []
        var filed = 0
        events.forEachItem { id, first in
            var slot = first
            while slot != EventSlab.none, filed <= events.count {
                filed += 1
                guard let (event, at) = events[slot: slot] else {
                    broken.append("\(id): a wheel entry without its event (slot \(slot))")
                    break
                }
                if event.itemId != id { broken.append("\(id): an event of \(event.itemId) filed under it") }
                if wheel.deadline(of: events.handle(of: slot)) != at {
                    broken.append("\(id): the event at \(at) has no wheel entry at that time")
                }
                slot = events.next(of: slot)
            }
        }
        if filed != events.count { broken.append("\(events.count) events but \(filed) filed under their items") }
        let pauseEntries = pauseEnd.map { wheel.deadline(of: $0) == nil ? 0 : 1 } ?? 0
        if wheel.count != filed + pauseEntries {
            broken.append("the wheel holds \(wheel.count) entries, the items \(filed) (and \(pauseEntries) pause end)")
        }
        if earliestFireKnown, earliestReminder() != earliestFire {
            broken.append("the earliest reminder is not \(earliestFire.map(String.init) ?? "none")")
        }
        return broken
    }
}
