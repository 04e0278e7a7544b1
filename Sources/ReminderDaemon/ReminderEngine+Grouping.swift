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
}
