import Dispatch
import Logging
import ReminderStore

/// What the sync endpoint may reach of the engine: the core that owns the items, the schedule
/// and the reminders in flight. Sync keeps its own state and reaches the rest only through this.
protocol SyncCore: AnyObject, Sendable {
    /// The earliest deadline may have changed (the link's): the timer driver re-arms.
    func publish()
    /// A refresh is over (its pull came, or its time): the fires it held that are still due go out.
    func releaseRefresh(now: Int64)
}

/// reminderd's end of sync (docs/SYNC.md): the `Sync…` methods reminderd-sync calls, and the link
/// to it (`SyncLink`: its parked calls and what they wait for). A part of the engine on the
/// engine's queue; its mutable state is in one box whose confinement to that queue is checked on
/// every access (`QueueBound`), and it reaches the engine only through `SyncCore`.
final class SyncEndpoint: Sendable {
    /// What sync remembers between calls.
    struct State {
        /// reminderd-sync's parked calls and what they wait for: local changes, `SyncNow`, refreshes.
        var link = SyncLink()
    }

    /// The engine, which owns this endpoint.
    unowned let core: any SyncCore
    let store: ReminderStore
    let logger: Logger
    let state: QueueBound<State>

    init(core: any SyncCore, store: ReminderStore, logger: Logger, queue: DispatchQueue) {
        self.core = core
        self.store = store
        self.logger = logger
        state = QueueBound(State(), queue: queue)
    }

    /// The link to reminderd-sync, read or changed on the engine's queue.
    var link: SyncLink {
        get { state.value.link }
        _modify { yield &state.value.link }
    }
}
