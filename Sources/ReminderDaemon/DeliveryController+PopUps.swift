import CivilTime
import Dispatch
import ReminderCore
import ReminderJSON
import ReminderStore

extension DeliveryController {
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
                item: item, occurrence: occurrence, now: now, zone: zone, defaultCurrency: configuration.currency,
                moneyLocale: configuration.moneyLocale)
            // A pause holds every pop-up, one due today too (CONTRACT §3): the person asked for
            // quiet; the digest at resume shows what was held, and `status` counts it meanwhile.
            if let paused = pausedUntil, paused > now {
                outbox.keep(event, in: .held, because: .paused(since: now))
                appendHistory(itemId, item.title, .held, "paused \(pauseDescription(paused))", now: now)
                continue
            }
            guard server != nil else {
                // No server on the bus, or one whose capabilities are still being asked (at start):
                // the reminder goes out when it is known, with the buttons it offers.
                logger.info("reminder waits for a notification server", metadata: ["ITEM_ID": "\(itemId)"])
                outbox.keep(event, in: .waiting, because: .noServer(since: now))
                continue
            }
            ready.append((event, item, text))
        }
        guard let server, !ready.isEmpty else { return }
        let composer = composer(for: server, now: now)
        if ready.count > DeliveryController.mostSeparatePopUps {
            showGroup(ready, composer: composer)
        } else {
            for reminder in ready { show(reminder.event, item: reminder.item, text: reminder.text, composer: composer) }
        }
    }

    /// More reminders than this at one instant share one pop-up.
    static let mostSeparatePopUps = 2

    /// Shows one reminder, replacing a pop-up of the same item on screen; a repeat (`RepeatRule`)
    /// of one shown in a group takes it off the group first, so it is not on screen twice.
    func show(_ event: ScheduledEvent, item: Item, text: NotificationText, composer: PopUpComposer) {
        guard case .fire(let itemId, let occurrence, let fires, let lead, _) = event else { return }
        if RepeatRule.number(ofLead: lead) != nil { withdrawFromGroups(where: { $0.itemId == itemId }, now: composer.now) }
        // A pop-up re-shown on a new server is not late: it was shown on time on the old one.
        let shownAgain = wasShown(itemId, due: occurrence.due, fires: fires)
        let replaces = outbox.onScreen.first { $0.value.itemId == itemId }?.key ?? 0
        let request = composer.reminder(event, text: text, shownAgain: shownAgain, replacesId: replaces)
        beginDelivery([event], now: composer.now)
        let ticket = outbox.send([event])
        notifier.show(request) { [weak self] result in
            guard let self else { return }
            self.onQueue {
                self.delivered(
                    self.outbox.answered(ticket), item: [itemId: item], replaced: replaces, grouped: false,
                    sent: composer.now, result: result)
            }
        }
    }

    /// Whether the server accepted every fire a pop-up stands for already: it is being shown again
    /// on a new server, not late, and its history line is `reshown`.
    func wasShown(_ itemId: String, due: Int64, fires: [ReminderFire]) -> Bool {
        let shown = fired.of(itemId)
        return fires.allSatisfy { shown.contains(due: due, $0) }
    }

    /// The server's answer to one pop-up (`grouped`: one pop-up for all `events`) sent at `sent`:
    /// a server that never answered is dated from then, not from when its silence was noticed.
    func delivered(
        _ events: [ScheduledEvent], item: [String: Item], replaced: UInt32, grouped: Bool, sent: Int64,
        result: Result<UInt32, NotifierError>
    ) {
        let now = clock()
        switch result {
        case .success(let id):
            retryDelay = DeliveryController.firstRetryDelay
            var shown: [ShownReminder] = []
            for event in events {
                guard case .fire(let itemId, let occurrence, let fires, let lead, _) = event else { continue }
                // A pop-up shown again on a new server was fired already: history says so, once.
                let shownAgain = wasShown(itemId, due: occurrence.due, fires: fires)
                let late = PopUpComposer.historyNote(of: event, zone: zone, now: now).map { ", \($0)" } ?? ""
                shown.append(
                    ShownReminder(
                        itemId: itemId, due: occurrence.due, fires: fires, title: item[itemId]?.title ?? itemId,
                        event: shownAgain ? .reshown : .fired,
                        reason: shownAgain
                            ? "open when the notification server went away; shown on the new one"
                            : "lead \(lead)" + (grouped ? ", grouped" : "") + late))
            }
            core.noteShown(
                shown, notificationId: id, now: now,
                failure: "shown but not recorded (it may show once more after a restart)")
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
            outbox.keep(events, in: .held, because: .doNotDisturb(since: now))
            for event in events {
                appendHistory(
                    event.itemId, item[event.itemId]?.title ?? event.itemId, .held,
                    "desktop do-not-disturb: \(reason)", now: now)
            }
        case .failure(.refused(let reason)):
            // The server is there but said no (busy, full, timed out): try again, backing off.
            logger.warning("the notification server refused a reminder, retrying: \(reason)")
            outbox.keep(events, in: .waiting, because: .serverRefused(since: now))
            scheduleRetry(now: now)
        case .failure(.timedOut(let reason)):
            // The server may still show it: sending it again to the same server could show it
            // twice. It is shown again only on the next server (as if it had been on screen).
            logger.warning(
                "the notification server did not answer (\(reason)); the reminder may be on screen, so it is shown again only on the next server"
            )
            outbox.keep(events, in: .repost, because: .noAnswer(since: sent))
        case .failure(let error):
            logger.warning("reminder waits: \(error)")
            outbox.keep(events.filter { items[$0.itemId] != nil }, in: .waiting, because: .noServer(since: now))
        }
        core.publish()
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
        core.writeUnlessLocked(
            "cannot note reminders as being shown (a crash before they are recorded could lose them)"
        ) { [store] () throws(ReminderStoreError) in try store.beginDeliveries(records) }
    }
    static let firstRetryDelay = 10
    static let longestRetryDelay = 900

    /// Tries the waiting reminders again after `retryDelay` seconds, doubling it each time up to
    /// 15 minutes; a success resets it. The retry is a deadline on the engine's clock, beside the
    /// wheel's (see `ReminderEngine.publish`), so the driver wakes for it and tests move it with their clock.
    func scheduleRetry(now: Int64) {
        guard retryAt == nil else { return }
        retryAt = now + Int64(retryDelay)
        retryDelay = min(retryDelay * 2, DeliveryController.longestRetryDelay)
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
    /// After the desktop's do-not-disturb may have ended: the held reminders go out as one
    /// digest, unless reminderd's own pause is still on.
    func releaseHeldIfDesktopAllows() {
        guard !outbox.held.isEmpty, pausedUntil == nil else { return }
        notifier.doNotDisturb { [weak self] reason in
            guard let self, reason == nil else { return }
            self.onQueue {
                // A `pause` given while the desktop was asked stays: only the held ones go out.
                guard self.pausedUntil == nil else { return }
                self.releaseHeld(now: self.clock())
                self.core.publish()
            }
        }
    }
}
