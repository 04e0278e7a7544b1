import Dispatch
import CivilTime
import ReminderCore
import ReminderProtocol

/// The sample reminder `reminderctl try` shows, so that a person sees in the first minute what
/// reminderd does, at any hour: a pop-up in a real reminder's words and with its buttons, shown
/// at once — quiet hours, a pause and the schedule play no part, as with `notify-send` — whose
/// buttons say what they would do on a real reminder and change no item.
extension DeliveryController {
    /// How long a sample waits for a notification server that is not known yet: one starting
    /// with the session, or reminderd's own connection to the bus not made yet when `try` is the
    /// command that started it (socket activation).
    static let sampleServerWait: DispatchTimeInterval = .seconds(5)

    /// Shows the sample on the notification server and answers the call, parked on `caller`, once
    /// the server took it (the pop-up's words and buttons) or refused it; while no server is known,
    /// the call waits for one up to `sampleServerWait`, then is refused in words.
    func showSample(caller: any CallParking, now: Int64) {
        let call = caller.park(on: queue)
        guard notifier.serverInfo() != nil else {
            state.value.samplesAwaitingServer.append(call)
            queue.asyncAfter(deadline: .now() + Self.sampleServerWait) { [weak self] in
                self?.withEngine {
                    guard let self, call.isOpen else { return }
                    self.state.value.samplesAwaitingServer.removeAll { $0 === call }
                    let refusal = EngineError.notApplicable(
                        "sample",
                        Wording(
                            N_("no notification server is on the session bus (start your desktop's, such as dunst or mako)")
                        ))
                    call.answer(.failure(refusal.varlinkError))
                }
            }
            return
        }
        showSample(answering: call, now: now)
    }

    /// The samples that waited for a server, shown now that one appeared.
    func showSamplesAwaitingServer(now: Int64) {
        let waiting = state.value.samplesAwaitingServer
        state.value.samplesAwaitingServer = []
        for call in waiting where call.isOpen { showSample(answering: call, now: now) }
    }

    private func showSample(answering call: ParkedCall, now: Int64) {
        let request = composer(for: notifier.serverInfo(), now: now).sample()
        let reply = SampleReply(
            summary: request.summary, body: request.body, buttons: request.actions.map(\.label))
        notifier.show(request) { [weak self] result in
            guard let self else { return }
            self.onQueue {
                switch result {
                case .success(let id):
                    self.state.value.samplePopUps.insert(id)
                    call.answer(.success(reply.parameters))
                case .failure(let error):
                    let refusal = EngineError.notApplicable(
                        "sample", Wording(N_("the notification server refused it: %1$s"), .text("\(error)")))
                    call.answer(.failure(refusal.varlinkError))
                }
            }
        }
    }

    /// A button pressed on a sample pop-up: a short pop-up says what it does on a real reminder,
    /// and nothing else happens.
    func pressOnSample(_ action: PopUpAction, id: UInt32, now: Int64) {
        let words: String
        switch action {
        case .done:
            words = _t("On a real reminder, %1$s would record this period's credit as used, and offer %2$s for ten seconds.")
                .filled(_t("Mark as used"), _t("Undo"))
        case .snooze(let duration):
            let end = PopUpComposer.snoozeEnd(
                duration, from: now, due: now + PopUpComposer.sampleDueIn, configuration: configuration, rules: rules)
            let button = _t("Snooze %1$s").filled(duration.inWords)
            words =
                end.map {
                    _t("On a real reminder, %1$s would show this reminder again at %2$s.").filled(
                        button, PopUpComposer.timeWords($0.end, zone: zone, now: now))
                } ?? _t("On a real reminder, %1$s would show this reminder again.").filled(button)
        case .snoozeToLastMinute:
            words = _t("On a real reminder, %1$s would show this reminder again a minute before it is due.").filled(
                _t("Remind 1 min before"))
        case .snoozeUntilTomorrow:
            let end = PopUpComposer.tomorrowSnoozeEnd(
                from: now, due: now + PopUpComposer.sampleDueIn, configuration: configuration, rules: rules)
            let button = _t("Snooze until tomorrow")
            words =
                end.map {
                    _t("On a real reminder, %1$s would show this reminder again at %2$s.").filled(
                        button, PopUpComposer.timeWords($0, zone: zone, now: now))
                } ?? _t("On a real reminder, %1$s would show this reminder again.").filled(button)
        case .cancelled, .undo, .oneAtATime, .snoozeAll:
            return
        }
        logger.info("a sample pop-up's \(action.key) pressed; nothing changed")
        notifier.close(id: id)
        state.value.samplePopUps.remove(id)
        let request = NotificationRequest(
            summary: _t("Sample: nothing changed"), body: words, urgency: .normal,
            category: "x-reminderd.sample", timeoutMilliseconds: 10_000)
        notifier.show(composer(for: notifier.serverInfo(), now: now).notice(request)) { _ in }
    }
}

extension PopUpComposer {
    /// How far ahead the sample's credit is due: three days, so that its snoozes fit.
    static let sampleDueIn: Int64 = 3 * 86_400

    /// The sample pop-up: a $15 Uber Cash credit on an Amex Platinum due in three days, composed
    /// as a real reminder is (its words, its Done and the snoozes that fit), with a last line
    /// saying it is a sample.
    func sample() -> NotificationRequest {
        let benefit = Benefit(card: "Amex Platinum", amount: Money(tenThousandths: 150_000), period: .monthly)
        let item = Item(title: "Uber Cash", schedule: .benefit(benefit))
        let dueDate = zone.localDateTime(at: now + PopUpComposer.sampleDueIn).date
        let occurrence = rules.occurrence(dueOn: dueDate)
        let text = NotificationText(
            item: item, occurrence: occurrence, now: now, zone: zone, defaultCurrency: configuration.currency,
            moneyLocale: configuration.moneyLocale)
        var body = text.body + "\nA sample from reminderctl try: its buttons change nothing."
        var actions: [(key: String, label: String)] = []
        if capabilities.contains("actions") {
            actions.append((PopUpAction.done.key, text.doneLabel))
            actions += snoozeActions(due: occurrence.due)
        } else {
            body += "\nOn a real reminder: reminderctl done ID"
        }
        return NotificationRequest(
            summary: text.summary, body: markedUp(body), urgency: urgency(.normal), category: "x-reminderd.sample",
            actions: actions, timeoutMilliseconds: 0, resident: capabilities.contains("persistence"))
    }
}
