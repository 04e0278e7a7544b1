import CivilTime
import Dispatch
import Logging
import ReminderCore
import ReminderPlatform
import ReminderStore

/// The daemon's state and rules at run time, and every command that changes them. The state is in
/// parts, each owning its own and keeping its invariant (`checkInvariant`): `index` (items and
/// their occurrence state), `schedule` (the timer wheel of pending reminders); and two parts that
/// own their state and reach the engine only through a protocol: `delivery`, the delivery
/// controller (the reminders that came due, on their way to the screen and on it, the pause,
/// the notifier's events; `DeliveryCore`), and `sync`, the sync endpoint (`SyncCore`). The engine decides;
/// the parts keep; `PlanningSnapshot` plans and `PopUpComposer` words a pop-up, both from plain values.
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

    /// Items, their order, occurrence records and accepted fires.
    var index = ItemIndex()
    // Read-only views of the index, for the many places that only read.
    var items: ItemTable { index.items }
    var order: [String] { index.order }
    var occurrences: [String: [Int64: OccurrenceRecord]] { index.occurrences }
    var fired: FiredSet { index.fired }
    var quarantined: [String: QuarantinedItem] { index.quarantined }

    /// The timer wheel and what is on it.
    var schedule: FireSchedule
    /// Delivery: the outbox, retries, the pause, grouped pop-ups, buttons and the notifier's events.
    private(set) lazy var delivery = DeliveryController(
        core: self, store: store, notifier: notifier, clock: clock, logger: logger, queue: queue)
    /// Sync: the `Sync…` methods and the link to reminderd-sync, with their state.
    private(set) lazy var sync = SyncEndpoint(core: self, store: store, logger: logger, queue: queue)
    /// At start, the reminders a previous run handed to the server without recording the
    /// outcome: they are shown once more, as late ones (see `DeliveryRecord`).
    var owed: Set<FireKey> = []

    /// Called on `queue` whenever the earliest deadline may have changed, so the driver re-arms.
    var deadlineChanged: (@Sendable (Int64?) -> Void)?
    /// Called on `queue` when the status line changes (for systemd's STATUS=).
    var statusChanged: (@Sendable (String) -> Void)?

    /// A wheel entry: a reminder to show, or the moment an occurrence passes.
    enum ScheduledEvent {
        /// `fires` are the scheduled reminders this pop-up stands for (several when late reminders
        /// collapse into one), `lead` the one it names; `late` marks reminders that were due while
        /// the daemon was away.
        case fire(itemId: String, occurrence: Occurrence, fires: [ReminderFire], lead: String, late: Bool)
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
            if case .fire(_, _, let fires, _, _) = self { return fires.lazy.map(\.at).max() }
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
        self.schedule = FireSchedule(now: now)
    }

    /// Loads the store and builds the schedule, collecting what was missed while away. Runs on
    /// `queue`.
    public func start() throws(ReminderStoreError) {
        dispatchPrecondition(condition: .onQueue(queue))
        let loaded = try store.items(zone: zone, now: clock())
        let unreadable = try store.quarantinedItems()
        for item in unreadable {
            logger.error(
                "stored item \(item.id) is unreadable and set aside: \(item.reason)",
                metadata: ["ITEM_ID": "\(item.id)"])
        }
        try adoptZoneAtStart()
        index = ItemIndex(
            items: loaded, quarantined: unreadable, records: try store.occurrences(), fires: try store.fires())
        try collectInterruptedDeliveries()
        try delivery.start()
        let lastSeen = try store.lastSeen()
        let now = clock()
        try store.pruneHistory(before: now - Int64(configuration.historyDays) * 86_400)
        collectMissed(since: lastSeen, now: now)
        let snapshot = planning(now: now, lateSince: lastSeen ?? .min)
        let planned = order.concurrentMap { id in snapshot.events(of: id) }
        schedule.reserveCapacity(items: planned.count, events: planned.reduce(0) { $0 + $1.count })
        for (id, events) in zip(order, planned) { schedule.install(events, for: id) }
        owed.removeAll()
        // Holds lastSeen before the late reminders just put on the wheel until the timer hands
        // them to the server, so a crash in between does not drop them.
        try recordLastSeen(now)
        delivery.listen()
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
        let outbox = delivery.outbox
        for case .fire(_, _, let fires, _, _) in outbox.waiting + outbox.held + outbox.refreshing {
            if let earliest = fires.lazy.map(\.at).min() { seen = min(seen, earliest - 1) }
        }
        // Nor past reminders whose time came but that the timer has not run yet: the late ones
        // planned at start, when a stop comes before the timer's first run.
        if let next = schedule.nextDeadline(), next <= now {
            schedule.forEach(dueBy: now) { event, _ in
                if case .fire(_, _, let fires, _, _) = event, let earliest = fires.lazy.map(\.at).min() {
                    seen = min(seen, earliest - 1)
                }
            }
        }
        try store.saveLastSeen(seen)
    }

    /// Tells the driver (the earliest of the wheel's next deadline, a retry's, the sync endpoint's
    /// and the indicator's midnight), the panel indicator and systemd what changed.
    func publish() {
        // The indicator's next midnight, while it is shown, is one more deadline of the timer.
        let midnight = publishIndicator(now: clock())
        deadlineChanged?(
            [schedule.nextDeadline(), delivery.retryAt, sync.link.nextDeadline, midnight].compactMap { $0 }.min())
        statusChanged?(statusLine())
    }

    /// "12 items, next reminder Tue 09:00".
    func statusLine() -> String {
        var line = "\(items.count) item\(items.count == 1 ? "" : "s")"
        if let paused = delivery.pausedUntil {
            line +=
                paused == DeliveryController.untilResumed
                ? ", paused until resumed" : ", paused until \(shortTime(paused))"
        }
        if let next = nextFireTime() {
            line += ", next reminder \(shortTime(next))"
        } else {
            line += ", no reminder pending"
        }
        return line
    }

    func shortTime(_ instant: Int64) -> String { PopUpComposer.shortTime(instant, zone: zone, now: clock()) }

    /// The earliest pending reminder (not the pass events).
    func nextFireTime() -> Int64? { schedule.nextFireTime() }
}
