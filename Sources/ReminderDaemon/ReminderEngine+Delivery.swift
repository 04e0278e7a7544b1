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
                outbox.keep(event, in: .held)
                appendHistory(itemId, item.title, .held, "paused \(pauseDescription(paused))", now: now)
                continue
            }
            guard server != nil else {
                // No server on the bus, or one whose capabilities are still being asked (at start):
                // the reminder goes out when it is known, with the buttons it offers.
                logger.info("reminder waits for a notification server", metadata: ["ITEM_ID": "\(itemId)"])
                outbox.keep(event, in: .waiting)
                continue
            }
            ready.append((event, item, text))
        }
        guard let server, !ready.isEmpty else { return }
        let composer = composer(for: server, now: now)
        if ready.count > ReminderEngine.mostSeparatePopUps {
            showGroup(ready, composer: composer)
        } else {
            for reminder in ready { show(reminder.event, item: reminder.item, text: reminder.text, composer: composer) }
        }
    }

    /// More reminders than this at one instant share one pop-up.
    static let mostSeparatePopUps = 2

    /// What pop-ups say and offer, for the server known now (see `PopUpComposer`).
    func composer(for server: ServerInfo?, now: Int64) -> PopUpComposer {
        PopUpComposer(server: server, configuration: configuration, rules: rules, zone: zone, now: now)
    }

    /// Shows one reminder, replacing a pop-up of the same item on screen.
    func show(_ event: ScheduledEvent, item: Item, text: NotificationText, composer: PopUpComposer) {
        guard case .fire(let itemId, let occurrence, let fires, _, _) = event else { return }
        // A pop-up re-shown on a new server is not late: it was shown on time on the old one.
        let shownAgain = wasShown(itemId, due: occurrence.due, fires: fires)
        let replaces = outbox.onScreen.first { $0.value.itemId == itemId }?.key ?? 0
        let request = composer.reminder(event, text: text, shownAgain: shownAgain, replacesId: replaces)
        beginDelivery([event], now: composer.now)
        let ticket = outbox.send([event])
        notifier.show(request) { [weak self] result in
            guard let self else { return }
            self.queue.async {
                self.delivered(
                    self.outbox.answered(ticket), item: [itemId: item], replaced: replaces, grouped: false,
                    result: result)
            }
        }
    }

    /// Whether the server accepted every fire a pop-up stands for already: it is being shown again
    /// on a new server, not late, and its history line is `reshown`.
    func wasShown(_ itemId: String, due: Int64, fires: [ReminderFire]) -> Bool {
        let shown = fired.of(itemId)
        return fires.allSatisfy { shown.contains(due: due, $0) }
    }

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
                guard case .fire(let itemId, let occurrence, let fires, let lead, _) = event else { continue }
                // A pop-up shown again on a new server was fired already: history says so, once.
                let shownAgain = wasShown(itemId, due: occurrence.due, fires: fires)
                let late = PopUpComposer.lateness(of: event, zone: zone, now: now).map { ", late: \($0)" } ?? ""
                shown.append(
                    ShownReminder(
                        itemId: itemId, due: occurrence.due, fires: fires, title: item[itemId]?.title ?? itemId,
                        event: shownAgain ? .reshown : .fired,
                        reason: shownAgain
                            ? "open when the notification server went away; shown on the new one"
                            : "lead \(lead)" + (grouped ? ", grouped" : "") + late))
            }
            do { try store.recordShown(shown, notificationId: Int64(id), at: now) } catch {
                logger.error("shown but not recorded (it may show once more after a restart): \(error)")
            }
            for reminder in shown { index.recordShown(reminder) }
            for case .fire(let itemId, let occurrence, _, _, _) in events {
                logger.info(
                    "reminder shown",
                    metadata: ["ITEM_ID": "\(itemId)", "OCCURRENCE": "\(occurrence.due)", "NOTIFICATION_ID": "\(id)"])
            }
            if replaced != 0 { outbox.offScreen(replaced) }
            // A pop-up answered after its occurrence was done, passed or removed (closing it then
            // found nothing on screen) is closed: its countdown and buttons mean nothing any more.
            if !events.contains(where: { stillDue($0, now: now) }) {
                notifier.close(id: id)
            } else if grouped {
                outbox.onScreen(group: events, as: id)
            } else if let event = events.first {
                outbox.onScreen(event, as: id)
            }
        case .failure(.inhibited(let reason)):
            outbox.keep(events, in: .held)
            for event in events {
                appendHistory(
                    event.itemId, item[event.itemId]?.title ?? event.itemId, .held,
                    "desktop do-not-disturb: \(reason)", now: now)
            }
        case .failure(.refused(let reason)):
            // The server is there but said no (busy, full, timed out): try again, backing off.
            logger.warning("the notification server refused a reminder, retrying: \(reason)")
            outbox.keep(events, in: .waiting)
            scheduleRetry(now: now)
        case .failure(.timedOut(let reason)):
            // The server may still show it: sending it again to the same server could show it
            // twice. It is shown again only on the next server (as if it had been on screen).
            logger.warning(
                "the notification server did not answer (\(reason)); the reminder may be on screen, so it is shown again only on the next server"
            )
            outbox.keep(events, in: .repost)
        case .failure(let error):
            logger.warning("reminder waits: \(error)")
            outbox.keep(events.filter { items[$0.itemId] != nil }, in: .waiting)
        }
        publish()
    }

    /// Notes before the `Notify` call that the reminders are being handed over, so a restart after
    /// a crash before their outcome is recorded shows them once more (see `DeliveryRecord`).
    func beginDelivery(_ events: [ScheduledEvent], now: Int64) {
        var records: [DeliveryRecord] = []
        for case .fire(let itemId, let occurrence, let fires, _, _) in events {
            for fire in fires {
                records.append(DeliveryRecord(itemId: itemId, due: occurrence.due, fireAt: fire.at, startedAt: now))
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
        case .actionInvoked(let id, let key):
            guard let action = PopUpAction(key: key) else {
                // A server's own ("default", a click on the body): nothing reminderd offered.
                logger.debug("a pop-up action reminderd did not offer: \(key)", metadata: ["NOTIFICATION_ID": "\(id)"])
                break
            }
            if action == .undo, let itemId = outbox.takeUndoOffer(id) {
                runButton(action.key, itemId, now: now) { try undo(itemId, now: now) }
                notifier.close(id: id)
                break
            }
            if outbox.groupsOnScreen[id] != nil {
                pressOnGroup(action, id: id, now: now)
                break
            }
            guard let popUp = outbox.onScreen[id] else { return }
            let itemId = popUp.itemId
            switch action {
            case .done:
                if press(action, on: popUp, now: now, { try markDone(itemId, amount: nil, now: now) }) {
                    // Confirmed once on disk, as a client's reply is; a failed flush says so instead.
                    store.whenDurable(through: store.commitCount) { [weak self] durability in
                        self?.confirmDone(itemId, durability, now: now)
                    }
                }
            case .snoozeToLastMinute:
                press(action, on: popUp, now: now) { try snooze(itemId, until: popUp.due - 60, now: now) }
            case .snooze(let duration):
                press(action, on: popUp, now: now) { try snooze(itemId, duration, now: now) }
            case .undo, .oneAtATime, .snoozeAll:
                logger.warning("button \(key) means nothing on a reminder's own pop-up")
            }
        case .closed(let id, let reason):
            guard let itemId = outbox.closed(id)?.itemId else { return }
            if reason == 2, let item = items[itemId] {
                // An acknowledgement: other devices close the same reminder (pushed with it).
                let entry = HistoryRecord(
                    at: now, itemId: itemId, title: item.title, event: .dismissed, reason: "closed on screen")
                do { try store.recordDismiss(entry) } catch { logger.error("cannot record a dismiss: \(error)") }
                sync.noteLocalChange(now: now)
            }
        case .serverAppeared:
            // Waiting reminders, then those that were on the old server's screen, once each.
            let pending = outbox.take(.waiting) + outbox.take(.repost)
            for notice in outbox.takeNotices() { showNotice(notice) }
            deliver(pending.filter { stillDue($0, now: now) }, now: now)
            releaseHeldIfDesktopAllows()
        case .doNotDisturbChanged:
            releaseHeldIfDesktopAllows()
        case .serverVanished:
            outbox.serverVanished()
        }
        // A reminder shown one at a time that was acted on, dismissed or closed: the next one.
        showNextInTurn(now: now)
        publish()
    }

    /// Runs a button's command, logging a refusal (the item may have changed meanwhile); what
    /// it changed is for reminderd-sync to push.
    func runButton(_ button: String, _ itemId: String, now: Int64, _ command: () throws -> [String: JSONValue]) {
        do {
            _ = try command()
            sync.noteLocalChange(now: now)
        } catch let error as CommandError {
            logger.warning("button \(button) refused: \(error.error)", metadata: ["ITEM_ID": "\(itemId)"])
        } catch {
            logger.error("button \(button) failed: \(error)", metadata: ["ITEM_ID": "\(itemId)"])
        }
    }

    /// Runs the command of a button on a reminder's pop-up, only while that pop-up's occurrence is
    /// still the one due (else Done would land on the next one); a refusal is logged and shown,
    /// and what it changed is for reminderd-sync to push. Returns whether it succeeded.
    @discardableResult
    func press(
        _ button: PopUpAction, on popUp: FireOutbox.PopUp, now: Int64, _ command: () throws -> [String: JSONValue]
    ) -> Bool {
        let reason: String
        // A rebuy's Done means "bought it today", as good after its run-out date as before.
        var isRebuy = false
        if case .rebuy = items[popUp.itemId]?.schedule { isRebuy = true }
        if popUp.due <= now && !(isRebuy && button == .done) {
            reason = "its due time \(Timestamp.format(popUp.due, in: zone)) has passed"
        } else if occurrences[popUp.itemId]?[popUp.due]?.doneAt != nil {
            reason = "it is already done"
        } else {
            do {
                _ = try command()
                sync.noteLocalChange(now: now)
                return true
            } catch let error as CommandError {
                reason = error.error.description
            } catch {
                reason = "\(error)"
            }
        }
        logger.warning("button \(button.key) refused: \(reason)", metadata: ["ITEM_ID": "\(popUp.itemId)"])
        let title = items[popUp.itemId]?.title ?? popUp.itemId
        showRefusal(button == .done ? "Not done" : "Not snoozed", "\(title): \(reason)")
        return false
    }

    /// A short pop-up saying why a button did not do what it says.
    func showRefusal(_ summary: String, _ body: String) {
        let request = NotificationRequest(
            summary: summary, body: body, urgency: .normal, category: "x-reminderd.refused",
            timeoutMilliseconds: 10_000)
        notifier.show(composer(for: notifier.serverInfo(), now: clock()).notice(request)) { _ in }
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

    /// After Done from a button: the confirmation with an Undo button (`PopUpComposer.undoOffer`).
    func offerUndo(_ itemId: String, now: Int64) {
        guard let item = items[itemId] else { return }
        let request = composer(for: notifier.serverInfo(), now: now).undoOffer(for: item, id: itemId)
        notifier.show(request) { [weak self] result in
            guard let self, case .success(let id) = result else { return }
            self.queue.async { self.outbox.offerUndo(id, for: itemId) }
        }
    }

    /// When a snooze of `duration` from `now` would fire (`PopUpComposer.snoozeEnd`).
    func snoozeEnd(_ duration: CalendarDuration, from now: Int64, due: Int64) -> (end: Int64, shortened: Bool)? {
        PopUpComposer.snoozeEnd(duration, from: now, due: due, configuration: configuration, rules: rules)
    }

    func appendHistory(_ itemId: String, _ title: String, _ event: HistoryEvent, _ reason: String, now: Int64) {
        do {
            try store.recordHistory(HistoryRecord(at: now, itemId: itemId, title: title, event: event, reason: reason))
        } catch {
            logger.error("cannot record history: \(error)")
        }
    }

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
        let pending = outbox.take(.waiting)
        deliver(pending.filter { stillDue($0, now: now) }, now: now)
    }

    /// Whether a reminder is still worth showing: its item exists, its occurrence is neither
    /// done nor past — except an overdue rebuy's, whose occurrence is past by definition — and
    /// no other device acknowledged the item since the reminder's time.
    func stillDue(_ event: ScheduledEvent, now: Int64) -> Bool {
        guard case .fire(let itemId, let occurrence, _, let lead, _) = event, items[itemId] != nil else { return false }
        if let acknowledged = acknowledgedElsewhere[itemId], FireOutbox.covers(event, itemId, acknowledged) {
            return false
        }
        let ahead = occurrence.due > now || lead == ReminderEngine.overdueLead
        return ahead && occurrences[itemId]?[occurrence.due]?.doneAt == nil
    }

    /// After the desktop's do-not-disturb may have ended: the held reminders go out as one
    /// digest, unless reminderd's own pause is still on.
    func releaseHeldIfDesktopAllows() {
        guard !outbox.held.isEmpty, pausedUntil == nil else { return }
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
