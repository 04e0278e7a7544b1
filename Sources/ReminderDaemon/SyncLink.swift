import ReminderProtocol

/// The engine's side of its link to reminderd-sync (docs/SYNC.md): the `SyncWait` calls parked
/// until there is work, the `SyncNow` calls parked until the pass they asked for is reported, the
/// latest local change reminderd-sync was not told of, and the end of a pre-pop-up refresh.
///
/// It keeps and decides; it never answers a call itself. Answering writes to a connection, which
/// may fail and close it, which drops that connection's other parked calls (`ParkedCall.drop`) —
/// back into this part. So its methods hand the calls to answer to the engine, which answers them
/// once this part is no longer being changed.
///
/// Its deadlines are on the engine's clock, beside the wheel's (`ReminderEngine.publish`), so the
/// timer driver wakes for them and tests move them with their clock. None exists while nothing
/// changed: a reminderd-sync parked on `SyncWait` costs the daemon no wake-up.
///
/// Invariant: every call kept is open (an answered or dropped call is forgotten) and kept once,
/// as a waiter, as a `SyncNow` or as the pass's connection; a `SyncNow` not passed on yet exists
/// only while no waiter is parked (a parked waiter is told "now" at once).
struct SyncLink {
    /// Local changes are told this long after the latest one, so a burst of them makes one push.
    /// On the engine's whole-second clock: 1–2 s of real time.
    static let settleSeconds: Int64 = 2
    /// Fires wait at most this long for the pull a refresh asked for.
    static let refreshSeconds: Int64 = 2
    /// A `SyncNow` waits at most this long for its pass; and a pass that started longer ago is
    /// taken as ended (its reminderd-sync died without reporting).
    static let passSeconds: Int64 = 120

    /// A parked `SyncNow`, answered by the report of a pass started after it (`reported`).
    struct NowCall {
        let call: ParkedCall
        /// When it fails for want of a report.
        var deadline: Int64
        /// A waiter was told "now" for it: the next pass reminderd-sync starts is for it.
        var told: Bool
        /// A pass began (`SyncBegin`) after it: that pass's report answers it.
        var passBegun = false
    }

    /// `SyncWait` calls waiting for work, oldest first.
    private(set) var waiters: [ParkedCall] = []
    private(set) var nowCalls: [NowCall] = []
    /// The latest local change reminderd-sync was not told of; nil when there is none.
    private(set) var lastChange: Int64?
    /// When a waiter was last told of work, if no `SyncReport` came since: its pass is starting
    /// or under way.
    private(set) var toldAt: Int64?
    /// The connection of the pass under way (`CallParking.watch`): set by `SyncBegin`, let go by
    /// its `SyncReport`, forgotten when the connection closes (reminderd-sync died mid-pass).
    private(set) var pass: ParkedCall?
    /// When the fires held for a refresh go out at the latest; nil when none is under way.
    private(set) var refreshEnds: Int64?

    /// A reminderd-sync is parked on `SyncWait`: it can be told of work at once.
    var hasWaiter: Bool { !waiters.isEmpty }

    /// A reminderd-sync is running: waiting for work, or in a pass (it may run one with no
    /// waiter parked, between reading its `SyncWait`'s answer and waiting again).
    var connected: Bool { hasWaiter || pass != nil }

    /// Whether a `SyncNow` can be passed on at `now`: a reminderd-sync waits, or is in a pass
    /// (it is told "now" when it comes back to wait).
    func reachable(now: Int64) -> Bool {
        connected || toldAt.map { now < $0 + SyncLink.passSeconds } == true
    }

    /// The next moment `due` has work: the end of a change's settling time (only while a waiter
    /// can be told; with none, the change is only remembered), a `SyncNow`'s time-out, the end of
    /// a refresh.
    var nextDeadline: Int64? {
        let settled = hasWaiter ? lastChange.map { $0 + SyncLink.settleSeconds } : nil
        return ([settled, refreshEnds] + nowCalls.map { Optional($0.deadline) }).compactMap { $0 }.min()
    }

    /// A local change of an item's stored state, which reminderd-sync pushes.
    mutating func changed(at now: Int64) { lastChange = now }

    /// reminderd-sync found no change waiting (`SyncPending` answered none): the changes noted
    /// so far were pushed by a pass no waiter was told of — the one at its start, a periodic
    /// one — and telling a waiter of them now would only start a pass with nothing to push.
    mutating func nothingWaiting() { lastChange = nil }

    /// What a `SyncWait` coming at `now` is answered with at once: "now" for a `SyncNow` that
    /// came during the last pass, "changed" for changes whose settling time is over; nil when it
    /// waits (`park`).
    mutating func workWaiting(now: Int64) -> SyncWaitReply.Reason? {
        if nowCalls.contains(where: { !$0.told }) {
            for index in nowCalls.indices { nowCalls[index].told = true }
            told(.now, at: now)
            return .now
        }
        guard let lastChange, lastChange + SyncLink.settleSeconds <= now else { return nil }
        told(.changed, at: now)
        return .changed
    }

    mutating func park(_ waiter: ParkedCall) { waiters.append(waiter) }

    /// Keeps a `SyncNow` until its pass is reported; returns the waiters to tell "now" (none
    /// while reminderd-sync is between taking a waiter's answer and waiting again: it is told
    /// when it comes back).
    mutating func now(_ call: ParkedCall, at now: Int64) -> [ParkedCall] {
        nowCalls.append(NowCall(call: call, deadline: now + SyncLink.passSeconds, told: hasWaiter))
        return takeWaiters(.now, at: now)
    }

    /// Starts a refresh if a waiter can be told (the fires are held until `endRefresh` or the
    /// deadline); returns the waiters to tell "refresh", none when nothing is to be held.
    mutating func refresh(at now: Int64) -> [ParkedCall] {
        guard hasWaiter else { return [] }
        refreshEnds = refreshEnds ?? now + SyncLink.refreshSeconds
        return takeWaiters(.refresh, at: now)
    }

    /// The pull a refresh asked for came (or a pass ended): the held fires go out.
    mutating func endRefresh() { refreshEnds = nil }

    /// A pass began (`SyncBegin`) on the connection `watch` watches: every `SyncNow` kept so far
    /// is answered by its report. Returns the watch of an earlier pass never reported, to let go.
    mutating func begun(on watch: ParkedCall) -> ParkedCall? {
        let earlier = pass
        pass = watch
        for index in nowCalls.indices { nowCalls[index].passBegun = true }
        return earlier
    }

    /// A pass ended (`SyncReport`): returns the `SyncNow` calls it answers, and the watch of its
    /// connection, to let go.
    ///
    /// A `SyncNow` is answered only by a pass started after it, since a pass begun before it may
    /// have ended well before the person asked (a `sync now` said "synced" while the server
    /// refused every request). reminderd-sync keeps its `SyncWait` parked through a pass at
    /// start or a scheduled one, so being told "now" proves nothing; `SyncBegin` does:
    /// - a report ending a pass begun here (`SyncBegin` since the last report) answers the calls
    ///   made before that `SyncBegin`; those made during the pass wait for the next one, which
    ///   the "now" they were told starts;
    /// - a report with no `SyncBegin` before it ends a pass that failed before beginning (no
    ///   password, no task list): it answers the calls a waiter was told "now" for, as the pass
    ///   reminderd-sync starts on reading "now" is theirs. If instead the waiter was told during
    ///   a pass that then failed before its `SyncBegin`, that pass answers them: nothing of a pass
    ///   before `SyncBegin` reaches reminderd to tell the two apart, and such a pass changed
    ///   nothing and failed as the call came.
    mutating func reported() -> (answered: [ParkedCall], pass: ParkedCall?) {
        let answers: (NowCall) -> Bool = pass != nil ? { $0.passBegun } : { $0.told }
        let ended = pass
        toldAt = nil
        pass = nil
        let answered = nowCalls.filter(answers).map(\.call)
        nowCalls.removeAll(where: answers)
        return (answered, ended)
    }

    /// The deadlines passed by `now`: the waiters to tell "changed", the `SyncNow` calls out of
    /// time, and whether a refresh ended.
    mutating func due(now: Int64) -> (changed: [ParkedCall], timedOut: [ParkedCall], refreshOver: Bool) {
        clockMayHaveGoneBack(now: now)
        var changed: [ParkedCall] = []
        if let lastChange, lastChange + SyncLink.settleSeconds <= now { changed = takeWaiters(.changed, at: now) }
        let timedOut = nowCalls.filter { $0.deadline <= now }.map(\.call)
        nowCalls.removeAll { $0.deadline <= now }
        let refreshOver = refreshEnds.map { $0 <= now } == true
        if refreshOver { refreshEnds = nil }
        return (changed, timedOut, refreshOver)
    }

    /// After the clock was set back, no wait is longer than it is meant to be: a change an hour
    /// "ahead" would otherwise be told an hour late.
    private mutating func clockMayHaveGoneBack(now: Int64) {
        lastChange = lastChange.map { min($0, now) }
        refreshEnds = refreshEnds.map { min($0, now + SyncLink.refreshSeconds) }
        for index in nowCalls.indices where nowCalls[index].deadline > now + SyncLink.passSeconds {
            nowCalls[index].deadline = now + SyncLink.passSeconds
        }
    }

    /// Forgets a call whose connection closed; a pass whose connection closed is over.
    mutating func forget(_ call: ParkedCall) {
        waiters.removeAll { $0 === call }
        nowCalls.removeAll { $0.call === call }
        if pass === call { pass = nil }
    }

    /// Takes every waiter, to be told `reason`; none parked, nothing is told.
    private mutating func takeWaiters(_ reason: SyncWaitReply.Reason, at now: Int64) -> [ParkedCall] {
        guard hasWaiter else { return [] }
        defer { waiters.removeAll() }
        told(reason, at: now)
        return waiters
    }

    /// reminderd-sync starts a pass; a whole one ("changed", "now") pushes every change so far,
    /// a refresh only pulls.
    private mutating func told(_ reason: SyncWaitReply.Reason, at now: Int64) {
        toldAt = now
        if reason != .refresh { lastChange = nil }
    }

    /// How the invariant is broken: empty when it holds.
    func checkInvariant() -> [String] {
        var broken: [String] = []
        let calls = waiters + nowCalls.map(\.call) + (pass.map { [$0] } ?? [])
        for call in calls where !call.isOpen { broken.append("a parked call is kept after it was answered or dropped") }
        for (index, call) in calls.enumerated() where calls[..<index].contains(where: { $0 === call }) {
            broken.append("a parked call is kept twice")
        }
        if hasWaiter && nowCalls.contains(where: { !$0.told }) {
            broken.append("a SyncNow waits while reminderd-sync waits too, and was not told")
        }
        return broken
    }
}
