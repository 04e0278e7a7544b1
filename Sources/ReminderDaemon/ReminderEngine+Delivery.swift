import Dispatch
import GRDB
import ReminderCore
import ReminderStore

extension ReminderEngine {
    /// Shows a due reminder — or holds it while paused, or keeps it until a server appears. It is
    /// recorded as fired only once the server has accepted it, so it is shown at most once.
    func deliver(_ event: ScheduledEvent, now: Int64) {
        guard case .fire(let itemId, let occurrence, let fireAts, let lead, _) = event, let item = items[itemId] else {
            return
        }
        let text = NotificationText(
            item: item, occurrence: occurrence, now: now, zone: zone, defaultCurrency: configuration.currency)
        if let paused = pausedUntil, paused > now, text.urgency != NotificationText.Urgency.critical {
            held.append(event)
            appendHistory(itemId, item.title, "held", "paused \(pauseDescription(paused))", now: now)
            return
        }
        guard let server = notifier.serverInfo() else {
            // No server on the bus, or one whose capabilities are still being asked (at start):
            // the reminder goes out when it is known, with the buttons it offers.
            logger.info("reminder waits for a notification server", metadata: ["ITEM_ID": "\(itemId)"])
            waiting.append(event)
            return
        }
        let capabilities = Set(server.capabilities)
        var body = text.body + (lateness(of: event, now: now).map { " (late: \($0))" } ?? "")
        var actions: [(key: String, label: String)] = []
        if capabilities.contains("actions") {
            actions.append(("done", text.doneLabel))
            for option in configuration.snoozeOptions where snoozeEnd(option, from: now, due: occurrence.due) != nil {
                actions.append(("snooze-\(option)", "Snooze \(option)"))
            }
            actions.append(("default", "Show"))
        } else {
            body += "\nreminderctl done \(itemId)"
        }
        if capabilities.contains("body-markup") { body = markupEscaped(body) }
        let replaces = onScreen.first { $0.value.itemId == itemId }?.key ?? 0
        let request = NotificationRequest(
            summary: text.summary, body: body, urgency: text.urgency, category: text.category, actions: actions,
            replacesId: replaces, resident: capabilities.contains("persistence"),
            bypassDoNotDisturb: text.urgency == NotificationText.Urgency.critical)
        beginDelivery(itemId, due: occurrence.due, fireAts: fireAts, now: now)
        notifier.show(request) { [weak self] result in
            guard let self else { return }
            self.queue.async { self.delivered(event, item: item, lead: lead, replaced: replaces, result: result) }
        }
    }

    func delivered(
        _ event: ScheduledEvent, item: Item, lead: String, replaced: UInt32, result: Result<UInt32, NotifierError>
    ) {
        guard case .fire(let itemId, let occurrence, let fireAts, _, _) = event else { return }
        let now = clock()
        switch result {
        case .success(let id):
            retryDelay = ReminderEngine.firstRetryDelay
            // A pop-up shown again on a new server was fired already: history says so, once.
            let shownAgain = fireAts.allSatisfy {
                fired.contains(FireKey(itemId: itemId, due: occurrence.due, fireAt: $0))
            }
            do {
                try store.write { db in
                    for fireAt in fireAts {
                        try ReminderStore.endDelivery(itemId: itemId, due: occurrence.due, fireAt: fireAt, db)
                        try FireRecord(
                            itemId: itemId, due: occurrence.due, fireAt: fireAt, shownAt: now, notificationId: Int64(id)
                        ).insert(db, onConflict: .ignore)
                    }
                    try ReminderStore.appendHistory(
                        HistoryRecord(
                            at: now, itemId: itemId, title: item.title, event: shownAgain ? "reshown" : "fired",
                            reason: shownAgain
                                ? "open when the notification server went away; shown on the new one"
                                : "lead \(lead)" + (lateness(of: event, now: now).map { ", late: \($0)" } ?? "")), db)
                }
            } catch {
                logger.error(
                    "shown but not recorded (it may show once more after a restart): \(error)",
                    metadata: ["ITEM_ID": "\(itemId)"])
            }
            for fireAt in fireAts { fired.insert(FireKey(itemId: itemId, due: occurrence.due, fireAt: fireAt)) }
            if replaced != 0 { onScreen[replaced] = nil }
            if stillDue(event, now: now) {
                onScreen[id] = PopUp(itemId: itemId, due: occurrence.due, event: event)
            } else {
                // Answered after its occurrence was done, passed or removed (closing it then found
                // nothing on screen): its countdown and buttons mean nothing any more.
                notifier.close(id: id)
            }
            logger.info(
                "reminder shown",
                metadata: ["ITEM_ID": "\(itemId)", "OCCURRENCE": "\(occurrence.due)", "NOTIFICATION_ID": "\(id)"])
        case .failure(.inhibited(let reason)):
            held.append(event)
            appendHistory(itemId, item.title, "held", "desktop do-not-disturb: \(reason)", now: now)
        case .failure(.refused(let reason)):
            // The server is there but said no (busy, full, timed out): try again, backing off.
            logger.warning(
                "the notification server refused a reminder, retrying: \(reason)", metadata: ["ITEM_ID": "\(itemId)"])
            waiting.append(event)
            scheduleRetry(now: now)
        case .failure(.timedOut(let reason)):
            // The server may still show it: sending it again to the same server could show it
            // twice. It is shown again only on the next server (as if it had been on screen).
            logger.warning(
                "the notification server did not answer (\(reason)); the reminder may be on screen, so it is shown again only on the next server",
                metadata: ["ITEM_ID": "\(itemId)"])
            repost.append(event)
        case .failure(let error):
            logger.warning("reminder waits: \(error)", metadata: ["ITEM_ID": "\(itemId)"])
            if items[itemId] != nil { waiting.append(event) }
        }
        publish()
    }

    /// Notes before the `Notify` call that the reminder is being handed over, so a restart after
    /// a crash before its outcome is recorded shows it once more (see `DeliveryRecord`).
    func beginDelivery(_ itemId: String, due: Int64, fireAts: [Int64], now: Int64) {
        do {
            try store.write { db in
                for fireAt in fireAts {
                    try ReminderStore.beginDelivery(
                        DeliveryRecord(itemId: itemId, due: due, fireAt: fireAt, startedAt: now), db)
                }
            }
        } catch {
            logger.error(
                "cannot note a reminder as being shown (a crash before it is recorded could lose it): \(error)",
                metadata: ["ITEM_ID": "\(itemId)"])
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
            } else if action.hasPrefix("snooze-"),
                case .success(let duration) = CalendarDuration.parse(String(action.dropFirst(7)), rules: .snooze)
            {
                press(action, on: popUp, now: now) { try snooze(itemId, duration, now: now) }
            }
        case .closed(let id, let reason):
            undoOffers[id] = nil
            guard let itemId = onScreen.removeValue(forKey: id)?.itemId else { return }
            if reason == 2, let item = items[itemId] {
                appendHistory(itemId, item.title, "dismissed", "closed on screen", now: now)
            }
        case .serverAppeared:
            // Waiting reminders, then those that were on the old server's screen, once each.
            let pending = waiting + repost
            let pendingNotices = notices
            waiting.removeAll()
            repost.removeAll()
            notices.removeAll()
            for notice in pendingNotices { showNotice(notice) }
            for event in pending where stillDue(event, now: now) { deliver(event, now: now) }
            releaseHeldIfDesktopAllows()
        case .doNotDisturbChanged:
            releaseHeldIfDesktopAllows()
        case .serverVanished:
            // Its ids mean nothing to the next server; what was open is shown again there.
            repost += onScreen.values.map(\.event)
            onScreen.removeAll()
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
        let isRebuy = items[popUp.itemId].map { if case .rebuy = $0.schedule { true } else { false } } ?? false
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
        notifier.show(
            NotificationRequest(
                summary: button == "done" ? "Not done" : "Not snoozed", body: "\(title): \(reason)", urgency: .normal,
                category: "x-reminderd.refused",
                timeoutMilliseconds: 10_000)
        ) { _ in }
        return false
    }

    /// Closes the pop-ups of an occurrence that passed or was missed: their countdown and buttons
    /// mean nothing any more.
    func closePopUps(of itemId: String, due: Int64) {
        for (id, popUp) in onScreen where popUp.itemId == itemId && popUp.due == due {
            onScreen[id] = nil
            notifier.close(id: id)
        }
    }

    /// After Done from a button, once its flush settled: the confirmation with Undo, or word that
    /// the Done is saved but not confirmed on disk (a power cut may lose it).
    func confirmDone(_ itemId: String, _ durability: Durability, now: Int64) {
        guard case .notConfirmed(let reason) = durability else { return offerUndo(itemId, now: now) }
        logger.error(
            "a Done from a button is saved but not confirmed on disk: \(reason)", metadata: ["ITEM_ID": "\(itemId)"])
        notifier.show(
            NotificationRequest(
                summary: "Done, not confirmed on disk",
                body: "\(items[itemId]?.title ?? itemId): saved but not confirmed on disk: \(reason)", urgency: .normal,
                category: "x-reminderd.refused", timeoutMilliseconds: 10_000)
        ) { _ in }
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
        let request = NotificationRequest(
            summary: "Done", body: body, urgency: .low, category: "x-reminderd.done", actions: actions,
            timeoutMilliseconds: 10_000)
        notifier.show(request) { [weak self] result in
            guard let self, case .success(let id) = result else { return }
            self.queue.async { self.undoOffers[id] = itemId }
        }
    }

    /// When a snooze of `duration` from `now` would fire (quiet hours applied, clamped to the
    /// last minute before the due instant), or nil when none fits.
    func snoozeEnd(_ duration: CalendarDuration, from now: Int64, due: Int64) -> Int64? {
        var end = now + duration.nominalSeconds
        if let quiet = configuration.quietHours, let moved = rules.moveOutOfQuietHours(end, window: quiet, due: due) {
            end = moved.fireAt
        }
        if end >= due { end = due - 60 }
        return end > now ? end : nil
    }

    func appendHistory(_ itemId: String, _ title: String, _ event: String, _ reason: String, now: Int64) {
        do {
            try store.write { db in
                try ReminderStore.appendHistory(
                    HistoryRecord(at: now, itemId: itemId, title: title, event: event, reason: reason), db)
            }
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
        for event in pending where stillDue(event, now: now) { deliver(event, now: now) }
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
