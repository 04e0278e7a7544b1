import Testing

@testable import ReminderDaemon

/// The delivery controller, a part of the engine that outlives it only in answers still on
/// their way (`DeliveryController.onQueue`).
@Suite struct DeliveryControllerTests {
    /// The server answers a pop-up, and before that answer runs on the engine's queue the engine is
    /// dropped (the daemon stopping, a test ending): the answer is dropped too, where with an
    /// `unowned` engine it trapped reading it.
    @Test func aServersAnswerThatComesAfterTheEngineIsGoneIsDropped() throws {
        let notifier = RecordingNotifier()
        let harness = try EngineHarness(notifier: notifier)
        _ = harness.addCoupon(expiresIn: 2 * 3600, leads: ["1h"])
        notifier.answer = .stall
        harness.advance(to: 3600)
        #expect(notifier.stalled == 1)
        let oldQueue = harness.engine.queue
        weak let oldEngine = harness.engine
        oldQueue.suspend()
        notifier.completeStalled(.accept)  // its hop onto the engine's queue waits there
        try harness.restart()
        #expect(oldEngine == nil, "the old engine is gone before its answer runs")
        oldQueue.resume()
        oldQueue.sync {}
        #expect(notifier.acceptedIds == [1])
    }
}
