import CivilTime
import ReminderCore

/// What a reminder's pop-up says and offers, as a pure function of plain values: the reminder(s),
/// what the server can do, the configuration and now. The engine decides when to show; this decides
/// what, in one place for a single reminder, a group, the Undo offer and the notices, so the rules
/// below hold for every pop-up and are tested without an engine:
/// - buttons only when the server has `actions` (else the body names the command);
/// - markup, escaped, only with `body-markup`;
/// - only snoozes that end before the occurrence passes (quiet hours applied);
/// - resident only with `persistence`.
struct PopUpComposer {
    let capabilities: Set<String>
    /// The server's name, for GNOME's urgency rule (`urgency(_:on:)`); nil with no server known.
    let serverName: String?
    let configuration: Configuration
    let rules: FireTimeRules
    let zone: TimeZoneRules
    let now: Int64

    init(server: ServerInfo?, configuration: Configuration, rules: FireTimeRules, zone: TimeZoneRules, now: Int64) {
        capabilities = Set(server?.capabilities ?? [])
        serverName = server?.name
        self.configuration = configuration
        self.rules = rules
        self.zone = zone
        self.now = now
    }

    /// One reminder's pop-up: it stays until acted on (expire timeout 0, `resident`), its buttons
    /// are Done and the snoozes that fit, at most three (GNOME draws no more). Its last line says
    /// why it comes late, if it does (`lateLabel`). `shownAgain`: it was on the screen of a server
    /// that went away, so it is not called late.
    func reminder(
        _ event: ReminderEngine.ScheduledEvent, text: NotificationText, shownAgain: Bool, replacesId: UInt32
    ) -> NotificationRequest {
        var body = text.body + (shownAgain ? "" : lateLabel(of: event).map { "\n\($0)" } ?? "")
        var actions: [(key: String, label: String)] = []
        if capabilities.contains("actions") {
            actions.append((PopUpAction.done.key, text.doneLabel))
            if let cancelLabel = text.cancelLabel { actions.append((PopUpAction.cancelled.key, cancelLabel)) }
            actions += snoozeActions(due: event.dueInstant).prefix(3 - actions.count)
        } else {
            body += "\nreminderctl done \(event.itemId)"
        }
        return NotificationRequest(
            summary: text.summary, body: markedUp(body), urgency: urgency(text.urgency), category: text.category,
            actions: actions, replacesId: replacesId, timeoutMilliseconds: 0,
            resident: capabilities.contains("persistence"),
            bypassDoNotDisturb: text.urgency == NotificationText.Urgency.critical)
    }

    /// One pop-up for several reminders, and their events in the order it names them: reminders
    /// due at the same instant (`dueTogether`: soonest due first, then by name, so the same
    /// reminders always read the same way; it names the first few and, per reminder, the command
    /// that marks it done), or the digest of those held while paused (`heldWhileBusy`, in the
    /// order they were held). Its buttons (`groupActions`) go through the reminders one at a time,
    /// each on its own pop-up with its Done and snoozes, and snooze them all; there is no Done
    /// for all (one press must not mark every one done).
    func group(
        _ group: [(event: ReminderEngine.ScheduledEvent, item: Item, text: NotificationText)],
        kind: GroupKind = .dueTogether
    ) -> (request: NotificationRequest, events: [ReminderEngine.ScheduledEvent]) {
        if kind == .heldWhileBusy {
            let titles = group.map(\.item.title)
            let list = titles.prefix(5).joined(separator: ", ") + (titles.count > 5 ? ", …" : "")
            let body = _n("%1$d reminders %2$s: %3$s", "%1$d reminders %2$s: %3$s", group.count).filled(
                String(group.count), heldWords(group.map(\.event)), list)
            let events = group.map(\.event)
            let request = NotificationRequest(
                summary: _t("Reminders"), body: markedUp(body), urgency: urgency(.normal), category: "x-reminderd.digest",
                actions: groupActions(events), timeoutMilliseconds: 0)
            return (request, events)
        }
        let reminders = group.sorted {
            ($0.event.dueInstant, $0.item.title) < ($1.event.dueInstant, $1.item.title)
        }
        let named = reminders.prefix(PopUpComposer.mostNamedInGroup)
        let rest = reminders.count - named.count
        let titles = named.map(\.text.summary)
        let first = titles.prefix(2).joined(separator: ", ")
        let summary =
            reminders.count > 2
            ? _n("%1$d reminders: %2$s and %3$d more", "%1$d reminders: %2$s and %3$d more", reminders.count - 2)
                .filled(String(reminders.count), first, String(reminders.count - 2))
            : _n("%1$d reminders: %2$s", "%1$d reminders: %2$s", reminders.count).filled(String(reminders.count), first)
        var lines = named.map { "\($0.text.body) — reminderctl done \($0.event.itemId)" }
        if rest > 0 { lines.append(_n("and %1$d more: reminderctl list", "and %1$d more: reminderctl list", rest).filled(String(rest))) }
        let urgencies = reminders.map(\.text.urgency)
        let most: NotificationText.Urgency =
            urgencies.contains(.critical) ? .critical : urgencies.contains(.normal) ? .normal : .low
        let events = reminders.map(\.event)
        let request = NotificationRequest(
            summary: summary, body: markedUp(lines.joined(separator: "\n")), urgency: urgency(most),
            category: "x-reminderd.group", actions: groupActions(events), timeoutMilliseconds: 0, resident: false,
            bypassDoNotDisturb: most == .critical)
        return (request, events)
    }

    /// What held the reminders of a digest, from the reasons recorded when each was held: "held
    /// by your pause since 09:00", "held by Do Not Disturb since 09:00", or — held by both, or
    /// one of them late before it was held — "while you were busy".
    func heldWords(_ events: [ReminderEngine.ScheduledEvent]) -> String {
        var pausedSince: [Int64] = []
        var quietSince: [Int64] = []
        for case .fire(_, _, _, _, let reason) in events {
            switch reason {
            case .paused(let since)?: pausedSince.append(since)
            case .doNotDisturb(let since)?: quietSince.append(since)
            default: break
            }
        }
        let time = { PopUpComposer.timeWords($0, zone: zone, now: now) }
        if pausedSince.count == events.count, let since = pausedSince.min() {
            return _t("held by your pause since %1$s").filled(time(since))
        }
        if quietSince.count == events.count, let since = quietSince.min() {
            return _t("held by Do Not Disturb since %1$s").filled(time(since))
        }
        return _t("while you were busy")
    }

    /// What a pop-up for several reminders stands for.
    enum GroupKind: Sendable {
        /// More than two reminders due at one instant.
        case dueTogether
        /// The reminders held while reminderd or the desktop was paused, released together.
        case heldWhileBusy
    }

    /// The buttons of a pop-up for several reminders, only when the server has `actions`: "One
    /// at a time", then "Snooze all" by the shortest configured snooze that ends before every
    /// one's due time (none when no snooze fits them all). Two buttons: within GNOME's three.
    func groupActions(_ events: [ReminderEngine.ScheduledEvent]) -> [(key: String, label: String)] {
        guard capabilities.contains("actions") else { return [] }
        var actions = [(key: PopUpAction.oneAtATime.key, label: _t("One at a time"))]
        let fitting = configuration.snoozeOptions.sorted { $0.nominalSeconds < $1.nominalSeconds }.first { option in
            events.allSatisfy {
                let end = PopUpComposer.snoozeEnd(
                    option, from: now, due: $0.dueInstant, configuration: configuration, rules: rules)
                return end?.shortened == false
            }
        }
        if let fitting { actions.append((PopUpAction.snoozeAll(fitting).key, _t("Snooze all %1$s").filled("\(fitting)"))) }
        return actions
    }

    /// Reminders named on a grouped pop-up; the rest are counted and left to `reminderctl list`.
    static let mostNamedInGroup = 5

    /// After Done from a button: a short confirmation ("Marked $15 Uber Cash as used") with an
    /// Undo button, for about ten seconds; without `button` (a Done in the middle of a walk,
    /// `DeliveryController.offerUndo`) or on a server without buttons, the command that undoes it.
    /// `keptTrial`: the Done was a free trial's "Keep it", which paid nothing (the item, its trial
    /// cleared, cannot tell): it says the subscription goes on and when it first charges.
    func undoOffer(for item: Item, id itemId: String, button: Bool = true, keptTrial: Bool = false)
        -> NotificationRequest
    {
        let currency = item.currency ?? configuration.currency
        var body: String
        switch item.schedule {
        case .subscription(let subscription) where keptTrial:
            let thisYear = zone.localDateTime(at: now).date.year
            let charge = rules.firstOccurrence(of: item, dueAfter: now) { _ in true }
                .map { DateText.sentence($0.dueDate, thisYear: thisYear) } ?? subscription.next.description
            if let amount = subscription.amount {
                body = _t("Keeping %1$s · first charge %2$s on %3$s").filled(
                    item.title, amount.formatted(currency: currency, in: configuration.moneyLocale), charge)
            } else {
                body = _t("Keeping %1$s · first charge on %2$s").filled(item.title, charge)
            }
        case .benefit(let benefit):
            if let amount = benefit.amount {
                body = _t("Marked %1$s %2$s as used").filled(amount.formatted(currency: currency, in: configuration.moneyLocale), item.title)
            } else {
                body = _t("Marked %1$s as used").filled(item.title)
            }
        case .coupon: body = _t("Marked %1$s as used").filled(item.title)
        case .rebuy: body = _t("Rebought %1$s").filled(item.title)
        case .subscription(let subscription) where subscription.cancelled != nil:
            body = _t("Cancelled %1$s").filled(item.title)
        // The words of the button pressed ("Mark as paid") and of `reminderctl done` ("Paid").
        case .subscription, .fee: body = _t("Marked %1$s as paid").filled(item.title)
        }
        var actions: [(key: String, label: String)] = []
        if button && capabilities.contains("actions") {
            actions.append((PopUpAction.undo.key, _t("Undo")))
        } else {
            body += "\nreminderctl undo \(itemId)"
        }
        // Normal, not low: GNOME shows no banner for a low one, so its Undo could not be reached.
        return NotificationRequest(
            summary: _t("Done"), body: markedUp(body), urgency: urgency(.normal), category: "x-reminderd.done",
            actions: actions, timeoutMilliseconds: 10_000)
    }

    /// A pop-up that is no reminder (a notice, the digest of held reminders, a refused button):
    /// its body names items by the titles people typed, so it is escaped like a reminder's.
    func notice(_ request: NotificationRequest) -> NotificationRequest {
        var request = request
        request.body = markedUp(request.body)
        return request
    }

    /// The snooze buttons of a pop-up, two at most beside Done (GNOME draws three): the shortest
    /// configured snooze that ends before the due time (quiet hours applied), then "Snooze until
    /// tomorrow" where it does something (`tomorrowSnoozeEnd`), else the next such snooze; when
    /// none fits but the due time is more than two minutes away, one to be reminded a minute
    /// before it.
    func snoozeActions(due: Int64) -> [(key: String, label: String)] {
        snoozeOffers(due: due).map { ($0.action.key, $0.label) }
    }

    /// `snoozeActions` as buttons with their labels (the panel indicator's menu offers the same).
    func snoozeOffers(due: Int64) -> [(action: PopUpAction, label: String)] {
        let fitting = configuration.snoozeOptions.sorted { $0.nominalSeconds < $1.nominalSeconds }.compactMap {
            option -> (option: CalendarDuration, end: Int64)? in
            guard
                let end = PopUpComposer.snoozeEnd(option, from: now, due: due, configuration: configuration, rules: rules),
                !end.shortened
            else { return nil }
            return (option, end.end)
        }
        var offers = fitting.prefix(1).map { (PopUpAction.snooze($0.option), _t("Snooze %1$s").filled("\($0.option)")) }
        let tomorrow = PopUpComposer.tomorrowSnoozeEnd(from: now, due: due, configuration: configuration, rules: rules)
        if let tomorrow, tomorrow != fitting.first?.end {
            offers.append((.snoozeUntilTomorrow, _t("Snooze until tomorrow")))
        } else {
            offers += fitting.dropFirst().prefix(1).map { (PopUpAction.snooze($0.option), _t("Snooze %1$s").filled("\($0.option)")) }
        }
        if !offers.isEmpty { return offers }
        return due - 60 > now + 60 ? [(PopUpAction.snoozeToLastMinute, _t("Remind 1 min before"))] : []
    }

    /// Where "Snooze until tomorrow" ends: tomorrow at the reminder time (`SnoozeTarget.tomorrow`),
    /// out of quiet hours; nil where that is not before the due time (shortened, it would be
    /// "Remind 1 min before" under another name: CONTRACT, none that does nothing) or where quiet
    /// hours ending at the due time move it back into today (it would not be tomorrow).
    static func tomorrowSnoozeEnd(
        from now: Int64, due: Int64, configuration: Configuration, rules: FireTimeRules
    ) -> Int64? {
        let asked = SnoozeTarget.tomorrow.instant(from: now, rules: rules).instant
        guard let end = snoozeEnd(at: asked, from: now, due: due, configuration: configuration, rules: rules),
            !end.shortened, end.end >= asked
        else { return nil }
        return end.end
    }

    /// When a snooze of `duration` from `now` would fire (clamped to the last minute before the
    /// due instant, then `shortened`; then moved out of quiet hours), or nil when none fits.
    static func snoozeEnd(
        _ duration: CalendarDuration, from now: Int64, due: Int64, configuration: Configuration, rules: FireTimeRules
    ) -> (end: Int64, shortened: Bool)? {
        snoozeEnd(at: now + duration.nominalSeconds, from: now, due: due, configuration: configuration, rules: rules)
    }

    /// The one clamp of every snooze, whether it ends after a while or at a wall time
    /// (`SnoozeTarget`): `end`, or a minute before the due instant when it is at or after it
    /// (`shortened`), then out of quiet hours; nil when that is not after `now`.
    static func snoozeEnd(
        at target: Int64, from now: Int64, due: Int64, configuration: Configuration, rules: FireTimeRules
    ) -> (end: Int64, shortened: Bool)? {
        var end = target
        var shortened = false
        // Shortened first, then out of quiet hours: a minute before a 23:59 due time is itself
        // quiet, and the snooze must end before the window (21:59), not in it.
        if end >= due {
            end = due - 60
            shortened = true
        }
        if let quiet = configuration.quietHours, let moved = rules.moveOutOfQuietHours(end, window: quiet, due: due) {
            end = moved.fireAt
        }
        return end > now ? (end, shortened) : nil
    }

    /// Why a reminder goes out late, or was moved, if it was (`lateLabel(of:now:time:)`), its
    /// times as a pop-up writes them (`timeWords`).
    func lateLabel(of event: ReminderEngine.ScheduledEvent) -> String? {
        PopUpComposer.lateLabel(of: event, now: now) { PopUpComposer.timeWords($0, zone: zone, now: now) }
    }

    /// Why a reminder goes out late, or was moved, in the words of the reason recorded where that
    /// was decided (`LateReason`). One with none that goes out more than `lateAfter` after its
    /// time was late because nothing ran the timer meanwhile: the computer slept, or its clock
    /// jumped forward (the two look the same to the daemon).
    static func lateLabel(
        of event: ReminderEngine.ScheduledEvent, now: Int64, time: (Int64) -> String
    ) -> String? {
        guard case .fire(_, _, let fires, _, let reason) = event, let at = fires.lazy.map(\.at).max() else {
            return nil
        }
        if let reason { return reason.words(at: at, now: now, lateAfter: lateAfter, time: time) }
        return now - at > lateAfter
            ? _t("Late: the computer was asleep or its clock jumped at %1$s").filled(time(at)) : nil
    }

    /// The pop-up's `lateLabel` as a history reason writes it after the lead ("late: held by Do
    /// Not Disturb since …"), its times in RFC 3339 as history keeps them (reminderctl writes
    /// them as tables do). In English whatever the pop-ups' language: history is kept, and its
    /// reasons are read back by their words.
    static func historyNote(of event: ReminderEngine.ScheduledEvent, zone: TimeZoneRules, now: Int64) -> String? {
        let label = Translation.inEnglish { lateLabel(of: event, now: now, time: { Timestamp.format($0, in: zone) }) }
        guard let label else { return nil }
        if label.hasPrefix("Late: ") { return "late: " + label.dropFirst("Late: ".count) }
        let sentence = label.prefix(1).lowercased() + label.dropFirst()
        return label.hasPrefix("Held") ? "late: " + sentence : sentence
    }

    /// How long after its time a reminder counts as late.
    static let lateAfter: Int64 = 60

    /// A time on a pop-up in its language (`DateText`): "09:00" today, "Tue 09:00" within the
    /// week around today, else with its date ("Tue 2026-11-24 09:00", "11월 24일 (화) 09:00").
    static func timeWords(_ instant: Int64, zone: TimeZoneRules, now: Int64) -> String {
        let local = zone.localDateTime(at: instant)
        let today = zone.localDateTime(at: now).date
        let days = local.date.dayNumber - today.dayNumber
        if days == 0 { return local.time.hourMinute }
        if abs(days) < 7 { return DateText.weekdayAndTime(local) }
        return DateText.sentence(local, thisYear: today.year)
    }

    /// "Tue 09:00" within the coming week, else "2026-12-01 09:00".
    static func shortTime(_ instant: Int64, zone: TimeZoneRules, now: Int64) -> String {
        let local = zone.localDateTime(at: instant)
        let days = local.date.dayNumber - zone.localDateTime(at: now).date.dayNumber
        let day = days >= 0 && days < 7 ? local.date.weekdayAbbreviation : local.date.description
        return "\(day) \(local.time.hourMinute)"
    }

    /// The urgency sent for a pop-up. GNOME Shell shows a low one in its list only, and hides a
    /// normal banner after a few seconds into a list that draws no buttons: there a reminder (and
    /// the Undo offer) goes out critical, the only banner that stays until acted on.
    func urgency(_ urgency: NotificationText.Urgency) -> NotificationText.Urgency {
        serverName == "gnome-shell" ? .critical : urgency
    }

    /// `body`, escaped for a server that reads markup.
    func markedUp(_ body: String) -> String {
        capabilities.contains("body-markup") ? markupEscaped(body) : body
    }
}
