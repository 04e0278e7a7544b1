import CivilTime
import Dispatch
import ReminderCore
import ReminderJSON
import ReminderStore

extension ReminderEngine {
    /// Shows a due reminder — or holds it while paused, or keeps it until a server appears. It is
    /// recorded as fired only once the server has accepted it, so it is shown at most once.
    func deliver(_ event: ScheduledEvent, now: Int64) { deliver([event], now: now) }

    /// Shows reminders due at one instant: each on its own pop-up, or — more than
    /// `mostSeparatePopUps` of them — one grouped pop-up, so a card's nine credits at 08:30 do not
    /// bury the screen. Those paused or waiting for a server are kept as for one reminder.
    func deliver(_ events: [ScheduledEvent], now: Int64) {
        var ready: [(event: ScheduledEvent, item: Item, text: NotificationText)] = []
        let server = notifier.serverInfo()
        for event in events {
            guard case .fire(let itemId, let occurrence, _, _, _) = event, let item = items[itemId] else { continue }
            let text = NotificationText(
                item: item, occurrence: occurrence, now: now, zone: zone, defaultCurrency: configuration.currency)
            if let paused = pausedUntil, paused > now, text.urgency != NotificationText.Urgency.critical {
                held.append(event)
                appendHistory(itemId, item.title, .held, "paused \(pauseDescription(paused))", now: now)
                continue
            }
            guard server != nil else {
                // No server on the bus, or one whose capabilities are still being asked (at start):
                // the reminder goes out when it is known, with the buttons it offers.
                logger.info("reminder waits for a notification server", metadata: ["ITEM_ID": "\(itemId)"])
                waiting.append(event)
                continue
            }
            ready.append((event, item, text))
        }
        guard let server, !ready.isEmpty else { return }
        if ready.count > ReminderEngine.mostSeparatePopUps {
            showGroup(ready, server: server, now: now)
        } else {
            for reminder in ready {
                show(reminder.event, item: reminder.item, text: reminder.text, server: server, now: now)
            }
        }
    }

    /// More reminders than this at one instant share one pop-up.
    static let mostSeparatePopUps = 2

    /// One reminder's pop-up: it stays until acted on (expire timeout 0, `resident`), its buttons
    /// are Done and the snoozes that fit, at most three (GNOME draws no more).
    func show(_ event: ScheduledEvent, item: Item, text: NotificationText, server: ServerInfo, now: Int64) {
        guard case .fire(let itemId, let occurrence, let fireAts, _, _) = event else { return }
        let capabilities = Set(server.capabilities)
        // A pop-up re-shown on a new server is not late: it was shown on time on the old one.
        let shownAgain = fireAts.allSatisfy { fired.contains(FireKey(itemId: itemId, due: occurrence.due, fireAt: $0)) }
        var body = text.body + (shownAgain ? "" : lateness(of: event, now: now).map { " (late: \($0))" } ?? "")
        var actions: [(key: String, label: String)] = []
        if capabilities.contains("actions") {
            actions.append(("done", text.doneLabel))
            actions += snoozeActions(due: occurrence.due, now: now)
        } else {
            body += "\nreminderctl done \(itemId)"
        }
        if capabilities.contains("body-markup") { body = markupEscaped(body) }
        let replaces = onScreen.first { $0.value.itemId == itemId }?.key ?? 0
        let request = NotificationRequest(
            summary: text.summary, body: body, urgency: ReminderEngine.urgency(text.urgency, on: server),
            category: text.category, actions: actions, replacesId: replaces, timeoutMilliseconds: 0,
            resident: capabilities.contains("persistence"),
            bypassDoNotDisturb: text.urgency == NotificationText.Urgency.critical)
        beginDelivery([event], now: now)
        notifier.show(request) { [weak self] result in
            guard let self else { return }
            self.queue.async {
                self.delivered([event], item: [itemId: item], replaced: replaces, grouped: false, result: result)
            }
        }
    }

    /// The urgency sent for a pop-up. GNOME Shell shows a low one in its list only, and hides a
    /// normal banner after a few seconds into a list that draws no buttons: there a reminder (and
    /// the Undo offer) goes out critical, the only banner that stays until acted on.
    static func urgency(_ urgency: NotificationText.Urgency, on server: ServerInfo?) -> NotificationText.Urgency {
        server?.name == "gnome-shell" ? .critical : urgency
    }

    /// The snooze buttons of a pop-up: the configured snoozes that end before the due time
    /// (quiet hours applied), shortest first, two at most beside Done; when none fits but the
    /// due time is more than two minutes away, one to be reminded a minute before it.
    func snoozeActions(due: Int64, now: Int64) -> [(key: String, label: String)] {
        let fitting = configuration.snoozeOptions.sorted { $0.nominalSeconds < $1.nominalSeconds }.filter {
            snoozeEnd($0, from: now, due: due)?.shortened == false
        }
        if !fitting.isEmpty { return fitting.prefix(2).map { ("snooze-\($0)", "Snooze \($0)") } }
        return due - 60 > now + 60 ? [(ReminderEngine.lastMinuteAction, "Remind 1 min before")] : []
    }

    /// The action that snoozes until a minute before the due time.
    static let lastMinuteAction = "snooze-last-minute"

    /// The server's answer to one pop-up (`grouped`: one pop-up for all `events`).
    func delivered(
        _ events: [ScheduledEvent], item: [String: Item], replaced: UInt32, grouped: Bool,
        result: Result<UInt32, NotifierError>
    ) {
        let now = clock()
        switch result {
        case .success(let id):
            retryDelay = ReminderEngine.firstRetryDelay
            var shown: [ShownReminder] = []
            for event in events {
                guard case .fire(let itemId, let occurrence, let fireAts, let lead, _) = event else { continue }
                // A pop-up shown again on a new server was fired already: history says so, once.
                let shownAgain = fireAts.allSatisfy {
                    fired.contains(FireKey(itemId: itemId, due: occurrence.due, fireAt: $0))
                }
                let late = lateness(of: event, now: now).map { ", late: \($0)" } ?? ""
                shown.append(
                    ShownReminder(
                        itemId: itemId, due: occurrence.due, fireAts: fireAts, title: item[itemId]?.title ?? itemId,
                        event: shownAgain ? .reshown : .fired,
                        reason: shownAgain
                            ? "open when the notification server went away; shown on the new one"
                            : "lead \(lead)" + (grouped ? ", grouped" : "") + late))
            }
            do { try store.recordShown(shown, notificationId: Int64(id), at: now) } catch {
                logger.error("shown but not recorded (it may show once more after a restart): \(error)")
            }
            for case .fire(let itemId, let occurrence, let fireAts, _, _) in events {
                for fireAt in fireAts { fired.insert(FireKey(itemId: itemId, due: occurrence.due, fireAt: fireAt)) }
                logger.info(
                    "reminder shown",
                    metadata: ["ITEM_ID": "\(itemId)", "OCCURRENCE": "\(occurrence.due)", "NOTIFICATION_ID": "\(id)"])
            }
            if replaced != 0 { onScreen[replaced] = nil }
            // A pop-up answered after its occurrence was done, passed or removed (closing it then
            // found nothing on screen) is closed: its countdown and buttons mean nothing any more.
            if !events.contains(where: { stillDue($0, now: now) }) {
                notifier.close(id: id)
            } else if grouped {
                groupsOnScreen[id] = events
            } else if let event = events.first, case .fire(let itemId, let occurrence, _, _, _) = event {
                onScreen[id] = PopUp(itemId: itemId, due: occurrence.due, event: event)
            }
        case .failure(.inhibited(let reason)):
            held += events
            for event in events {
                appendHistory(
                    event.itemId, item[event.itemId]?.title ?? event.itemId, .held,
                    "desktop do-not-disturb: \(reason)", now: now)
            }
        case .failure(.refused(let reason)):
            // The server is there but said no (busy, full, timed out): try again, backing off.
            logger.warning("the notification server refused a reminder, retrying: \(reason)")
            waiting += events
            scheduleRetry(now: now)
        case .failure(.timedOut(let reason)):
            // The server may still show it: sending it again to the same server could show it
            // twice. It is shown again only on the next server (as if it had been on screen).
            logger.warning(
                "the notification server did not answer (\(reason)); the reminder may be on screen, so it is shown again only on the next server"
            )
            repost += events
        case .failure(let error):
            logger.warning("reminder waits: \(error)")
            waiting += events.filter { items[$0.itemId] != nil }
        }
        publish()
    }

    /// Notes before the `Notify` call that the reminders are being handed over, so a restart after
    /// a crash before their outcome is recorded shows them once more (see `DeliveryRecord`).
    func beginDelivery(_ events: [ScheduledEvent], now: Int64) {
        var records: [DeliveryRecord] = []
        for case .fire(let itemId, let occurrence, let fireAts, _, _) in events {
            for fireAt in fireAts {
                records.append(DeliveryRecord(itemId: itemId, due: occurrence.due, fireAt: fireAt, startedAt: now))
            }
        }
        do { try store.beginDeliveries(records) } catch {
            logger.error(
                "cannot note reminders as being shown (a crash before they are recorded could lose them): \(error)")
        }
    }

    func handle(_ event: NotifierEvent) {
        let now = clock()
        switch event {
        case .actionInvoked(let id, let action):
            if action == "undo", let itemId = undoOffers.removeValue(forKey: id) {
                perform(button: "undo", itemId) { try undo(itemId, now: now) }
                notifier.close(id: id)
                break
            }
            guard let popUp = onScreen[id] else { return }
            let itemId = popUp.itemId
            if action == "done" {
                if press("done", on: popUp, now: now, { try markDone(itemId, amount: nil, now: now) }) {
                    // Confirmed once on disk, as a client's reply is; a failed flush says so instead.
                    store.whenDurable(through: store.commitCount) { [weak self] durability in
                        self?.confirmDone(itemId, durability, now: now)
                    }
                }
            } else if action == ReminderEngine.lastMinuteAction {
                press(action, on: popUp, now: now) { try snooze(itemId, until: popUp.due - 60, now: now) }
            } else if action.hasPrefix("snooze-"),
                case .success(let duration) = CalendarDuration.parse(String(action.dropFirst(7)), rules: .snooze)
            {
                press(action, on: popUp, now: now) { try snooze(itemId, duration, now: now) }
            }
        case .closed(let id, let reason):
            undoOffers[id] = nil
            groupsOnScreen[id] = nil
            guard let itemId = onScreen.removeValue(forKey: id)?.itemId else { return }
            if reason == 2, let item = items[itemId] {
                appendHistory(itemId, item.title, .dismissed, "closed on screen", now: now)
            }
        case .serverAppeared:
            // Waiting reminders, then those that were on the old server's screen, once each.
            let pending = waiting + repost
            let pendingNotices = notices
            waiting.removeAll()
            repost.removeAll()
            notices.removeAll()
            for notice in pendingNotices { showNotice(notice) }
            deliver(pending.filter { stillDue($0, now: now) }, now: now)
            releaseHeldIfDesktopAllows()
        case .doNotDisturbChanged:
            releaseHeldIfDesktopAllows()
        case .serverVanished:
            // Its ids mean nothing to the next server; what was open is shown again there.
            repost += onScreen.values.map(\.event) + groupsOnScreen.values.joined()
            onScreen.removeAll()
            groupsOnScreen.removeAll()
            undoOffers.removeAll()
        }
        publish()
    }

    /// Runs a button's command, logging a refusal (the item may have changed meanwhile).
    func perform(button: String, _ itemId: String, _ command: () throws -> [String: JSONValue]) {
        do { _ = try command() } catch let error as CommandError {
            logger.warning("button \(button) refused: \(error.error)", metadata: ["ITEM_ID": "\(itemId)"])
        } catch {
            logger.error("button \(button) failed: \(error)", metadata: ["ITEM_ID": "\(itemId)"])
        }
    }

    /// Runs the command of a button on a reminder's pop-up, only while that pop-up's occurrence is
    /// still the one due (else Done would land on the next one); a refusal is logged and shown.
    /// Returns whether it succeeded.
    @discardableResult
    func press(_ button: String, on popUp: PopUp, now: Int64, _ command: () throws -> [String: JSONValue]) -> Bool {
        let reason: String
        // A rebuy's Done means "bought it today", as good after its run-out date as before.
        var isRebuy = false
        if case .rebuy = items[popUp.itemId]?.schedule { isRebuy = true }
        if popUp.due <= now && !(isRebuy && button == "done") {
            reason = "its due time \(Timestamp.format(popUp.due, in: zone)) has passed"
        } else if occurrences[popUp.itemId]?[popUp.due]?.doneAt != nil {
            reason = "it is already done"
        } else {
            do {
                _ = try command()
                return true
            } catch let error as CommandError {
                reason = error.error.description
            } catch {
                reason = "\(error)"
            }
        }
        logger.warning("button \(button) refused: \(reason)", metadata: ["ITEM_ID": "\(popUp.itemId)"])
        let title = items[popUp.itemId]?.title ?? popUp.itemId
        showRefusal(button == "done" ? "Not done" : "Not snoozed", "\(title): \(reason)")
        return false
    }

    /// A short pop-up saying why a button did not do what it says.
    func showRefusal(_ summary: String, _ body: String) {
        notifier.show(
            NotificationRequest(
                summary: summary, body: body, urgency: .normal, category: "x-reminderd.refused",
                timeoutMilliseconds: 10_000)
        ) { _ in }
    }

    /// After Done from a button, once its flush settled: the confirmation with Undo, or word that
    /// the Done is saved but not confirmed on disk (a power cut may lose it).
    func confirmDone(_ itemId: String, _ durability: Durability, now: Int64) {
        guard case .notConfirmed(let reason) = durability else { return offerUndo(itemId, now: now) }
        logger.error(
            "a Done from a button is saved but not confirmed on disk: \(reason)", metadata: ["ITEM_ID": "\(itemId)"])
        showRefusal(
            "Done, not confirmed on disk",
            "\(items[itemId]?.title ?? itemId): saved but not confirmed on disk: \(reason)")
    }

    /// After Done from a button: a short confirmation ("Marked $15 Uber Cash as used") with an
    /// Undo button, for about ten seconds.
    func offerUndo(_ itemId: String, now: Int64) {
        guard let item = items[itemId] else { return }
        let capabilities = Set(notifier.serverInfo()?.capabilities ?? [])
        let currency = item.currency ?? configuration.currency
        var body: String
        switch item.schedule {
        case .benefit(let benefit):
            body = "Marked \(benefit.amount.map { $0.formatted(currency: currency) + " " } ?? "")\(item.title) as used"
        case .coupon: body = "Marked \(item.title) as used"
        case .rebuy: body = "Rebought \(item.title)"
        default: body = "Done: \(item.title)"
        }
        var actions: [(key: String, label: String)] = []
        if capabilities.contains("actions") {
            actions.append(("undo", "Undo"))
        } else {
            body += "\nreminderctl undo \(itemId)"
        }
        if capabilities.contains("body-markup") { body = markupEscaped(body) }
        // Normal, not low: GNOME shows no banner for a low one, so its Undo could not be reached.
        let request = NotificationRequest(
            summary: "Done", body: body, urgency: ReminderEngine.urgency(.normal, on: notifier.serverInfo()),
            category: "x-reminderd.done", actions: actions, timeoutMilliseconds: 10_000)
        notifier.show(request) { [weak self] result in
            guard let self, case .success(let id) = result else { return }
            self.queue.async { self.undoOffers[id] = itemId }
        }
    }

    /// When a snooze of `duration` from `now` would fire (quiet hours applied, clamped to the
    /// last minute before the due instant, then `shortened`), or nil when none fits.
    func snoozeEnd(_ duration: CalendarDuration, from now: Int64, due: Int64) -> (end: Int64, shortened: Bool)? {
        var end = now + duration.nominalSeconds
        if let quiet = configuration.quietHours, let moved = rules.moveOutOfQuietHours(end, window: quiet, due: due) {
            end = moved.fireAt
        }
        var shortened = false
        if end >= due {
            end = due - 60
            shortened = true
        }
        return end > now ? (end, shortened) : nil
    }

    func appendHistory(_ itemId: String, _ title: String, _ event: HistoryEvent, _ reason: String, now: Int64) {
        do {
            try store.recordHistory(HistoryRecord(at: now, itemId: itemId, title: title, event: event, reason: reason))
        } catch {
            logger.error("cannot record history: \(error)")
        }
    }

    /// Why a reminder goes out late, if it does: it came due while reminderd was not running,
    /// or more than a minute ago while it ran (the machine slept, or the clock jumped forward).
    func lateness(of event: ScheduledEvent, now: Int64) -> String? {
        guard case .fire(_, _, let fireAts, _, let whileAway) = event, let due = fireAts.max() else { return nil }
        if whileAway { return "was due \(shortTime(due)), while reminderd was not running" }
        return now - due > ReminderEngine.lateAfter ? "was due \(shortTime(due))" : nil
    }

    /// How long after its time a reminder counts as late.
    static let lateAfter: Int64 = 60

    static let firstRetryDelay = 10
    static let longestRetryDelay = 900

    /// Tries the waiting reminders again after `retryDelay` seconds, doubling it each time up to
    /// 15 minutes; a success resets it. The retry is a deadline on the engine's clock, beside the
    /// wheel's (see `publish`), so the driver wakes for it and tests move it with their clock.
    func scheduleRetry(now: Int64) {
        guard retryAt == nil else { return }
        retryAt = now + Int64(retryDelay)
        retryDelay = min(retryDelay * 2, ReminderEngine.longestRetryDelay)
    }

    /// Sends the waiting reminders again when the retry's time has come.
    func retryIfDue(now: Int64) {
        guard let at = retryAt, at <= now else { return }
        retryAt = nil
        let pending = waiting
        waiting.removeAll()
        deliver(pending.filter { stillDue($0, now: now) }, now: now)
    }

    /// Whether a reminder is still worth showing: its item exists and its occurrence is neither
    /// done nor past — except an overdue rebuy's, whose occurrence is past by definition.
    func stillDue(_ event: ScheduledEvent, now: Int64) -> Bool {
        guard case .fire(let itemId, let occurrence, _, let lead, _) = event, items[itemId] != nil else { return false }
        let ahead = occurrence.due > now || lead == ReminderEngine.overdueLead
        return ahead && occurrences[itemId]?[occurrence.due]?.doneAt == nil
    }

    /// After the desktop's do-not-disturb may have ended: the held reminders go out as one
    /// digest, unless reminderd's own pause is still on.
    func releaseHeldIfDesktopAllows() {
        guard !held.isEmpty, pausedUntil == nil else { return }
        notifier.doNotDisturb { [weak self] reason in
            guard let self, reason == nil else { return }
            self.queue.async {
                // A `pause` given while the desktop was asked stays: only the held ones go out.
                guard self.pausedUntil == nil else { return }
                self.releaseHeld(now: self.clock())
                self.publish()
            }
        }
    }
}
