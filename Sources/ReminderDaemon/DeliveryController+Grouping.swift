import ReminderCore

extension DeliveryController {
    /// One pop-up for reminders due at the same instant (`PopUpComposer.group`). Every reminder
    /// gets its delivery row before the call and is recorded fired once the server accepted it,
    /// as when shown alone.
    func showGroup(_ group: [(event: ScheduledEvent, item: Item, text: NotificationText)], composer: PopUpComposer) {
        let now = composer.now
        let (request, events) = composer.group(group)
        var itemsById: [String: Item] = [:]
        for reminder in group { itemsById[reminder.event.itemId] = reminder.item }
        // A reminder of these items on screen alone is replaced by the group's line.
        let replaced = outbox.onScreen.filter { popUp in itemsById[popUp.value.itemId] != nil }.map(\.key)
        beginDelivery(events, now: now)
        let ticket = outbox.send(events)
        notifier.show(request) { [weak self, itemsById] result in
            guard let self else { return }
            self.onQueue {
                if case .success = result {
                    for id in replaced where self.outbox.offScreen(id) != nil {
                        self.notifier.close(id: id)
                    }
                }
                self.delivered(
                    self.outbox.answered(ticket), item: itemsById, replaced: 0, grouped: true, sent: now,
                    result: result)
            }
        }
    }

    /// Takes the reminders `leaves` picks out (done, snoozed or dismissed on another device) off
    /// the grouped pop-ups on screen: a group left with none is closed; any other is shown again,
    /// in place (`replacesId`), naming only the ones that stay — closing it would hide reminders
    /// nobody acknowledged, and leaving it would show one that was. Its reminders were fired
    /// already: no history, nothing recorded again. They leave the reminders still to be gone
    /// through one at a time too, and when the one shown in turn was closed with them, the next
    /// is shown.
    func withdrawFromGroups(where leaves: (ScheduledEvent) -> Bool, now: Int64) {
        outbox.leaveTurn(where: leaves)
        defer { showNextInTurn(now: now) }
        for (id, events) in outbox.groupsOnScreen.sorted(by: { $0.key < $1.key }) {
            let staying = events.filter { !leaves($0) && items[$0.itemId] != nil }
            guard staying.count < events.count else { continue }
            outbox.regroup(id, as: id, staying)
            guard !staying.isEmpty else {
                outbox.offScreen(group: id)
                notifier.close(id: id)
                continue
            }
            var reminders: [(event: ScheduledEvent, item: Item, text: NotificationText)] = []
            for event in staying {
                guard case .fire(let itemId, let occurrence, _, _, _) = event, let item = items[itemId] else { continue }
                let text = NotificationText(
                    item: item, occurrence: occurrence, now: now, zone: zone, defaultCurrency: configuration.currency,
                    moneyLocale: configuration.moneyLocale)
                reminders.append((event, item, text))
            }
            let kind: PopUpComposer.GroupKind = outbox.digestsOnScreen.contains(id) ? .heldWhileBusy : .dueTogether
            var request = composer(for: notifier.serverInfo(), now: now).group(reminders, kind: kind).request
            request.replacesId = id
            notifier.show(request) { [weak self] result in
                guard let self else { return }
                self.onQueue {
                    guard case .success(let newId) = result, newId != id else { return }
                    // A server that gave the re-shown group a new id: it is filed under that one.
                    if let current = self.outbox.groupsOnScreen[id] {
                        self.outbox.regroup(id, as: newId, current)
                    } else {
                        self.notifier.close(id: newId)
                    }
                }
            }
        }
    }

    /// A button of grouped pop-up `id` (a burst or the pause's digest) was pressed: "One at a
    /// time" takes it off the screen and shows its reminders one by one; "Snooze all" snoozes
    /// every one still due. Other keys mean nothing on a group.
    func pressOnGroup(_ action: PopUpAction, id: UInt32, now: Int64) {
        logger.info("button \(action.key) pressed on a grouped pop-up", metadata: ["NOTIFICATION_ID": "\(id)"])
        switch action {
        case .oneAtATime:
            let events = outbox.offScreen(group: id)
            notifier.close(id: id)
            outbox.goThrough(events.filter { stillDue($0, now: now) })
            showNextInTurn(now: now)
        case .snoozeAll(let duration):
            let events = outbox.offScreen(group: id)
            notifier.close(id: id)
            snoozeAll(events.filter { stillDue($0, now: now) }, by: duration, now: now)
        default:
            logger.warning("button \(action.key) means nothing on a grouped pop-up")
        }
    }

    /// Snoozes each reminder by `duration` (shortened to a minute before its due time, as the
    /// command is, when time has passed since the button was offered). One that cannot be
    /// snoozed is named in one pop-up saying why, and is gone through one at a time, so it can
    /// still be acted on.
    func snoozeAll(_ events: [ScheduledEvent], by duration: CalendarDuration, now: Int64) {
        var refused: [ScheduledEvent] = []
        var reasons: [String] = []
        for event in events {
            do throws(EngineError) {
                _ = try core.snooze(event.itemId, duration, now: now)
            } catch {
                logger.warning("button snooze all refused: \(error)", metadata: ["ITEM_ID": "\(event.itemId)"])
                refused.append(event)
                reasons.append("\(items[event.itemId]?.title ?? event.itemId): \(error.translated)")
            }
        }
        if refused.count < events.count { core.noteLocalChange(now: now) }
        guard !refused.isEmpty else { return }
        showRefusal(_t("Not snoozed"), reasons.joined(separator: "\n"))
        outbox.goThrough(refused.filter { stillDue($0, now: now) })
        showNextInTurn(now: now)
    }

    /// Shows the next reminder being gone through one at a time, once the one shown before is
    /// gone (acted on, dismissed, closed). It is shown alone, with its own Done and snoozes, as
    /// any reminder is, but it was fired already (with its group): nothing is recorded again.
    /// Those no longer due are skipped.
    func showNextInTurn(now: Int64) {
        guard let server = notifier.serverInfo() else { return }
        while let event = outbox.nextInTurn() {
            guard stillDue(event, now: now), case .fire(let itemId, let occurrence, _, _, _) = event,
                let item = items[itemId]
            else { continue }
            let text = NotificationText(
                item: item, occurrence: occurrence, now: now, zone: zone, defaultCurrency: configuration.currency,
                moneyLocale: configuration.moneyLocale)
            // The first after a start takes the place of the pop-up the previous run showed in turn.
            let request = composer(for: server, now: now).reminder(
                event, text: text, shownAgain: true, replacesId: turnShownBefore ?? 0)
            turnShownBefore = nil
            let ticket = outbox.sendInTurn(event)
            notifier.show(request) { [weak self] result in
                guard let self else { return }
                self.onQueue { self.answeredInTurn(ticket, sent: now, result) }
            }
            return
        }
    }

    /// The server's answer to a reminder shown in turn (sent at `sent`): on screen, or — not
    /// shown — kept with those still to come as `delivered` keeps a reminder the server did not take.
    private func answeredInTurn(_ ticket: UInt64, sent: Int64, _ result: Result<UInt32, NotifierError>) {
        let now = clock()
        let events = outbox.answered(ticket)
        switch result {
        case .success(let id):
            if let event = events.first, stillDue(event, now: now) {
                logger.info(
                    "reminder shown in turn", metadata: ["ITEM_ID": "\(event.itemId)", "NOTIFICATION_ID": "\(id)"])
                outbox.onScreen(event, as: id)
                outbox.turnAnswered(ticket, shownAs: id)
            } else {
                // Done, passed or removed while it was on its way: closed, and the next one goes.
                notifier.close(id: id)
                outbox.turnAnswered(ticket, shownAs: nil)
                showNextInTurn(now: now)
            }
        case .failure(let error):
            outbox.turnAnswered(ticket, shownAs: nil)
            let kept = events + outbox.takeInTurn()
            switch error {
            case .inhibited: outbox.keep(kept, in: .held, because: .doNotDisturb(since: now))
            case .timedOut: outbox.keep(kept, in: .repost, because: .noAnswer(since: sent))
            default:
                logger.warning("a reminder shown one at a time waits: \(error)")
                outbox.keep(kept, in: .waiting, because: .serverRefused(since: now))
                scheduleRetry(now: now)
            }
        }
        core.publish()
    }
}
