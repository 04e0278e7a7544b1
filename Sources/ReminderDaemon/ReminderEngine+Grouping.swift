import ReminderCore

extension ReminderEngine {
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
            self.queue.async {
                if case .success = result {
                    for id in replaced where self.outbox.offScreen(id) != nil {
                        self.notifier.close(id: id)
                    }
                }
                self.delivered(
                    self.outbox.answered(ticket), item: itemsById, replaced: 0, grouped: true, result: result)
            }
        }
    }

    /// Takes the reminders `leaves` picks out (done, snoozed or dismissed on another device) off
    /// the grouped pop-ups on screen: a group left with none is closed; any other is shown again,
    /// in place (`replacesId`), naming only the ones that stay — closing it would hide reminders
    /// nobody acknowledged, and leaving it would show one that was. Its reminders were fired
    /// already: no history, nothing recorded again.
    func withdrawFromGroups(where leaves: (ScheduledEvent) -> Bool, now: Int64) {
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
                    item: item, occurrence: occurrence, now: now, zone: zone, defaultCurrency: configuration.currency)
                reminders.append((event, item, text))
            }
            var request = composer(for: notifier.serverInfo(), now: now).group(reminders).request
            request.replacesId = id
            notifier.show(request) { [weak self] result in
                guard let self else { return }
                self.queue.async {
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
}
