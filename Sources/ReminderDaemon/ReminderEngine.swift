import CivilTime
import Dispatch
import Logging
import ReminderCore
import ReminderPlatform
import ReminderProtocol
import ReminderStore

/// The daemon's state and rules at run time, and every command that changes them. The state is in
/// parts, each owning its own and keeping its invariant (`checkInvariant`): `index` (items and
/// their occurrence state), `schedule` (the timer wheel of pending reminders); and two parts that
/// own their state and reach the engine only through a protocol: `delivery`, the delivery
/// controller (the reminders that came due, on their way to the screen and on it, the pause,
/// the notifier's events; `DeliveryCore`), and `sync`, the sync endpoint (`SyncCore`). The engine decides;
/// the parts keep; values work out from what the engine hands them, changing nothing:
/// `QuerySnapshot` answers the read-only commands, `Backup` writes and reads a backup,
/// `InterruptedRun` finds what a stopped run left undone, `PlanningSnapshot` plans and
/// `PopUpComposer` words a pop-up.
///
/// All of it lives on `queue`, one serial queue; callers from other threads (the socket server,
/// the notifier's GLib thread, the timer) hop onto it, and every access to the state is checked to
/// be there (`ReminderEngine+State.swift`). Every change is written to the store in one
/// transaction before it is acknowledged.
public final class ReminderEngine: Sendable {
    public let queue: DispatchQueue
    let store: ReminderStore
    let notifier: Notifier
    let clock: @Sendable () -> Int64
    let logger: Logger
    let startedAt: Int64

    /// The state, each part in a box of its own that checks every access is on `queue`
    /// (`QueueBound`, as delivery's and sync's state are); read and changed through the
    /// properties of `ReminderEngine+State.swift`. One box per part, so a change of one part may
    /// read another.
    let configurationBox: QueueBound<Configuration>
    let zoneBox: QueueBound<TimeZoneRules>
    let rulesBox: QueueBound<FireTimeRules>
    let indexBox: QueueBound<ItemIndex>
    let scheduleBox: QueueBound<FireSchedule>
    let indicatorCacheBox: QueueBound<IndicatorCache?>
    let partsBox: QueueBound<Parts>
    let listenersBox: QueueBound<Listeners>

    /// A wheel entry: a reminder to show, or the moment an occurrence passes.
    enum ScheduledEvent {
        /// `fires` are the scheduled reminders this pop-up stands for (several when late reminders
        /// collapse into one), `lead` the one it names; `late` is why it goes out after its time
        /// (while the daemon was away, held, waiting for a server) or was moved (quiet hours),
        /// recorded where that was decided, for its pop-up to say (`LateReason`).
        case fire(itemId: String, occurrence: Occurrence, fires: [ReminderFire], lead: String, late: LateReason?)
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
        configurationBox = QueueBound(configuration, queue: queue)
        zoneBox = QueueBound(zone, queue: queue)
        rulesBox = QueueBound(FireTimeRules(zone: zone, configuration: configuration), queue: queue)
        indexBox = QueueBound(ItemIndex(), queue: queue)
        indicatorCacheBox = QueueBound(nil, queue: queue)
        partsBox = QueueBound(Parts(), queue: queue)
        listenersBox = QueueBound(Listeners(), queue: queue)
        self.clock = clock
        self.logger = logger
        let now = clock()
        self.startedAt = now
        scheduleBox = QueueBound(FireSchedule(now: now), queue: queue)
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
        let stamped = try stampUsedPeriodsAtStart(loaded, now: clock())
        index = ItemIndex(
            items: stamped, quarantined: unreadable, records: try store.occurrences(), fires: try store.fires(),
            acknowledged: try store.acknowledgements())
        let owed = try settleInterruptedDeliveries()
        try delivery.start()
        let lastSeen = try store.lastSeen()
        let now = clock()
        try store.pruneHistory(before: now - Int64(configuration.historyDays) * 86_400)
        let passed = interruptedRun(now: now).passed(since: lastSeen)
        reportMissed(passed.missed, now: now, reason: "passed while reminderd was not running")
        recordExpired(passed.expired, now: now)
        let snapshot = planning(now: now, lateSince: lastSeen ?? .min, owed: owed)
        let planned = order.concurrentMap { id in snapshot.events(of: id) }
        schedule.reserveCapacity(items: planned.count, events: planned.reduce(0) { $0 + $1.count })
        for (id, events) in zip(order, planned) { schedule.install(events, for: id) }
        // Holds lastSeen before the late reminders just put on the wheel until the timer hands
        // them to the server, so a crash in between does not drop them.
        try recordLastSeen(now)
        delivery.listen()
        delivery.showNextInTurn(now: now)
        publish()
    }

    /// Reads the deliveries a previous run left without an outcome (`InterruptedRun.owed`): ends
    /// the settled ones, and returns the fires owed, which the start's planning shows once, late.
    func settleInterruptedDeliveries() throws(ReminderStoreError) -> Set<FireKey> {
        let (owed, settled) = interruptedRun(now: clock()).owed(try store.deliveries())
        if !settled.isEmpty { try store.endDeliveries(settled) }
        return owed
    }

    /// What an interrupted run left undone, as of `now` (`InterruptedRun`).
    func interruptedRun(now: Int64) -> InterruptedRun {
        InterruptedRun(index: index, rules: rules, leadTimes: configuration.leadTimes, now: now)
    }

    /// Remembers up to when every due reminder was shown, held or deliberately skipped — never
    /// past one still waiting for a server — so a restart knows which ones it missed.
    func recordLastSeen(_ now: Int64) throws(ReminderStoreError) {
        try store.saveLastSeen(lastSeen(now))
    }

    /// The instant `recordLastSeen` stores.
    func lastSeen(_ now: Int64) -> Int64 {
        var seen = now
        if let earliest = delivery.earliestUnshownFire { seen = min(seen, earliest - 1) }
        // Nor past reminders whose time came but that the timer has not run yet: the late ones
        // planned at start, when a stop comes before the timer's first run.
        if let next = schedule.nextDeadline(), next <= now {
            schedule.forEach(dueBy: now) { event, _ in
                if case .fire(_, _, let fires, _, _) = event, let earliest = fires.lazy.map(\.at).min() {
                    seen = min(seen, earliest - 1)
                }
            }
        }
        return seen
    }

    /// Tells the driver (the earliest of the wheel's next deadline, a retry's, the sync endpoint's
    /// and the indicator's midnight), the panel indicator and systemd what changed.
    func publish() {
        delivery.persistTurn()
        delivery.persistReshow()
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

    /// Status (CONTRACT §5 `status`): the daemon, its notification server, the pause, and the
    /// reminders delivery has waiting or held.
    func status(now: Int64) -> StatusReply {
        StatusReply(
            version: ReminderVersion.current, uptimeSeconds: now - startedAt, items: Int64(items.count),
            nextReminder: nextFireTime().map { Timestamp.format($0, in: zone) },
            notificationServer: notifier.serverInfo().map {
                StatusReply.Server(
                    name: $0.name, vendor: $0.vendor, version: $0.version, capabilities: $0.capabilities)
            },
            paused: delivery.pausedUntil.map {
                $0 == DeliveryController.untilResumed ? "until resumed" : Timestamp.format($0, in: zone)
            },
            waiting: Int64(delivery.waitingCount), timeZone: zone.identifier,
            today: zone.localDateTime(at: now).date.description, store: store.path,
            held: Int64(delivery.heldCount), heldReason: delivery.heldReason(), inTurn: Int64(delivery.inTurnCount))
    }

    /// The read-only commands over the state as it is now. Taken for one command and let go
    /// before anything changes (its parts are shared with the engine's until one is changed).
    func queries(now: Int64) -> QuerySnapshot {
        QuerySnapshot(
            index: index, schedule: schedule, rules: rules, zone: zone, configuration: configuration,
            delivery: delivery, store: store, now: now)
    }

    /// Hands the indicator's content to the exporter when a StatusNotifierWatcher is on the bus;
    /// returns when it next changes by time alone then (the next local midnight moves its
    /// "today" and "this week" on; an item's occurrence passes; an offered snooze stops
    /// fitting), nil otherwise — no host, no work and no wake-up. Its parts are kept while the
    /// host is (`IndicatorCache`): only the items changed since the last publish are worked out
    /// again. With `"indicator": false` at start the exporter watches for no watcher, so a
    /// reload's change of the key counts from the next start.
    func publishIndicator(now: Int64) -> Int64? {
        let changed = index.takeChanges()
        guard let exporter = notifier as? IndicatorExporter, exporter.indicatorHostPresent else {
            indicatorCache = nil
            return nil
        }
        let snapshot = queries(now: now)
        let context = IndicatorCache.Context(zone: zone.identifier, configuration: configuration)
        if var cache = indicatorCache, cache.context == context, let changed {
            indicatorCache = nil  // held once, so the update changes it in place
            cache.update(changed: changed, snapshot)
            indicatorCache = cache
        } else {
            indicatorCache = IndicatorCache(context: context, snapshot)
        }
        guard let cache = indicatorCache else { return nil }
        let composer = snapshot.indicator(cache)
        exporter.showIndicator(composer.view)
        return [
            IndicatorComposer.nextMidnight(after: now, zone: zone), snapshot.indicatorOffersChange(composer.entries),
            cache.nextExpiry,
        ].compactMap { $0 }.min()
    }

    /// The earliest pending reminder (not the pass events).
    func nextFireTime() -> Int64? { schedule.nextFireTime() }
}
