import CivilTime
import Dispatch
import ReminderCore
import ReminderStore

extension DeliveryController {
    /// `pausedUntil` of a pause without an end: never reached, and never shown as a date.
    static let untilResumed = Int64.max

    /// The pause as stored (setting `pausedUntil`): Unix seconds, or "untilResumed".
    static func storedPause(_ until: Int64) -> String { until == untilResumed ? "untilResumed" : String(until) }

    /// The stored pause; nil when not paused.
    static func pause(stored text: String?) -> Int64? {
        guard let text else { return nil }
        if text == "untilResumed" { return untilResumed }
        guard let instant = Int64(text) else { return nil }
        // Before 0.3 a pause without an end was stored as this far-away instant.
        return instant > Int64(Int32.max) * 2 ? untilResumed : instant
    }

    /// "until resumed" or "until 2026-11-22T15:00:00Z", for history, status and systemd.
    func pauseDescription(_ until: Int64) -> String {
        until == DeliveryController.untilResumed ? "until resumed" : "until \(Timestamp.format(until, in: zone))"
    }

    /// Pauses until `until` (`untilResumed`: until resumed), once that is stored.
    func pause(until: Int64) throws(ReminderStoreError) {
        try store.savePause(DeliveryController.storedPause(until))
        pausedUntil = until
        armPauseEnd()
    }

    /// Puts the end of a timed pause on the timer wheel, replacing an earlier one. The wheel runs
    /// on wall-clock deadlines, so the end comes on time after a suspend, and `start` re-arms it
    /// after a restart.
    func armPauseEnd() {
        core.armPauseEnd(at: pausedUntil == DeliveryController.untilResumed ? nil : pausedUntil)
    }

    /// The Resume command: the pause ends once that is stored, and what was held is shown.
    func resumeNow(now: Int64) throws(ReminderStoreError) {
        try store.savePause(nil)
        pausedUntil = nil
        armPauseEnd()
        releaseHeld(now: now)
    }

    /// Ends a timed pause whose time came (the timer's run).
    func endPauseIfDue(now: Int64) {
        if pausedUntil.map({ $0 <= now }) == true { resume(now: now) }
    }

    /// Ends the pause when its time came (or the desktop's do-not-disturb ended) and shows what
    /// was held. Should storing that fail, nothing is lost: the stored end has passed, so the
    /// next start ends the pause too.
    func resume(now: Int64) {
        if pausedUntil != nil {
            do { try store.savePause(nil) } catch {
                logger.error("cannot record the end of the pause: \(error)")
            }
        }
        pausedUntil = nil
        armPauseEnd()
        releaseHeld(now: now)
    }

    /// Shows the held reminders: one as itself, several as one digest, whose buttons go through
    /// them one at a time and snooze them all (`PopUpComposer.group`, `heldWhileBusy`).
    func releaseHeld(now: Int64) {
        let digest = outbox.take(.held)
        guard !digest.isEmpty else { return }
        if digest.count == 1 {
            deliver(digest[0], now: now)
            return
        }
        var reminders: [(event: ScheduledEvent, item: Item, text: NotificationText)] = []
        for event in digest {
            guard case .fire(let itemId, let occurrence, _, _, _) = event, let item = items[itemId] else { continue }
            let text = NotificationText(
                item: item, occurrence: occurrence, now: now, zone: zone, defaultCurrency: configuration.currency,
                moneyLocale: configuration.moneyLocale)
            reminders.append((event, item, text))
        }
        // Noted before the call, as a single reminder is: a stop or crash before the outcome is
        // recorded owes each reminder of the digest (they are no longer held, so lastSeen moves on).
        beginDelivery(digest, now: now)
        let ticket = outbox.send(digest)
        let request = composer(for: notifier.serverInfo(), now: now).group(reminders, kind: .heldWhileBusy).request
        notifier.show(request) { [weak self] result in
            guard let self else { return }
            self.onQueue {
                let digest = self.outbox.answered(ticket)
                switch result {
                case .success(let id):
                    var shown: [ShownReminder] = []
                    for case .fire(let itemId, let occurrence, let fires, _, _) in digest {
                        shown.append(
                            ShownReminder(
                                itemId: itemId, due: occurrence.due, fires: fires,
                                title: self.items[itemId]?.title ?? itemId, event: .fired,
                                reason: "in the digest of \(digest.count) held reminders"))
                    }
                    // On screen whether or not that was stored: not shown again while this run lasts.
                    self.core.noteShown(shown, notificationId: id, now: now, failure: "digest shown but not recorded")
                    // On screen as a group, so its buttons reach its reminders and one done
                    // meanwhile leaves it (`withdrawFromGroups`).
                    let still = digest.filter { self.stillDue($0, now: self.clock()) }
                    if still.isEmpty {
                        self.notifier.close(id: id)
                    } else {
                        self.outbox.onScreen(group: still, as: id, digest: true)
                    }
                // Kept as a single reminder's would be (`delivered`): held again under the desktop's
                // do-not-disturb, sent only to the next server after no answer, retried after a refusal.
                case .failure(.inhibited):
                    self.outbox.keep(digest, in: .held, because: .doNotDisturb(since: self.clock()))
                case .failure(.timedOut):
                    self.outbox.keep(digest, in: .repost, because: .noAnswer(since: now))
                case .failure(.refused):
                    self.outbox.keep(digest, in: .waiting, because: .serverRefused(since: self.clock()))
                    self.scheduleRetry(now: self.clock())
                case .failure:
                    self.outbox.keep(digest, in: .waiting, because: .noServer(since: self.clock()))
                }
                self.core.publish()
            }
        }
    }
}
