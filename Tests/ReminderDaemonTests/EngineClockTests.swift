import CivilTime
import Foundation
import Logging
import ReminderCore
import ReminderDaemon
import ReminderJSON
import ReminderPlatform
import ReminderProtocol
import ReminderStore
import Synchronization
import Testing

/// The scheduler's re-evaluation path (`advance()`, as the timer and the clock watch call it)
/// under clock jumps and restarts, with an injected clock.
@Suite struct EngineClockTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "reminderd-engine-\(UUID().uuidString)")
    let start: Int64 = 1_795_000_000  // 2026-11-18T11:06:40Z

    func engine(clock: ManualClock, notifier: RecordingNotifier) throws -> ReminderEngine {
        let store = try ReminderStore(path: directory.appendingPathComponent("store.sqlite").path)
        let engine = ReminderEngine(
            store: store, notifier: notifier, configuration: Configuration(timeZone: "UTC", quietHours: nil),
            zone: .utc,
            clock: { clock.now }, logger: Logger(label: "test"))
        try engine.queue.sync { try engine.start() }
        return engine
    }

    /// Adds with `force`: these tests add several coupons alike ("Deal"), which `Add` would
    /// otherwise refuse as tracked already.
    func add(_ engine: ReminderEngine, _ item: [String: JSONValue]) -> String {
        let reply = engine.queue.sync { engine.perform(.add, ["item": .object(item), "force": .bool(true)]) }
        guard case .success(let parameters) = reply, case .string(let id)? = parameters["id"] else {
            Issue.record("add failed: \(reply)")
            return ""
        }
        return id
    }

    /// Runs the engine's re-evaluation and lets its completions land.
    func advance(_ engine: ReminderEngine) {
        engine.queue.sync { engine.advance() }
        engine.queue.sync {}
    }

    func coupon(expiresIn seconds: Int64, leads: [String]) -> [String: JSONValue] {
        let expires = LocalDateTime(localSeconds: start + seconds)
        return [
            "kind": .string("coupon"), "title": .string("Deal"), "expires": .string(expires.description),
            "lead": .array(leads.map { .string($0) }),
        ]
    }

    @Test func aForwardJumpFiresWhatBecameDueOnceAndNothingEarly() throws {
        let clock = ManualClock(start)
        let notifier = RecordingNotifier()
        let engine = try engine(clock: clock, notifier: notifier)
        _ = add(engine, coupon(expiresIn: 10 * 3600, leads: ["6h", "2h"]))  // fire at +4 h and +8 h
        advance(engine)
        #expect(notifier.requests.isEmpty)
        clock.set(start + 5 * 3600)  // the clock jumps past the first reminder
        advance(engine)
        #expect(notifier.requests.count == 1)
        #expect(notifier.requests.first?.body.contains("\nLate: the computer was asleep or its clock jumped at 15:06") == true)
        advance(engine)
        #expect(notifier.requests.count == 1)
        clock.set(start + 3600)  // and back: nothing fires early, nothing twice
        advance(engine)
        #expect(notifier.requests.count == 1)
        clock.set(start + 8 * 3600)
        advance(engine)
        #expect(notifier.requests.count == 2)
        #expect(notifier.requests.last?.body.contains("Late") == false)
    }

    @Test func aResumeAfterTheOccurrencePassedReportsItMissedInOnePopUp() throws {
        let clock = ManualClock(start)
        let notifier = RecordingNotifier()
        let engine = try engine(clock: clock, notifier: notifier)
        let first = add(engine, coupon(expiresIn: 2 * 3600, leads: ["1h", "30m"]))
        _ = add(engine, coupon(expiresIn: 3 * 3600, leads: ["1h"]))
        _ = add(engine, coupon(expiresIn: 9 * 3600, leads: ["6h"]))  // its reminder, at +3 h, is still ahead of its due time
        clock.set(start + 4 * 3600)  // the machine slept through two reminders and due times
        advance(engine)
        #expect(notifier.requests.map(\.summary).sorted() == ["While You Were Away", "\u{2068}Deal\u{2069}"])
        #expect(notifier.requests.contains { $0.body.contains("\nLate: the computer was asleep or its clock jumped at") })
        let history = engine.queue.sync { engine.perform(.history, ["item": .string(first)]) }
        guard case .success(let parameters) = history, case .array(let entries)? = parameters["entries"] else {
            Issue.record("history failed: \(history)")
            return
        }
        let events = entries.compactMap { entry -> String? in
            if case .object(let fields) = entry, case .string(let event)? = fields["event"] { return event }
            return nil
        }
        #expect(events.filter { $0 == "missed" }.count == 1)
        #expect(!events.contains("expired") && !events.contains("fired"))
    }

    @Test func aRestartAfterTheDueTimeReportsItMissedOnce() throws {
        let clock = ManualClock(start)
        do {
            let notifier = RecordingNotifier()
            let engine = try engine(clock: clock, notifier: notifier)
            _ = add(engine, coupon(expiresIn: 3 * 3600, leads: ["1h"]))
        }
        clock.set(start + 4 * 3600)  // the daemon was away past the reminder and the due time
        let notifier = RecordingNotifier()
        let restarted = try engine(clock: clock, notifier: notifier)
        advance(restarted)
        #expect(notifier.requests.map(\.summary) == ["While You Were Away"])
        let again = RecordingNotifier()
        let third = try engine(clock: clock, notifier: again)
        advance(third)
        #expect(again.requests.isEmpty)
    }

    /// Issue 27's leftover: a coupon reminded, then expired while reminderd was stopped, had no
    /// `expired` line at all (it was not missed: its reminder was shown). The start records it,
    /// with no pop-up, and a second start does not record it again.
    @Test func anOccurrenceThatPassedWhileStoppedAfterItsRemindersIsRecordedExpiredOnceAtStart() throws {
        let clock = ManualClock(start)
        let item: String
        do {
            let notifier = RecordingNotifier()
            let engine = try engine(clock: clock, notifier: notifier)
            item = add(engine, coupon(expiresIn: 3 * 3600, leads: ["1h"]))
            clock.set(start + 2 * 3600)
            advance(engine)
            #expect(notifier.requests.count == 1, "its reminder is shown before the stop")
        }
        clock.set(start + 4 * 3600)  // stopped past its due time
        for run in 1...2 {
            let notifier = RecordingNotifier()
            let restarted = try engine(clock: clock, notifier: notifier)
            advance(restarted)
            #expect(notifier.requests.isEmpty, "start \(run)")
            let events = history(restarted, item)
            #expect(events.filter { $0 == "expired" }.count == 1, "start \(run): \(events)")
            #expect(!events.contains("missed"))
        }
    }

    /// The events of `item`'s history, newest first.
    func history(_ engine: ReminderEngine, _ item: String) -> [String] {
        let reply = engine.queue.sync { engine.perform(.history, ["item": .string(item)]) }
        guard case .success(let parameters) = reply, case .array(let entries)? = parameters["entries"] else {
            Issue.record("history failed: \(reply)")
            return []
        }
        return entries.compactMap { entry -> String? in
            if case .object(let fields) = entry, case .string(let event)? = fields["event"] { return event }
            return nil
        }
    }

    @Test func aRestartBeforeTheDueTimeFiresTheMissedReminderLateOnce() throws {
        let clock = ManualClock(start)
        do {
            let engine = try engine(clock: clock, notifier: RecordingNotifier())
            _ = add(engine, coupon(expiresIn: 3 * 3600, leads: ["2h", "90m"]))
        }
        clock.set(start + 2 * 3600)  // both reminders (+1 h, +1.5 h) passed while away
        let notifier = RecordingNotifier()
        let restarted = try engine(clock: clock, notifier: notifier)
        advance(restarted)
        #expect(notifier.requests.count == 1)
        #expect(notifier.requests.first?.body.contains("\nLate: reminderd was not running at") == true)
    }
}
