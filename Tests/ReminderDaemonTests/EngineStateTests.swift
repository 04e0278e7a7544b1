import Foundation
import Logging
import ReminderCore
import ReminderJSON
import ReminderProtocol
@_spi(Testing) import ReminderStore
import Testing

@testable import ReminderDaemon

/// The engine's state under repeated commands, failed writes and restarts: Done and Undo, an
/// overdue rebuy, pause and resume, and an unreadable stored item.
@Suite struct EngineStateTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "reminderd-state-\(UUID().uuidString)")
    let start: Int64 = 1_795_000_000  // 2026-11-18T11:06:40Z
    var storePath: String { directory.appendingPathComponent("store.sqlite").path }

    /// An engine on the test's store; a second call is the daemon after a restart.
    func engine(clock: ManualClock, notifier: RecordingNotifier = RecordingNotifier()) throws -> ReminderEngine {
        let engine = ReminderEngine(
            store: try ReminderStore(path: storePath), notifier: notifier,
            configuration: Configuration(timeZone: "UTC", quietHours: nil), zone: .utc, clock: { clock.now },
            logger: Logger(label: "test"))
        try engine.queue.sync { try engine.start() }
        return engine
    }

    func add(_ engine: ReminderEngine, _ item: [String: JSONValue]) -> String {
        guard case .string(let id)? = ok(engine, "Add", ["item": .object(item)])["id"] else { return "" }
        return id
    }

    func advance(_ engine: ReminderEngine) {
        engine.queue.sync { engine.advance() }
        engine.queue.sync {}
    }

    /// The due instants of the item's occurrences marked done, in order.
    func doneDues(_ engine: ReminderEngine, _ id: String) -> [Int64] {
        engine.queue.sync { (engine.occurrences[id] ?? [:]).values.filter { $0.doneAt != nil }.map(\.due).sorted() }
    }

    func history(_ engine: ReminderEngine) -> [(event: String, reason: String)] {
        guard case .array(let entries)? = ok(engine, "History")["entries"] else { return [] }
        return entries.compactMap { entry in
            guard case .object(let fields) = entry, case .string(let event)? = fields["event"],
                case .string(let reason)? = fields["reason"]
            else { return nil }
            return (event, reason)
        }
    }

    func status(_ engine: ReminderEngine) -> [String: JSONValue] {
        guard case .object(let fields)? = ok(engine, "Status")["status"] else { return [:] }
        return fields
    }

    let fee: [String: JSONValue] = [
        "kind": .string("fee"), "title": .string("Card fee"), "card": .string("Card"), "amount": .string("95"),
        "due": .string("2026-12-10"),
    ]

    @Test func doneOnAnOccurrenceDoneAlreadyIsRefusedAndChangesNothing() throws {
        let engine = try engine(clock: ManualClock(start))
        let id = add(engine, fee)
        ok(engine, "Done", ["id": .string(id)])
        let dues = doneDues(engine, id)
        #expect(dues.count == 1)
        let again = call(engine, "Done", ["id": .string(id)])
        guard case .failure(let error) = again else {
            Issue.record("a second Done was accepted: \(again)")
            return
        }
        #expect(error.name == ReminderInterface.ErrorName.notApplicable)
        #expect(text(of: error.parameters["reason"]).contains("already done for the occurrence due 2026-12-10"))
        #expect(doneDues(engine, id) == dues)
        #expect(history(engine).filter { $0.event == "done" }.count == 1)
    }

    @Test func aRebuyDoneTwiceTheSameDayIsRefusedAndOneUndoRestoresIt() throws {
        let engine = try engine(clock: ManualClock(start))
        let id = add(
            engine,
            [
                "kind": .string("rebuy"), "title": .string("Coffee"), "everyDays": .integer(30),
                "lastPurchased": .string("2026-11-01"),
            ])
        ok(engine, "Done", ["id": .string(id)])
        guard case .failure(let error) = call(engine, "Done", ["id": .string(id)]) else {
            Issue.record("a second rebuy on the same day was accepted")
            return
        }
        #expect(text(of: error.parameters["reason"]).contains("already rebought today"))
        ok(engine, "Undo", ["id": .string(id)])
        #expect(ok(engine, "Get", ["id": .string(id)])["item"]?.field("lastPurchased") == .string("2026-11-01"))
    }

    /// Issue 19, defect 7: a rebuy's Done with an amount answered success and dropped the amount.
    @Test func anAmountOnARebuysDoneIsRefusedAndNothingChanges() throws {
        let engine = try engine(clock: ManualClock(start))
        let id = add(
            engine,
            [
                "kind": .string("rebuy"), "title": .string("Coffee"), "everyDays": .integer(30),
                "lastPurchased": .string("2026-11-01"),
            ])
        guard case .failure(let error) = call(engine, "Done", ["id": .string(id), "amount": .string("12")]) else {
            Issue.record("a rebuy's Done with an amount was accepted")
            return
        }
        #expect(text(of: error.parameters["reason"]).contains("only a benefit records a partial use"))
        #expect(ok(engine, "Get", ["id": .string(id)])["item"]?.field("lastPurchased") == .string("2026-11-01"))
    }

    @Test func aPauseStoredByAnOlderVersionAsAFarInstantReadsUntilResumed() throws {
        try ReminderStore(path: storePath).savePause(String(Int64(Int32.max) * 4))
        let engine = try engine(clock: ManualClock(start))
        #expect(status(engine)["paused"] == .string("until resumed"))
        #expect(engine.queue.sync { engine.schedule.nextDeadline() } == nil)
    }

    @Test func doneEarlyAcknowledgesTheNextAndUndoWalksBackEveryDone() throws {
        let engine = try engine(clock: ManualClock(start))
        let id = add(engine, fee)
        let reminderBefore = ok(engine, "Get", ["id": .string(id)])["item"]?.field("nextReminder")
        ok(engine, "Done", ["id": .string(id)])
        ok(engine, "Done", ["id": .string(id), "early": .bool(true)])
        ok(engine, "Done", ["id": .string(id), "early": .bool(true)])
        #expect(doneDues(engine, id).count == 3)  // 2026, 2027 and 2028
        for remaining in [2, 1, 0] {
            ok(engine, "Undo", ["id": .string(id)])
            #expect(doneDues(engine, id).count == remaining)
        }
        guard case .failure(let error) = call(engine, "Undo", ["id": .string(id)]) else {
            Issue.record("a fourth Undo found something to undo")
            return
        }
        #expect(error.name == ReminderInterface.ErrorName.nothingToUndo)
        #expect(ok(engine, "Get", ["id": .string(id)])["item"]?.field("nextReminder") == reminderBefore)
    }

    @Test func aRebuyOverdueWhenAddedRemindsOnceNowAndNotAgainAfterARestart() throws {
        let clock = ManualClock(start)
        let notifier = RecordingNotifier()
        let engine = try engine(clock: clock, notifier: notifier)
        let id = add(
            engine,
            [
                "kind": .string("rebuy"), "title": .string("Coffee"), "everyDays": .integer(30),
                "lastPurchased": .string("2026-10-01"),  // ran out 2026-10-31, before it was added
            ])
        advance(engine)
        #expect(notifier.requests.map(\.summary) == ["\u{2068}Coffee\u{2069}"])
        #expect(notifier.requests.first?.body.contains("time to rebuy!") == true)
        clock.set(start + 3600)
        advance(engine)
        #expect(notifier.requests.count == 1)

        let restartedNotifier = RecordingNotifier()
        let restarted = try self.engine(clock: clock, notifier: restartedNotifier)
        advance(restarted)
        #expect(restartedNotifier.requests.isEmpty)
        ok(restarted, "Done", ["id": .string(id)])  // rebought: the next cycle is reminded as usual
        #expect(ok(restarted, "Get", ["id": .string(id)])["item"]?.field("nextReminder") != .null)
    }

    @Test func aRebuyDoneDaysAfterItWasAddedIsStillReadableAfterARestart() throws {
        let clock = ManualClock(start)
        let engine = try engine(clock: clock)
        let id = add(
            engine,
            [
                "kind": .string("rebuy"), "title": .string("Filters"), "everyDays": .integer(60),
                "lastPurchased": .string("2026-11-01"),
            ])
        clock.set(start + 5 * 86_400)  // bought again five days after it was added
        ok(engine, "Done", ["id": .string(id)])
        let restarted = try self.engine(clock: clock)
        let item = ok(restarted, "Get", ["id": .string(id)])["item"]
        #expect(item?.field("status") != .string("unreadable"))
        #expect(item?.field("lastPurchased") == .string("2026-11-23"))
    }

    @Test func aRebuysPurchaseDateCanBeEditedToADayAfterItWasAdded() throws {
        let clock = ManualClock(start)
        let engine = try engine(clock: clock)
        let id = add(
            engine,
            [
                "kind": .string("rebuy"), "title": .string("Filters"), "everyDays": .integer(60),
                "lastPurchased": .string("2026-11-01"),
            ])
        clock.set(start + 5 * 86_400)
        ok(engine, "Edit", ["id": .string(id), "changes": .object(["lastPurchased": .string("2026-11-22")])])
        #expect(ok(engine, "Get", ["id": .string(id)])["item"]?.field("lastPurchased") == .string("2026-11-22"))
        let tomorrow: JSONValue = .object(["lastPurchased": .string("2026-11-24")])
        guard case .failure = call(engine, "Edit", ["id": .string(id), "changes": tomorrow]) else {
            Issue.record("a purchase date after today was accepted")
            return
        }
    }

    @Test func aResumeThatCannotBeStoredIsRefusedAndThePauseStays() throws {
        let clock = ManualClock(start)
        let engine = try engine(clock: clock)
        ok(engine, "Pause")
        try StoreFaults.failWrites(.pauseEnd, storeAt: storePath)
        guard case .failure(let error) = call(engine, "Resume") else {
            Issue.record("Resume answered success for a change it did not store")
            return
        }
        #expect(text(of: error.parameters["reason"]).contains("disk is full"))
        #expect(status(engine)["paused"] == .string("until resumed"))
        let restarted = try self.engine(clock: clock)
        #expect(status(restarted)["paused"] == .string("until resumed"))
    }

    @Test func aPauseWithoutAnEndReadsUntilResumedEverywhere() throws {
        let clock = ManualClock(start)
        let engine = try engine(clock: clock)
        ok(engine, "Pause")
        _ = add(
            engine,
            [
                "kind": .string("coupon"), "title": .string("Deal"), "expires": .string("2026-11-21"),
                "lead": .array([.string("2d")]),
            ])
        clock.set(start + 86_400 - 5800)  // 2026-11-19 09:30: the 09:00 reminder (not urgent) is held
        advance(engine)
        #expect(engine.queue.sync { engine.statusLine() }.contains("paused until resumed"))
        #expect(status(engine)["paused"] == .string("until resumed"))
        let held = history(engine).filter { $0.event == "held" }
        #expect(held.map(\.reason) == ["paused until resumed"])
        #expect(try ReminderStore(path: storePath).savedPause() == "untilResumed")
    }

    @Test func aTimedPauseEndsOnTheWheelAlsoAfterARestart() throws {
        let clock = ManualClock(start)
        let engine = try engine(clock: clock)
        let deadlines = Deadlines()
        engine.queue.sync { engine.deadlineChanged = { deadlines.append($0) } }
        ok(engine, "Pause", ["duration": .string("2h")])
        #expect(deadlines.last == start + 7200)  // the timer driver is armed for the end

        let notifier = RecordingNotifier()
        let restarted = try self.engine(clock: clock, notifier: notifier)
        #expect(restarted.queue.sync { restarted.schedule.nextDeadline() } == start + 7200)
        clock.set(start + 7200)
        advance(restarted)
        #expect(status(restarted)["paused"] == .null)
        #expect(try ReminderStore(path: storePath).savedPause() == nil)
    }

    @Test func anUnreadableStoredItemIsSetAsideListedAndRemovable() throws {
        let clock = ManualClock(start)
        let id: String
        let keep: String
        do {
            let engine = try engine(clock: clock)
            id = add(engine, fee)
            keep = add(engine, fee.merging(["title": .string("Other fee"), "card": .string("Other card")]) { $1 })
        }
        try StoreFaults.corruptItemJSON(
            id: id, with: "{\"kind\": \"fee\", \"title\": \"Card fee\"", storeAt: storePath)
        let engine = try engine(clock: clock)  // starts: the rest works
        guard case .array(let listed)? = ok(engine, "List")["items"] else { return }
        #expect(listed.compactMap { $0.field("id") } == [.string(keep), .string(id)])
        #expect(listed.last?.field("status") == .string("unreadable"))
        #expect(
            history(engine).contains { $0.event == "quarantined" && $0.reason.contains("reminderctl remove \(id)") })
        guard case .failure(let refused) = call(engine, "Done", ["id": .string(id)]) else {
            Issue.record("Done on an unreadable item was accepted")
            return
        }
        #expect(refused.name == ReminderInterface.ErrorName.notApplicable)
        ok(engine, "Remove", ["id": .string(id)])
        guard case .array(let after)? = ok(engine, "List")["items"] else { return }
        #expect(after.compactMap { $0.field("id") } == [.string(keep)])
        #expect(try ReminderStore(path: storePath).quarantinedItems().isEmpty)
    }
}

/// The deadlines the engine handed to its timer driver.
final class Deadlines: @unchecked Sendable {  // `values` behind `lock`
    private let lock = NSLock()
    private var values: [Int64?] = []
    func append(_ deadline: Int64?) { lock.withLock { values.append(deadline) } }
    var last: Int64? { lock.withLock { values.last ?? nil } }
}

extension JSONValue {
    fileprivate func field(_ key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }
}

/// A reply parameter's text, or "".
private func text(of value: JSONValue?) -> String {
    if case .string(let text)? = value { return text }
    return ""
}
