import ReminderCore

extension DeliveryController {
    /// A click in the panel indicator's menu (`IndicatorComposer`): the engine's own commands, as
    /// a pop-up's buttons run them; a refusal is logged and shown as a pop-up says why.
    func indicatorClicked(_ action: IndicatorAction, now: Int64) {
        switch action {
        case .done(let itemId):
            indicatorCommand("Not done", itemId) { () throws(EngineError) in
                _ = try core.markDone(itemId, amount: nil, early: false, now: now)
            }
        case .snooze(let itemId, let duration):
            indicatorCommand("Not snoozed", itemId) { () throws(EngineError) in
                _ = try core.snooze(itemId, duration, now: now)
            }
        case .pause(let duration):
            do { try pause(until: now + duration.nominalSeconds) } catch {
                logger.error("the indicator's pause failed: \(error)")
                showRefusal("Not paused", "\(error)")
            }
        case .resume:
            do { try resumeNow(now: now) } catch {
                logger.error("the indicator's resume failed: \(error)")
                showRefusal("Not resumed", "\(error)")
            }
        }
    }

    private func indicatorCommand(_ refused: String, _ itemId: String, _ command: () throws(EngineError) -> Void) {
        do throws(EngineError) {
            try command()
            core.noteLocalChange(now: clock())
        } catch {
            logger.warning("indicator menu refused: \(error)", metadata: ["ITEM_ID": "\(itemId)"])
            showRefusal(refused, "\(items[itemId]?.title ?? itemId): \(error)")
        }
    }
}
