import CivilTime
import Dispatch
import ReminderCore
import ReminderJSON
import ReminderStore

extension DeliveryController {
    /// A button or a menu click while another program holds the store's lock is kept and
    /// handled once the lock is let go (`LockedCalls`), in the order it came, instead of holding
    /// the engine's queue while its write waits. A close is handled at once, its dismiss stored
    /// after the lock, unless a kept button or click came before it (the close would take its
    /// pop-up away from under it). The other events are handled at once.
    func receive(_ event: NotifierEvent) {
        switch event {
        case .actionInvoked(let id, _):
            core.whenStoreUnlocked("a button pressed on pop-up \(id)") { [weak self] in self?.handle(event) }
        case .indicatorClicked:
            core.whenStoreUnlocked("a click in the panel indicator's menu") { [weak self] in self?.handle(event) }
        case .closed:
            core.afterEarlierEvents { [weak self] in self?.handle(event) }
        case .serverAppeared, .serverVanished, .doNotDisturbChanged, .indicatorHostChanged:
            handle(event)
        }
    }

    /// What the notification server tells, on the engine's queue: a button pressed (Done, a
    /// snooze, Undo, a group's One at a time or Snooze all, each through the engine's own
    /// command), a pop-up closed (a dismiss is recorded and synced), a server come or gone.
    func handle(_ event: NotifierEvent) {
        let now = clock()
        switch event {
        case .actionInvoked(let id, let key):
            guard let action = PopUpAction(key: key) else {
                // A server's own ("default", a click on the body): nothing reminderd offered.
                logger.debug("a pop-up action reminderd did not offer: \(key)", metadata: ["NOTIFICATION_ID": "\(id)"])
                break
            }
            if state.value.samplePopUps.contains(id) {
                pressOnSample(action, id: id, now: now)
                break
            }
            if action == .undo, let itemId = outbox.takeUndoOffer(id) {
                runButton(action.key, itemId, now: now) { () throws(EngineError) in
                    try core.undo(itemId, now: now)
                    showUndone(itemId, now: now)
                }
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
            case .done, .cancelled:
                // Pressed on a reminder gone through one at a time with more to come (`walkGoesOn`).
                let walkGoesOn = outbox.turn == .onScreen(id: id) && !outbox.inTurn.isEmpty
                let trialBefore = items[itemId].flatMap(DeliveryController.trialEnds)
                let done = press(action, on: popUp, now: now) { () throws(EngineError) in
                    try core.markDone(itemId, amount: nil, early: false, cancelled: action == .cancelled, now: now)
                }
                if done {
                    // "Keep it" clears the trial: the confirmation must say so, not "paid".
                    let keptTrial = trialBefore != nil && items[itemId].flatMap(DeliveryController.trialEnds) == nil
                    // Confirmed once on disk, as a client's reply is; a failed flush says so instead.
                    store.whenDurable(through: store.commitCount) { [weak self] durability in
                        guard let self else { return }
                        self.withEngine {
                            self.confirmDone(
                                itemId, durability, undoButton: !walkGoesOn, keptTrial: keptTrial, now: now)
                        }
                    }
                }
            case .snoozeToLastMinute:
                press(action, on: popUp, now: now) { () throws(EngineError) in
                    _ = try core.snooze(itemId, until: popUp.due - 60, label: nil, now: now)
                }
            case .snooze(let duration):
                press(action, on: popUp, now: now) { () throws(EngineError) in
                    _ = try core.snooze(itemId, duration, now: now)
                }
            case .snoozeUntilTomorrow:
                press(action, on: popUp, now: now) { () throws(EngineError) in
                    _ = try core.snooze(itemId, SnoozeTarget.tomorrow, now: now)
                }
            case .undo, .oneAtATime, .snoozeAll:
                logger.warning("button \(key) means nothing on a reminder's own pop-up")
            }
        case .closed(let id, let reason):
            state.value.samplePopUps.remove(id)
            guard let itemId = outbox.closed(id)?.itemId else { return }
            if reason == 2, let item = items[itemId] {
                // An acknowledgement: other devices close the same reminder (pushed with it).
                let entry = HistoryRecord(
                    at: now, itemId: itemId, title: item.title, event: .dismissed, reason: "closed on screen")
                // In memory now, stored after another program's lock (`LockedCalls`); reminderd-sync
                // is told once it is stored, the outbox row it pushes being written with it.
                core.noteDismissed(itemId, at: now)
                core.writeUnlessLocked("cannot record a dismiss of \(itemId)") {
                    [store, weak core] () throws(ReminderStoreError) in
                    try store.recordDismiss(entry)
                    core?.noteLocalChange(now: now)
                }
            }
        case .serverAppeared:
            // Waiting reminders, then those that were on the old server's screen, once each.
            let pending = outbox.takeForNewServer()
            closeLeftOnScreen()
            for notice in outbox.takeNotices() { showNotice(notice) }
            showSamplesAwaitingServer(now: now)
            deliver(pending.filter { stillDue($0, now: now) }, now: now)
            releaseHeldIfDesktopAllows()
        case .doNotDisturbChanged:
            releaseHeldIfDesktopAllows()
        case .serverVanished:
            outbox.serverVanished()
        case .indicatorHostChanged:
            break  // `publish` below hands the host the indicator, or stops working it out
        case .indicatorClicked(let action):
            indicatorClicked(action, now: now)
        }
        // A reminder shown one at a time that was acted on, dismissed or closed: the next one.
        showNextInTurn(now: now)
        core.publish()
    }

    /// Runs a button's command, logging a refusal (the item may have changed meanwhile); what
    /// it changed is for reminderd-sync to push.
    func runButton(_ button: String, _ itemId: String, now: Int64, _ command: () throws(EngineError) -> Void) {
        do throws(EngineError) {
            try command()
            core.noteLocalChange(now: now)
        } catch {
            logger.warning("button \(button) refused: \(error)", metadata: ["ITEM_ID": "\(itemId)"])
        }
    }

    /// Runs the command of a button on a reminder's pop-up, only while that pop-up's occurrence is
    /// still the one due (else Done would land on the next one); a refusal is logged and shown,
    /// and what it changed is for reminderd-sync to push. Returns whether it succeeded.
    @discardableResult
    func press(
        _ button: PopUpAction, on popUp: FireOutbox.PopUp, now: Int64, _ command: () throws(EngineError) -> Void
    ) -> Bool {
        let reason: String
        if let stale = staleness(button, itemId: popUp.itemId, due: popUp.due, now: now) {
            reason = stale
        } else {
            do throws(EngineError) {
                try command()
                core.noteLocalChange(now: now)
                return true
            } catch {
                reason = error.description
            }
        }
        logger.warning("button \(button.key) refused: \(reason)", metadata: ["ITEM_ID": "\(popUp.itemId)"])
        let title = items[popUp.itemId]?.title ?? popUp.itemId
        let summary = button == .done ? _t("Not done") : button == .cancelled ? "Not cancelled" : _t("Not snoozed")
        showRefusal(summary, "\(title): \(reason)")
        return false
    }

    /// Why a button (or the indicator's menu entry) for the occurrence of `itemId` due at `due`
    /// must not act: that occurrence passed, or is done already — the command would land on the
    /// next one. Nil while it is still the one due.
    func staleness(_ button: PopUpAction, itemId: String, due: Int64, now: Int64) -> String? {
        // A rebuy's Done means "bought it today", as good after its run-out date as before.
        var isRebuy = false
        if case .rebuy = items[itemId]?.schedule { isRebuy = true }
        if due <= now && !(isRebuy && button == .done) {
            return "its due time \(Timestamp.format(due, in: zone)) has passed"
        }
        if occurrences[itemId]?[due]?.doneAt != nil { return "it is already done" }
        return nil
    }

    /// A short pop-up saying why a button did not do what it says.
    func showRefusal(_ summary: String, _ body: String) {
        let request = NotificationRequest(
            summary: summary, body: body, urgency: .normal, category: "x-reminderd.refused",
            timeoutMilliseconds: 10_000)
        notifier.show(composer(for: notifier.serverInfo(), now: clock()).notice(request)) { _ in }
    }

    /// After Done from a button, once its flush settled: the confirmation (with Undo unless
    /// `undoButton` is false, see `offerUndo`), or word that the Done is saved but not confirmed
    /// on disk (a power cut may lose it).
    func confirmDone(
        _ itemId: String, _ durability: Durability, undoButton: Bool = true, keptTrial: Bool = false, now: Int64
    ) {
        guard case .notConfirmed(let reason) = durability else {
            return offerUndo(itemId, undoButton: undoButton, keptTrial: keptTrial, now: now)
        }
        logger.error(
            "a Done from a button is saved but not confirmed on disk: \(reason)", metadata: ["ITEM_ID": "\(itemId)"])
        showRefusal(
            "Done, not confirmed on disk",
            "\(items[itemId]?.title ?? itemId): saved but not confirmed on disk: \(reason)")
    }

    /// After Done from a button: the confirmation with an Undo button (`PopUpComposer.undoOffer`).
    ///
    /// Except in the middle of a walk ("One at a time" with more to come): there the confirmation
    /// says what was done and how to undo it in words (`reminderctl undo`), with no button. The
    /// next reminder of the walk is on screen beside it by then, and a server that lists every
    /// pop-up's actions in one menu — stock dunst's context menu, newest first — would put
    /// "Undo" where the person, going on to the next reminder, expects its "Mark as used": Enter
    /// undid the Done just made. Holding the next reminder back until the confirmation is gone
    /// would leave "Undo" alone in that place, the same trap, and ten seconds slower; closing the
    /// confirmation as the next comes would give no word at all. A button-less pop-up adds nothing
    /// to the menu and still tells the person it counted. The walk's last Done, with nothing to
    /// come, gets its Undo button as any Done does.
    func offerUndo(_ itemId: String, undoButton: Bool = true, keptTrial: Bool = false, now: Int64) {
        guard let item = items[itemId] else { return }
        let request = composer(for: notifier.serverInfo(), now: now).undoOffer(
            for: item, id: itemId, button: undoButton, keptTrial: keptTrial)
        notifier.show(request) { [weak self] result in
            guard let self, undoButton, case .success(let id) = result else { return }
            self.onQueue {
                self.outbox.offerUndo(id, for: itemId)
                self.persistReshow()  // taken back after a restart, as a reminder's pop-up is
            }
        }
    }

    /// After Undo from a confirmation's button: a pop-up that shows what was restored — the
    /// reminder of the item's current occurrence, as its pop-up says it, under "Undone" — so the
    /// person sees that it counted, and what is due again.
    func showUndone(_ itemId: String, now: Int64) {
        guard let item = items[itemId] else { return }
        let body: String
        if let occurrence = core.index.currentOccurrence(of: item, rules: core.rules, now: now) {
            let text = NotificationText(
                item: item, occurrence: occurrence, now: now, zone: zone, defaultCurrency: configuration.currency,
                moneyLocale: configuration.moneyLocale)
            body = text.body  // names the item, as the reminder's body does
        } else {
            body = item.title
        }
        let request = NotificationRequest(
            summary: "Undone", body: body, urgency: .normal, category: "x-reminderd.undone",
            timeoutMilliseconds: 10_000)
        notifier.show(composer(for: notifier.serverInfo(), now: now).notice(request)) { _ in }
    }

    /// A subscription's free trial's last day, while it has one (kept, or another kind: nil).
    static func trialEnds(_ item: Item) -> LocalDate? {
        guard case .subscription(let subscription) = item.schedule else { return nil }
        return subscription.trialEnds
    }
}
