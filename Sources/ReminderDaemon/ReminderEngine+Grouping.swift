import ReminderCore

extension ReminderEngine {
    /// Reminders named on a grouped pop-up; the rest are counted and left to `reminderctl list`.
    static let mostNamedInGroup = 5

    /// One pop-up for reminders due at the same instant: it names the first few and, per reminder,
    /// the command that marks it done. It has no Done button (one press must not mark all of them
    /// done) and no snooze (each has its own due time). Every reminder gets its delivery row
    /// before the call and is recorded fired once the server accepted it, as when shown alone.
    func showGroup(
        _ group: [(event: ScheduledEvent, item: Item, text: NotificationText)], server: ServerInfo, now: Int64
    ) {
        // Soonest due first, then by name, so the same reminders always read the same way.
        let reminders = group.sorted {
            ($0.event.dueInstant, $0.item.title) < ($1.event.dueInstant, $1.item.title)
        }
        let named = reminders.prefix(ReminderEngine.mostNamedInGroup)
        let rest = reminders.count - named.count
        let titles = named.map(\.text.summary)
        let summary =
            "\(reminders.count) reminders: " + titles.prefix(2).joined(separator: ", ")
            + (reminders.count > 2 ? " and \(reminders.count - 2) more" : "")
        var lines = named.map { "\($0.text.body) — reminderctl done \($0.event.itemId)" }
        if rest > 0 { lines.append("and \(rest) more: reminderctl list") }
        var body = lines.joined(separator: "\n")
        if server.capabilities.contains("body-markup") { body = markupEscaped(body) }
        let urgencies = reminders.map(\.text.urgency)
        let urgency: NotificationText.Urgency =
            urgencies.contains(.critical) ? .critical : urgencies.contains(.normal) ? .normal : .low
        let request = NotificationRequest(
            summary: summary, body: body, urgency: ReminderEngine.urgency(urgency, on: server),
            category: "x-reminderd.group", timeoutMilliseconds: 0, resident: false,
            bypassDoNotDisturb: urgency == .critical)
        let events = reminders.map(\.event)
        var itemsById: [String: Item] = [:]
        for reminder in reminders { itemsById[reminder.event.itemId] = reminder.item }
        // A reminder of these items on screen alone is replaced by the group's line.
        let replaced = onScreen.filter { popUp in itemsById[popUp.value.itemId] != nil }.map(\.key)
        beginDelivery(events, now: now)
        notifier.show(request) { [weak self, itemsById] result in
            guard let self else { return }
            self.queue.async {
                if case .success = result {
                    for id in replaced where self.onScreen.removeValue(forKey: id) != nil {
                        self.notifier.close(id: id)
                    }
                }
                self.delivered(events, item: itemsById, replaced: 0, grouped: true, result: result)
            }
        }
    }
}
