import CivilTime
import ReminderCore

/// Why a reminder goes out after its time, recorded where the delay is decided — planning at
/// start (reminderd was not running), quiet hours moving it (planning), the outbox keeping it
/// for a server or holding it (`DeliveryController`) — so its pop-up says what happened instead
/// of guessing from the clock. A reminder the timer simply ran late carries none: nothing held
/// it, so the computer slept or its clock jumped (`PopUpComposer.lateLabel`).
enum LateReason: Sendable, Equatable {
    /// Its time came while reminderd was not running: planned at start to go out now.
    case notRunning
    /// A previous run handed it to the notification server and stopped before the server's
    /// answer was recorded (`InterruptedRun.owed`): reminderd ran at its time, so it is not
    /// called "not running"; it is shown once more at start.
    case interrupted
    /// No notification server on the session bus (or none that answered) from `since`.
    case noServer(since: Int64)
    /// The notification server refused it from `since`; it was tried again, backing off.
    case serverRefused(since: Int64)
    /// The notification server did not answer its `Notify` (it hung, the call timed out) at
    /// `since`: it is shown again only on the next server.
    case noAnswer(since: Int64)
    /// Held by the desktop's do-not-disturb from `since`.
    case doNotDisturb(since: Int64)
    /// Held by `reminderctl pause` from `since`.
    case paused(since: Int64)
    /// Planned out of quiet hours `window`, to their end: not held, moved.
    case quietHours(QuietHours)
    /// Kept for `first`, then — from `last`'s `since` — for another reason, `last` (neither of
    /// them one of these): both are named, so the pop-up never says the first lasted until it
    /// went out, nor hides the first behind the last.
    indirect case then(first: LateReason, last: LateReason)

    /// Whether it goes out later than planned (a quiet-hours move is the plan).
    var isLate: Bool {
        if case .quietHours = self { return false }
        return true
    }

    /// The reason a reminder kept now for `reason` carries, having carried `earlier`: the same
    /// delay again (a refusal retried, a server still missing) keeps when it began; a different
    /// one is named after the first (`then`), so what is said is true however the delay
    /// changed; a quiet-hours move gives way to a delay.
    static func kept(_ reason: LateReason, after earlier: LateReason?) -> LateReason {
        guard let earlier, earlier.isLate else { return reason }
        let first: LateReason
        let last: LateReason
        if case .then(let earliest, let latest) = earlier {
            (first, last) = (earliest, latest)
        } else {
            (first, last) = (earlier, earlier)
        }
        if last.kind == reason.kind { return earlier }
        return .then(first: first, last: reason.last)
    }

    /// The reason without its history: the last of a `then`.
    private var last: LateReason {
        if case .then(_, let last) = self { return last }
        return self
    }

    /// Which delay it is, whatever its time.
    private var kind: Int {
        switch self {
        case .notRunning: 0
        case .interrupted: 1
        case .noServer: 2
        case .serverRefused: 3
        case .noAnswer: 4
        case .doNotDisturb: 5
        case .paused: 6
        case .quietHours: 7
        case .then: 8
        }
    }

    /// When the delay began, for a reminder planned for `at`.
    private func start(at: Int64) -> Int64 {
        switch self {
        case .noServer(let since), .serverRefused(let since), .noAnswer(let since), .doNotDisturb(let since),
            .paused(let since):
            since
        case .then(let first, _): first.start(at: at)
        case .notRunning, .interrupted, .quietHours: at
        }
    }

    /// Held on purpose (said however short).
    private var isHold: Bool {
        switch self {
        case .doNotDisturb, .paused: true
        default: false
        }
    }

    /// The delay as a clause of a `then` label ("no notification server from 12:06").
    private func clause(at: Int64, time: (Int64) -> String) -> String {
        switch self {
        case .notRunning: _t("reminderd was not running at %1$s").filled(time(at))
        case .interrupted:
            _t("reminderd stopped before the notification server confirmed its %1$s pop-up").filled(time(at))
        case .noServer(let since): _t("no notification server from %1$s").filled(time(since))
        case .serverRefused(let since): _t("the notification server refused it from %1$s").filled(time(since))
        case .noAnswer(let since): _t("the notification server did not answer from %1$s").filled(time(since))
        case .doNotDisturb(let since): _t("held by Do Not Disturb from %1$s").filled(time(since))
        case .paused(let since): _t("held by your pause from %1$s").filled(time(since))
        case .quietHours(let window):
            _t("moved out of quiet hours (%1$s–%2$s)").filled(window.start.hourMinute, window.end.hourMinute)
        case .then(let first, let last):
            _t("%1$s, then %2$s").filled(first.clause(at: at, time: time), last.clause(at: at, time: time))
        }
    }

    /// The words on a pop-up for a reminder planned for `at` and shown at `now`, with times
    /// as `time` writes them; nil when it is not worth saying (a delay under `lateAfter`).
    func words(at: Int64, now: Int64, lateAfter: Int64, time: (Int64) -> String) -> String? {
        switch self {
        case .notRunning: return _t("Late: reminderd was not running at %1$s").filled(time(at))
        case .interrupted: return _t("Late: %1$s").filled(clause(at: at, time: time))
        case .noServer, .serverRefused, .noAnswer:
            return now - at > lateAfter ? _t("Late: %1$s until %2$s").filled(clause(at: at, time: time), time(now)) : nil
        // Held on purpose: said however short, so a pop-up that comes when the hold ends is explained.
        case .doNotDisturb(let since): return _t("Held by Do Not Disturb since %1$s").filled(time(since))
        case .paused(let since): return _t("Held by your pause since %1$s").filled(time(since))
        case .quietHours(let window):
            // Moved is the plan; shown well after the moved time, nothing held it: it is late too.
            let moved = _t("Moved out of quiet hours (%1$s–%2$s)").filled(window.start.hourMinute, window.end.hourMinute)
            guard now - at > lateAfter else { return moved }
            return _t("%1$s; late: the computer was asleep or its clock jumped at %2$s").filled(moved, time(at))
        case .then(let first, let last):
            // A part shorter than `lateAfter` that was no hold is not worth saying: the other is.
            if !last.isHold && now - last.start(at: at) <= lateAfter {
                return first.words(at: at, now: now, lateAfter: lateAfter, time: time)
            }
            if !first.isHold && last.start(at: at) - first.start(at: at) <= lateAfter {
                return last.words(at: at, now: now, lateAfter: lateAfter, time: time)
            }
            return _t("Late: %1$s until %2$s").filled(clause(at: at, time: time), time(now))
        }
    }
}

extension ReminderEngine.ScheduledEvent {
    /// The reminder, kept for `reason` (see `LateReason.kept`); a pass is returned as it is.
    func delayed(_ reason: LateReason) -> Self {
        guard case .fire(let itemId, let occurrence, let fires, let lead, let late) = self else { return self }
        return .fire(
            itemId: itemId, occurrence: occurrence, fires: fires, lead: lead, late: LateReason.kept(reason, after: late))
    }
}
