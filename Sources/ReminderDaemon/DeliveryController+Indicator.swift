import ReminderCore

extension DeliveryController {
    /// A click in the panel indicator's menu (`IndicatorComposer`): the engine's own commands, as
    /// a pop-up's buttons run them; a refusal is logged and shown as a pop-up says why.
    func indicatorClicked(_ action: IndicatorAction, now: Int64) {
        switch action {
        case .done(let itemId, let due):
            indicatorCommand(_t("Not done"), itemId, staleness(.done, itemId: itemId, due: due, now: now)) {
                () throws(EngineError) in
                try core.markDone(itemId, amount: nil, early: false, cancelled: false, now: now)
            }
        case .cancelled(let itemId, let due):
            indicatorCommand("Not cancelled", itemId, staleness(.cancelled, itemId: itemId, due: due, now: now)) {
                () throws(EngineError) in
                try core.markDone(itemId, amount: nil, early: false, cancelled: true, now: now)
            }
        case .snooze(let itemId, let due, let duration):
            // Offered while it fit (`IndicatorComposer`); a click after it stopped fitting is
            // refused, not shortened without a word.
            let fits =
                PopUpComposer.snoozeEnd(duration, from: now, due: due, configuration: configuration, rules: rules)?
                .shortened == false
            let stale =
                staleness(.snooze(duration), itemId: itemId, due: due, now: now)
                ?? (fits ? nil : "a snooze of \(duration) would not end before it is due")
            indicatorCommand(_t("Not snoozed"), itemId, stale) { () throws(EngineError) in
                _ = try core.snooze(itemId, duration, now: now)
            }
        case .snoozeToLastMinute(let itemId, let due):
            let stale =
                staleness(.snoozeToLastMinute, itemId: itemId, due: due, now: now)
                ?? (due - 60 > now + 60 ? nil : "it is due within two minutes")
            indicatorCommand(_t("Not snoozed"), itemId, stale) { () throws(EngineError) in
                _ = try core.snooze(itemId, until: due - 60, label: nil, now: now)
            }
        case .snoozeUntilTomorrow(let itemId, let due):
            // Offered while it ended before the due time; refused, not shortened, after that.
            let fits =
                PopUpComposer.tomorrowSnoozeEnd(from: now, due: due, configuration: configuration, rules: rules) != nil
            let stale =
                staleness(.snoozeUntilTomorrow, itemId: itemId, due: due, now: now)
                ?? (fits ? nil : "tomorrow at the reminder time is not before it is due")
            indicatorCommand(_t("Not snoozed"), itemId, stale) { () throws(EngineError) in
                _ = try core.snooze(itemId, SnoozeTarget.tomorrow, now: now)
            }
        case .withdrawn(let entry):
            logger.warning("indicator menu refused a click on an entry it no longer shows: \(entry)")
            showRefusal(
                _t("Nothing done: the menu changed"),
                _t("%1$s is no longer in the menu (the item changed since the menu was shown); nothing was changed")
                    .filled(entry))
        case .pause(let duration):
            do { try pause(until: now + duration.nominalSeconds) } catch {
                logger.error("the indicator's pause failed: \(error)")
                showRefusal(_t("Not paused"), "\(error)")
            }
        case .resume:
            do { try resumeNow(now: now) } catch {
                logger.error("the indicator's resume failed: \(error)")
                showRefusal(_t("Not resumed"), "\(error)")
            }
        }
    }

    /// Runs `command` unless the entry was `stale` (its occurrence passed or done meanwhile).
    private func indicatorCommand(
        _ refused: String, _ itemId: String, _ stale: String?, _ command: () throws(EngineError) -> Void
    ) {
        if let stale {
            logger.warning("indicator menu refused: \(stale)", metadata: ["ITEM_ID": "\(itemId)"])
            showRefusal(refused, "\(items[itemId]?.title ?? itemId): \(stale)")
            return
        }
        do throws(EngineError) {
            try command()
            core.noteLocalChange(now: clock())
        } catch {
            logger.warning("indicator menu refused: \(error)", metadata: ["ITEM_ID": "\(itemId)"])
            showRefusal(refused, "\(items[itemId]?.title ?? itemId): \(error)")
        }
    }
}
