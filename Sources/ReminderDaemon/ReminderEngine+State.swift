import CivilTime
import ReminderCore
import ReminderPlatform
import ReminderStore

/// The engine's state as its commands read and change it: each property reads or changes its
/// box (`ReminderEngine`'s `…Box`), which traps when touched off the engine's queue.
extension ReminderEngine {
    /// The parts made on first use, which hold the engine (weakly) and so are made after it; and
    /// the calls put aside while another program holds the store's lock (`LockedCalls.swift`).
    struct Parts {
        var delivery: DeliveryController?
        var sync: SyncEndpoint?
        let lockedCalls = LockedCalls()
    }

    /// Who hears of the engine's changes.
    struct Listeners {
        /// Called on `queue` whenever the earliest deadline may have changed, so the driver re-arms.
        var deadlineChanged: (@Sendable (Int64?) -> Void)?
        /// Called on `queue` when the status line changes (for systemd's STATUS=).
        var statusChanged: (@Sendable (String) -> Void)?
    }

    var configuration: Configuration {
        get { configurationBox.value }
        _modify { yield &configurationBox.value }
    }
    var zone: TimeZoneRules {
        get { zoneBox.value }
        _modify { yield &zoneBox.value }
    }
    var rules: FireTimeRules {
        get { rulesBox.value }
        _modify { yield &rulesBox.value }
    }

    /// Items, their order, occurrence records and accepted fires.
    var index: ItemIndex {
        get { indexBox.value }
        _modify { yield &indexBox.value }
    }
    /// The panel indicator's parts while a panel is present (`publishIndicator`).
    var indicatorCache: IndicatorCache? {
        get { indicatorCacheBox.value }
        _modify { yield &indicatorCacheBox.value }
    }
    // Read-only views of the index, for the many places that only read.
    var items: ItemTable { index.items }
    var order: [String] { index.order }
    var occurrences: [String: [Int64: OccurrenceRecord]] { index.occurrences }
    var fired: FiredSet { index.fired }
    var quarantined: [String: QuarantinedItem] { index.quarantined }

    /// The timer wheel and what is on it.
    var schedule: FireSchedule {
        get { scheduleBox.value }
        _modify { yield &scheduleBox.value }
    }

    /// Delivery: the outbox, retries, the pause, grouped pop-ups, buttons and the notifier's events.
    var delivery: DeliveryController {
        if let delivery = partsBox.delivery { return delivery }
        let delivery = DeliveryController(
            core: self, store: store, notifier: notifier, clock: clock, logger: logger, queue: queue)
        partsBox.delivery = delivery
        return delivery
    }
    /// Sync: the `Sync…` methods and the link to reminderd-sync, with their state.
    var sync: SyncEndpoint {
        if let sync = partsBox.sync { return sync }
        let sync = SyncEndpoint(core: self, store: store, logger: logger, queue: queue)
        partsBox.sync = sync
        return sync
    }
    /// The calls put aside while another program holds the store's lock (`LockedCalls.swift`).
    var lockedCalls: LockedCalls { partsBox.value.lockedCalls }

    /// Called on `queue` whenever the earliest deadline may have changed, so the driver re-arms.
    var deadlineChanged: (@Sendable (Int64?) -> Void)? {
        get { listenersBox.deadlineChanged }
        set { listenersBox.deadlineChanged = newValue }
    }
    /// Called on `queue` when the status line changes (for systemd's STATUS=).
    var statusChanged: (@Sendable (String) -> Void)? {
        get { listenersBox.statusChanged }
        set { listenersBox.statusChanged = newValue }
    }
}
