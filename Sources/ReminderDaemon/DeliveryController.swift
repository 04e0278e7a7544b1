import CivilTime
import Dispatch
import Logging
import ReminderCore
import ReminderPlatform
import ReminderProtocol
import ReminderStore

/// What the delivery controller may reach of the engine: the core, which owns the items, their
/// occurrences and the schedule, and runs the commands. Delivery reads the items and settings,
/// records what the server showed, runs a button's command, and keeps everything else to itself.
protocol DeliveryCore: AnyObject, Sendable {
    /// The items, their occurrence records and the fires the server accepted.
    var index: ItemIndex { get }
    var configuration: Configuration { get }
    var zone: TimeZoneRules { get }
    var rules: FireTimeRules { get }
    /// Records reminders the server accepted as pop-up `notificationId`: in memory, so they are not
    /// shown again while this run lasts, whether or not the store took them; a store's refusal is
    /// thrown after.
    /// Records the reminders shown; `failure` is logged with the error should storing that fail.
    func noteShown(_ shown: [ShownReminder], notificationId: UInt32, now: Int64, failure: String)
    /// Runs `body` now, or once another program let go of the store's lock (`LockedCalls`);
    /// `what` names it in the line logged when it is put aside.
    func whenStoreUnlocked(_ what: String, _ body: @escaping () -> Void)
    /// Runs `body`, which writes only through `writeUnlessLocked`, now, or after the buttons and
    /// calls kept before it (`LockedCalls`).
    func afterEarlierEvents(_ body: @escaping () -> Void)
    /// A write whose change memory has already, made later if another program holds the store's
    /// lock (`LockedCalls`); `failure` is logged with the error should it fail other than by the lock.
    func writeUnlessLocked(_ failure: String, _ write: @escaping () throws(ReminderStoreError) -> Void)
    // A pop-up's buttons run the engine's commands, the very ones a client's call runs
    // (`VarlinkEdge.swift`), which throw their refusal (`EngineError`); the reply is not needed,
    // and Done and Undo build none (the edge builds a client's).
    func markDone(_ id: String, amount: Money?, early: Bool, cancelled: Bool, now: Int64) throws(EngineError)
    func snooze(_ id: String, _ duration: CalendarDuration, now: Int64) throws(EngineError) -> SnoozeReply
    /// A snooze until a wall time ("Snooze until tomorrow"), clamped as the command's is.
    func snooze(_ id: String, _ target: SnoozeTarget, now: Int64) throws(EngineError) -> SnoozeReply
    /// A snooze until `end`, a minute before the due time ("until the last minute").
    func snooze(_ id: String, until end: Int64, label: String?, now: Int64) throws(EngineError) -> SnoozeReply
    func undo(_ id: String, now: Int64) throws(EngineError)
    /// A pop-up of the item closed by the person, stored: its repeats stop.
    func noteDismissed(_ itemId: String, at now: Int64)
    /// A button or a dismiss changed an item's stored state: for reminderd-sync to push.
    func noteLocalChange(now: Int64)
    /// Puts the end of a timed pause on the timer wheel (nil: none), replacing an earlier one.
    func armPauseEnd(at instant: Int64?)
    /// The earliest deadline (a retry's) or the status line may have changed.
    func publish()
}

/// Delivery: the reminders that came due on their way to the screen and while they are there —
/// the outbox (`FireOutbox`: in flight, on screen, waiting, held, to be shown again), retries of
/// a server's refusal with back-off, reminderd's pause and its digest, the desktop's
/// do-not-disturb, grouped pop-ups and going through them one at a time, the Undo offers and the
/// notices, the notifier's events (buttons, closes, servers coming and going), and the
/// acknowledgements of other devices that decide whether a reminder is still shown. A part of the
/// engine on the engine's queue; its mutable state is in one box whose confinement to that queue
/// is checked on every access (`QueueBound`), and it reaches the engine only through
/// `DeliveryCore` (a button runs the engine's command through it).
final class DeliveryController: Sendable {
    /// What delivery remembers.
    struct State {
        /// The reminders that came due and are not gone yet: in flight, on screen, waiting, held.
        var outbox = FireOutbox()
        /// When the pause ends: nil when not paused, `untilResumed` for a pause without an end.
        var pausedUntil: Int64?
        /// Back-off for reminders the server refused.
        var retryDelay = DeliveryController.firstRetryDelay
        /// When the waiting reminders are tried again after a refusal, if they are to be.
        var retryAt: Int64?
        /// Per item, the newest acknowledgement another device made (a dismiss, snooze or Done
        /// there, from `SyncPulled`): a reminder that fired by then is not shown here (`stillDue`).
        var acknowledgedElsewhere: [String: Int64] = [:]
        /// The reminders gone through one at a time as last stored (`persistTurn`).
        var storedTurn: String?
        /// The server id the reminder shown in turn had when the previous run stopped: the first
        /// shown in turn after a start replaces it, so it is not on screen twice.
        var turnShownBefore: UInt32?
        /// The pop-ups to show again after a start as last stored (`persistReshow`).
        var storedReshow: String?
        /// The server ids of the pop-ups the previous run left on screen: closed when a server is
        /// known, before their reminders are shown again (`restoreReshow`).
        var closeAtStart: [UInt32] = []
        /// The server process that gave those ids (`ServerInfo.identity`), as stored with them.
        var closeAtStartServer: String?
        /// The server process that gave `turnShownBefore` (`ServerInfo.identity`), as stored with it.
        var turnShownBeforeServer: String?
        /// The server ids of the sample pop-ups on screen (`reminderctl try`): their buttons change nothing.
        var samplePopUps: Set<UInt32> = []
        /// `reminderctl try` calls made while no notification server was known, waiting for one.
        var samplesAwaitingServer: [ParkedCall] = []
    }

    /// The engine, which owns this controller. Held weakly: an answer of the notifier or of the
    /// store's flush can come after the engine is gone (the daemon stopped, a test ended), and is
    /// then dropped (`onQueue`, `withEngine`).
    private weak let engine: (any DeliveryCore)?
    /// The engine, there for every call from it and for every answer `onQueue` runs.
    var core: any DeliveryCore { engine! }
    /// The store, for delivery's own records in it: deliveries begun, the pause, history of held
    /// reminders and dismisses; what the server showed goes through `core`.
    let store: ReminderStore
    let notifier: Notifier
    let clock: @Sendable () -> Int64
    let logger: Logger
    let queue: DispatchQueue
    let state: QueueBound<State>

    init(
        core: any DeliveryCore, store: ReminderStore, notifier: Notifier, clock: @escaping @Sendable () -> Int64,
        logger: Logger, queue: DispatchQueue
    ) {
        engine = core
        self.store = store
        self.notifier = notifier
        self.clock = clock
        self.logger = logger
        self.queue = queue
        state = QueueBound(State(), queue: queue)
    }

    // The state, read or changed on the engine's queue.
    var outbox: FireOutbox {
        get { state.value.outbox }
        _modify { yield &state.value.outbox }
    }
    var pausedUntil: Int64? {
        get { state.value.pausedUntil }
        _modify { yield &state.value.pausedUntil }
    }
    var retryDelay: Int {
        get { state.value.retryDelay }
        _modify { yield &state.value.retryDelay }
    }
    var retryAt: Int64? {
        get { state.value.retryAt }
        _modify { yield &state.value.retryAt }
    }
    var acknowledgedElsewhere: [String: Int64] {
        get { state.value.acknowledgedElsewhere }
        _modify { yield &state.value.acknowledgedElsewhere }
    }
    var storedTurn: String? {
        get { state.value.storedTurn }
        _modify { yield &state.value.storedTurn }
    }
    var turnShownBefore: UInt32? {
        get { state.value.turnShownBefore }
        _modify { yield &state.value.turnShownBefore }
    }

    // What delivery reads of the core.
    var items: ItemTable { core.index.items }
    var occurrences: [String: [Int64: OccurrenceRecord]] { core.index.occurrences }
    var fired: FiredSet { core.index.fired }
    var configuration: Configuration { core.configuration }
    var zone: TimeZoneRules { core.zone }
    var rules: FireTimeRules { core.rules }

    typealias ScheduledEvent = ReminderEngine.ScheduledEvent

    /// At start: the pause as stored, its end on the wheel.
    func start() throws(ReminderStoreError) {
        pausedUntil = DeliveryController.pause(stored: try store.savedPause())
        armPauseEnd()
        try restoreTurn(now: clock())
        try restoreReshow(now: clock())
    }

    /// Listens to the notifier: buttons, closes, servers and do-not-disturb, handled on the queue.
    func listen() {
        notifier.start { [weak self] event in
            guard let self else { return }
            self.onQueue { self.receive(event) }
        }
    }

    /// Runs `body` on the queue while the engine is there, keeping it until `body` returns.
    func onQueue(_ body: @escaping @Sendable () -> Void) {
        queue.async { [weak self] in self?.withEngine(body) }
    }

    /// Runs `body` now if the engine is still there, keeping it until `body` returns.
    func withEngine(_ body: () -> Void) {
        guard let engine else { return }
        withExtendedLifetime(engine, body)
    }

    /// Whether a reminder is still worth showing: its item exists, its occurrence is neither
    /// done nor past — except an overdue rebuy's, whose occurrence is past by definition — and
    /// no other device acknowledged the item since the reminder's time. Nor one of an occurrence
    /// the item no longer has: an Undo or an edit took it away (a rebuy's cycle rolled back).
    /// Nor one of an occurrence after the current one: an Undo made an earlier occurrence current
    /// again, and the later one's reminders come when it is current (its snooze fire waiting for
    /// a server was shown beside the restored occurrence's own, the item's snooze twice). Nor
    /// a repeat (`RepeatRule`) of a showing acknowledged since, while it waited for a server or was held.
    func stillDue(_ event: ScheduledEvent, now: Int64) -> Bool {
        guard case .fire(let itemId, let occurrence, _, let lead, _) = event, let item = items[itemId],
            rules.firstOccurrence(of: item, dueAfter: occurrence.due - 1, where: { _ in true })?.due == occurrence.due
        else { return false }
        if let current = core.index.currentOccurrence(of: item, rules: rules, now: now), current.due < occurrence.due {
            return false
        }
        if let acknowledged = acknowledgedElsewhere[itemId], FireOutbox.covers(event, itemId, acknowledged) {
            return false
        }
        if RepeatRule.number(ofLead: lead) != nil, let acknowledged = core.index.acknowledged[itemId],
            acknowledged >= core.index.lastShown[itemId]?.at ?? .min
        {
            return false
        }
        let ahead = occurrence.due > now || lead == ReminderEngine.overdueLead
        return ahead && occurrences[itemId]?[occurrence.due]?.doneAt == nil
    }

    /// Whether a reminder of the item that `instant` covers is in flight, on screen, waiting or
    /// held (Explain; a dismiss elsewhere is said in history only then).
    func hasReminder(of itemId: String, firedBy instant: Int64) -> Bool { outbox.holds(itemId, firedBy: instant) }

    /// How many reminders wait for a server, and how many are held (Status).
    var waitingCount: Int { outbox.waiting.count }
    var heldCount: Int { outbox.held.count }

    /// The earliest scheduled time of a reminder that came due but is not shown yet (waiting for a
    /// server, held, held for a refresh): `lastSeen` stays before it, so a restart shows it.
    var earliestUnshownFire: Int64? {
        let outbox = outbox
        var earliest: Int64?
        for case .fire(_, _, let fires, _, _) in outbox.waiting + outbox.held + outbox.refreshing {
            if let first = fires.lazy.map(\.at).min() { earliest = min(earliest ?? first, first) }
        }
        return earliest
    }

    /// How delivery's invariants are broken: the outbox's own, and those it shares with the wheel
    /// and the sync link — a fire is in exactly one place, so one still on `schedule` is in none
    /// of the outbox's; fires held for a refresh have the refresh's end (`refreshEnds`) to go out at.
    func checkInvariant(against schedule: FireSchedule, refreshEnds: Int64?) -> [String] {
        let outbox = outbox
        var broken = outbox.checkInvariant()
        if !outbox.refreshing.isEmpty && refreshEnds == nil {
            broken.append("fires are held for a refresh that has no end")
        }
        var scheduled = Set<FireKey>()
        schedule.forEach(dueBy: .max - 1) { event, _ in
            guard case .fire(let itemId, let occurrence, let fires, _, _) = event else { return }
            for fire in fires { scheduled.insert(FireKey(itemId: itemId, due: occurrence.due, fireAt: fire.at)) }
        }
        outbox.forEachFire { key, place in
            if scheduled.contains(key) {
                broken.append("\(key.itemId) at \(key.fireAt) is both scheduled and \(place)")
            }
        }
        return broken
    }

    /// Why reminders are held, while some are: the reason the latest `held` entry recorded.
    func heldReason() -> String? {
        guard !outbox.held.isEmpty else { return nil }
        return (try? store.history(limit: 1, event: .held))?.first?.reason
    }

    /// Reminders whose items reminderd-sync pulls first (a refresh): held until `releaseRefresh`.
    func holdForRefresh(_ events: [ScheduledEvent]) { outbox.keep(events, in: .refreshing) }

    /// Shows the fires held for a refresh that are still due.
    func releaseRefresh(now: Int64) {
        deliver(outbox.take(.refreshing).filter { stillDue($0, now: now) }, now: now)
    }

    /// A removed item: its reminders waiting or held, its acknowledgements and its pop-ups go.
    func forget(_ itemId: String) {
        outbox.drop(itemId)
        acknowledgedElsewhere[itemId] = nil
        closePopUps(of: itemId)
    }

    /// Closes the item's pop-ups — only the given occurrence's with `due` (one that passed or was
    /// missed: their countdown and buttons mean nothing any more) — and takes its reminders off
    /// the grouped pop-ups on screen, as an acknowledgement from another device does
    /// (`withdrawFromGroups`): a group went on naming a reminder done here.
    func closePopUps(of id: String, due: Int64? = nil) {
        for serverId in outbox.popUps(of: id, due: due) {
            notifier.close(id: serverId)
            outbox.offScreen(serverId)
        }
        withdrawFromGroups(where: { $0.itemId == id && (due == nil || $0.dueInstant == due) }, now: clock())
    }

    /// What a pull closed: the occurrences done, passed or removed elsewhere (`closing`: an item
    /// and a due instant, nil for all of its), and the items another device acknowledged up to an
    /// instant (`acknowledged`): their reminders that fired by then are not shown here, those on
    /// screen are closed, and a grouped pop-up loses them and shows the others again.
    func closedElsewhere(closing: [(itemId: String, due: Int64?)], acknowledged: [String: Int64], now: Int64) {
        for (id, due) in closing { closePopUps(of: id, due: due) }
        for (id, instant) in acknowledged {
            acknowledgedElsewhere[id] = max(acknowledgedElsewhere[id] ?? instant, instant)
            outbox.drop(id, firedBy: instant)
            for serverId in outbox.popUps(of: id, firedBy: instant) {
                notifier.close(id: serverId)
                outbox.offScreen(serverId)
            }
        }
        withdrawFromGroups(
            where: { event in
                closing.contains { $0.itemId == event.itemId && ($0.due == nil || $0.due == event.dueInstant) }
                    || acknowledged[event.itemId].map { FireOutbox.covers(event, event.itemId, $0) } == true
            }, now: now)
    }

    /// The zone changed and the stored occurrences moved with it: so do the reminders it holds.
    func moveOccurrences(_ move: (Int64) -> Int64) { outbox.moveOccurrences(move) }

    /// Moves one item's reminders in the outbox after an edit moved its occurrences (`moves`, as
    /// the store's): one waiting for a server must meet its occurrence's Done where it went.
    func moveOccurrences(of itemId: String, _ moves: [(from: Int64, to: Int64)]) {
        guard !moves.isEmpty else { return }
        let map = Dictionary(moves.map { ($0.from, $0.to) }, uniquingKeysWith: { first, _ in first })
        outbox.moveOccurrences(of: itemId) { map[$0] ?? $0 }
    }

    /// Shows a pop-up that is no reminder (the missed ones' summary, a sync conflict) — or keeps
    /// it, as plain text, until a server is known: at start it is composed before the server has
    /// said what it can do, and only then is it known whether its body must be escaped.
    func showNotice(_ request: NotificationRequest) {
        guard let server = notifier.serverInfo() else {
            outbox.keepNotice(request)
            return
        }
        notifier.show(composer(for: server, now: clock()).notice(request)) { [weak self] result in
            guard let self, case .failure(let error) = result else { return }
            self.logger.warning("could not show the \(request.summary) pop-up: \(error)")
            if case .noServer = error { self.onQueue { self.outbox.keepNotice(request) } }
        }
    }

    /// What pop-ups say and offer, for the server known now (see `PopUpComposer`).
    func composer(for server: ServerInfo?, now: Int64) -> PopUpComposer {
        PopUpComposer(server: server, configuration: configuration, rules: rules, zone: zone, now: now)
    }

    /// A history line, stored after another program's lock is let go (`LockedCalls`).
    func appendHistory(_ itemId: String, _ title: String, _ event: HistoryEvent, _ reason: String, now: Int64) {
        let entry = HistoryRecord(at: now, itemId: itemId, title: title, event: event, reason: reason)
        core.writeUnlessLocked("cannot record history") { [store] () throws(ReminderStoreError) in
            try store.recordHistory(entry)
        }
    }
}
