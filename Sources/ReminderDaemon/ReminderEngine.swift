import CivilTime
import Dispatch
import Logging
import ReminderCore
import ReminderPlatform
import ReminderStore

/// The daemon's state and rules at run time: items and their occurrence state, the timer wheel of
/// pending reminders, what is on screen, and every command that changes them.
///
/// All of it lives on `queue`, one serial queue; callers from other threads (the socket server,
/// the notifier's GLib thread, the timer) hop onto it. Every change is written to the store in one
/// transaction before it is acknowledged.
public final class ReminderEngine: @unchecked Sendable {  // all mutable state is confined to `queue`
    public let queue: DispatchQueue
    let store: ReminderStore
    let notifier: Notifier
    let clock: @Sendable () -> Int64
    let logger: Logger
    let startedAt: Int64

    var configuration: Configuration
    var zone: TimeZoneRules
    var rules: FireTimeRules

    /// Items by id, and their ids in creation order for listing.
    var items: [String: Item] = [:]
    var order: [String] = []
    var sortedIds = SortedIds()
    /// Stored occurrence state by item, then due instant.
    var occurrences: [String: [Int64: OccurrenceRecord]] = [:]
    /// Fires the server accepted: (item, due, fireAt).
    var fired = FiredSet()

    var wheel: TimerWheel
    /// What each wheel entry stands for, by payload token.
    var events = EventSlab<ScheduledEvent>()
    /// The wheel handles and pending fires of each item, so it can be rescheduled at once.
    var scheduled: [String: [(handle: TimerWheel.Handle, token: UInt64)]] = [:]
    /// The earliest pending reminder (for Status and systemd's STATUS=), kept up to date as
    /// reminders are scheduled; nil in `earliestFireKnown` after that one went, when the next
    /// lookup searches `events` once.
    var earliestFire: Int64?
    var earliestFireKnown = true
    /// Fires that came due while no server could take them, or while paused.
    var waiting: [ScheduledEvent] = []
    var held: [ScheduledEvent] = []
    /// Pop-ups on screen: server id → (item, due).
    var onScreen: [UInt32: PopUp] = [:]
    /// Grouped pop-ups on screen (several reminders at one instant): server id → their reminders.
    var groupsOnScreen: [UInt32: [ScheduledEvent]] = [:]
    /// Pop-ups that were on screen when the server went away: shown again, once, on the next.
    var repost: [ScheduledEvent] = []
    /// Pop-ups that are no reminders (the missed ones' summary) waiting for a server.
    var notices: [NotificationRequest] = []
    /// "Done" confirmations on screen with an Undo button: server id → item.
    var undoOffers: [UInt32: String] = [:]
    /// When the pause ends: nil when not paused, `untilResumed` for a pause without an end.
    var pausedUntil: Int64?
    /// The wheel entry that ends a timed pause.
    var pauseEnd: TimerWheel.Handle?
    /// Stored items that cannot be read, by id: listed and removable, nothing else.
    var quarantined: [String: QuarantinedItem] = [:]
    /// Back-off for reminders the server refused.
    var retryDelay = ReminderEngine.firstRetryDelay
    /// When the waiting reminders are tried again after a refusal, if they are to be.
    var retryAt: Int64?
    /// At start, the reminders a previous run handed to the server without recording the
    /// outcome: they are shown once more, as late ones (see `DeliveryRecord`).
    var owed: Set<FireKey> = []

    /// Called on `queue` whenever the earliest deadline may have changed, so the driver re-arms.
    var deadlineChanged: (@Sendable (Int64?) -> Void)?
    /// Called on `queue` when the status line changes (for systemd's STATUS=).
    var statusChanged: (@Sendable (String) -> Void)?

    /// A reminder on screen, and what it was shown for (to show it again on a new server).
    struct PopUp {
        let itemId: String
        let due: Int64
        let event: ScheduledEvent
    }

    struct FireKey: Hashable {
        let itemId: String
        let due: Int64
        let fireAt: Int64
    }

    /// Accepted fires grouped by item, so removing an item does not touch everyone else's.
    struct FiredSet {
        fileprivate struct Instants: Hashable {
            let due: Int64
            let fireAt: Int64
        }
        private var byItem: [String: Set<Instants>] = [:]

        func contains(_ key: FireKey) -> Bool {
            byItem[key.itemId]?.contains(Instants(due: key.due, fireAt: key.fireAt)) ?? false
        }

        /// One item's accepted fires, looked up once for many questions.
        func of(_ itemId: String) -> Shown { Shown(instants: byItem[itemId]) }

        struct Shown {
            fileprivate let instants: Set<Instants>?

            func contains(due: Int64, fireAt: Int64) -> Bool {
                instants?.contains(Instants(due: due, fireAt: fireAt)) ?? false
            }

            /// Whether any reminder of the occurrence due at `due` was shown.
            func containsAny(due: Int64) -> Bool { instants?.contains { $0.due == due } ?? false }
        }

        mutating func insert(_ key: FireKey) {
            byItem[key.itemId, default: []].insert(Instants(due: key.due, fireAt: key.fireAt))
        }

        mutating func removeAll(of itemId: String) { byItem[itemId] = nil }
    }

    /// A wheel entry: a reminder to show, or the moment an occurrence passes.
    enum ScheduledEvent {
        /// `fireAts` are the scheduled times this pop-up stands for (several when late reminders
        /// collapse into one); `late` marks reminders that were due while the daemon was away.
        case fire(itemId: String, occurrence: Occurrence, fireAts: [Int64], lead: String, late: Bool)
        case pass(itemId: String, occurrence: Occurrence)

        var itemId: String {
            switch self {
            case .fire(let itemId, _, _, _, _), .pass(let itemId, _): return itemId
            }
        }

        /// The due instant of the occurrence the event is about.
        var dueInstant: Int64 {
            switch self {
            case .fire(_, let occurrence, _, _, _), .pass(_, let occurrence): return occurrence.due
            }
        }

        /// When a reminder is shown for (the latest of its scheduled times); nil for a pass.
        var reminderTime: Int64? {
            if case .fire(_, _, let fireAts, _, _) = self { return fireAts.max() }
            return nil
        }
    }

    public init(
        store: ReminderStore, notifier: Notifier, configuration: Configuration, zone: TimeZoneRules,
        clock: @escaping @Sendable () -> Int64, logger: Logger,
        queue: DispatchQueue = DispatchQueue(label: "reminderd.engine")
    ) {
        self.queue = queue
        self.store = store
        self.notifier = notifier
        self.configuration = configuration
        self.zone = zone
        self.rules = FireTimeRules(zone: zone, configuration: configuration)
        self.clock = clock
        self.logger = logger
        let now = clock()
        self.startedAt = now
        self.wheel = TimerWheel(now: now)
    }

    /// Loads the store and builds the schedule, collecting what was missed while away. Runs on
    /// `queue`.
    public func start() throws(ReminderStoreError) {
        dispatchPrecondition(condition: .onQueue(queue))
        let loaded = try store.items(zone: zone, now: clock())
        for item in try store.quarantinedItems() {
            quarantined[item.id] = item
            logger.error(
                "stored item \(item.id) is unreadable and set aside: \(item.reason)",
                metadata: ["ITEM_ID": "\(item.id)"])
        }
        // A few wheel entries per item (its reminders and the moment it passes): sized once.
        items.reserveCapacity(loaded.count)
        order.reserveCapacity(loaded.count)
        scheduled.reserveCapacity(loaded.count)
        events.reserveCapacity(loaded.count * 4)
        wheel.reserveCapacity(loaded.count * 4)
        for item in loaded {
            guard let id = item.id else { continue }
            items[id] = item
            order.append(id)
        }
        sortedIds = SortedIds(order)
        for record in try store.occurrences() { occurrences[record.itemId, default: [:]][record.due] = record }
        for record in try store.fires() {
            fired.insert(FireKey(itemId: record.itemId, due: record.due, fireAt: record.fireAt))
        }
        try collectInterruptedDeliveries()
        pausedUntil = ReminderEngine.pause(stored: try store.savedPause())
        armPauseEnd()
        let lastSeen = try store.lastSeen()
        let now = clock()
        try store.pruneHistory(before: now - Int64(configuration.historyDays) * 86_400)
        collectMissed(since: lastSeen, now: now)
        let planned = order.concurrentMap { [self] id in plannedEvents(of: id, now: now, lateSince: lastSeen ?? .min) }
        for (id, events) in zip(order, planned) { install(events, for: id) }
        owed.removeAll()
        // Holds lastSeen before the late reminders just put on the wheel until the timer hands
        // them to the server, so a crash in between does not drop them.
        try recordLastSeen(now)
        notifier.start { [weak self] event in
            guard let self else { return }
            self.queue.async { self.handle(event) }
        }
        publish()
    }

    /// Reads the deliveries a previous run left without an outcome. Those of an occurrence still
    /// ahead and not done become `owed` (shown late, once); an occurrence that passed meanwhile
    /// is reported missed by `collectMissed`, as `lastSeen` never passed its due time. The rest
    /// (shown after all, done, gone) are forgotten.
    func collectInterruptedDeliveries() throws(ReminderStoreError) {
        let now = clock()
        var settled: [DeliveryRecord] = []
        for record in try store.deliveries() {
            let key = FireKey(itemId: record.itemId, due: record.due, fireAt: record.fireAt)
            if record.due > now, !fired.contains(key), occurrences[record.itemId]?[record.due]?.doneAt == nil {
                owed.insert(key)
            } else {
                settled.append(record)
            }
        }
        guard !settled.isEmpty else { return }
        try store.endDeliveries(settled)
    }

    /// Remembers up to when every due reminder was shown, held or deliberately skipped — never
    /// past one still waiting for a server — so a restart knows which ones it missed.
    func recordLastSeen(_ now: Int64) throws(ReminderStoreError) {
        var seen = now
        for case .fire(_, _, let fireAts, _, _) in waiting + held {
            if let earliest = fireAts.min() { seen = min(seen, earliest - 1) }
        }
        // Nor past reminders whose time came but that the timer has not run yet: the late ones
        // planned at start, when a stop comes before the timer's first run.
        if let next = wheel.nextDeadline(), next <= now {
            events.forEach(dueBy: now) { event, _ in
                if case .fire(_, _, let fireAts, _, _) = event, let earliest = fireAts.min() {
                    seen = min(seen, earliest - 1)
                }
            }
        }
        try store.saveLastSeen(seen)
    }

    /// Tells the driver (the wheel's next deadline, or a retry's if sooner) and systemd what
    /// changed.
    func publish() {
        let deadline = wheel.nextDeadline()
        deadlineChanged?(retryAt.map { min($0, deadline ?? $0) } ?? deadline)
        statusChanged?(statusLine())
    }

    /// "12 items, next reminder Tue 09:00".
    func statusLine() -> String {
        var line = "\(items.count) item\(items.count == 1 ? "" : "s")"
        if let paused = pausedUntil {
            line +=
                paused == ReminderEngine.untilResumed ? ", paused until resumed" : ", paused until \(shortTime(paused))"
        }
        if let next = nextFireTime() {
            line += ", next reminder \(shortTime(next))"
        } else {
            line += ", no reminder pending"
        }
        return line
    }

    func shortTime(_ instant: Int64) -> String {
        let local = zone.localDateTime(at: instant)
        let days = local.date.dayNumber - zone.localDateTime(at: clock()).date.dayNumber
        let day = days >= 0 && days < 7 ? local.date.weekdayAbbreviation : local.date.description
        return "\(day) \(local.time.hourMinute)"
    }

    /// The earliest pending reminder (not the pass events).
    func nextFireTime() -> Int64? {
        if !earliestFireKnown {
            var earliest: Int64?
            events.forEach(dueBy: .max - 1) { event, _ in
                if let at = event.reminderTime { earliest = min(earliest ?? at, at) }
            }
            earliestFire = earliest
            earliestFireKnown = true
        }
        return earliestFire
    }
}
