import CivilTime
import Foundation
import Logging
import ReminderCore
import ReminderJSON
import ReminderProtocol
import ReminderStore
import Testing

@testable import ReminderDaemon

/// Export and Import as a backup: the state comes back with the items, in one transaction, and a
/// bad state entry refuses the whole import. Also: a Done that was undone is not "used".
@Suite struct EngineBackupTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "reminderd-backup-\(UUID().uuidString)")
    let start: Int64 = 1_795_000_000  // 2026-11-18T11:06:40Z

    func engine(_ name: String, clock: ManualClock, zone: TimeZoneRules = .utc) throws -> ReminderEngine {
        let engine = ReminderEngine(
            store: try ReminderStore(path: directory.appendingPathComponent("\(name).sqlite").path),
            notifier: RecordingNotifier(), configuration: Configuration(timeZone: zone.identifier, quietHours: nil),
            zone: zone,
            clock: { clock.now }, logger: Logger(label: "test"))
        try engine.queue.sync { try engine.start() }
        return engine
    }

    func add(_ engine: ReminderEngine, _ item: [String: JSONValue]) -> JSONValue {
        ok(engine, "Add", ["item": .object(item)])["id"] ?? .null
    }

    let benefit: [String: JSONValue] = [
        "kind": .string("benefit"), "title": .string("Uber Cash"), "card": .string("Gold"), "amount": .string("10"),
        "period": .string("monthly"),
    ]
    let fee: [String: JSONValue] = [
        "kind": .string("fee"), "title": .string("Gold fee"), "card": .string("Gold"), "amount": .string("325"),
        "due": .string("2027-03-10"),
    ]

    @Test func aBackupRestoresDoneSnoozeFeeReturnUndoAndHistory() throws {
        let clock = ManualClock(start)
        let original = try engine("original", clock: clock)
        let used = add(original, benefit)
        let snoozed = add(original, fee)
        ok(original, "Done", ["id": used])
        ok(original, "Snooze", ["id": snoozed, "duration": .string("1d")])
        let backup = ok(original, "Export", ["history": .bool(true)])

        let restored = try engine("restored", clock: clock)
        ok(restored, "Import", ["items": backup["items"] ?? .null, "state": backup["state"] ?? .null])
        #expect(ok(restored, "List") == ok(original, "List"))
        #expect(ok(restored, "Summary") == ok(original, "Summary"))  // fee return and "used recently" too
        #expect(ok(restored, "Explain", ["id": snoozed])["snoozedUntil"] != .null)
        #expect(
            ok(restored, "History", ["item": used])["entries"]?.elements.contains { $0["event"] == .string("done") }
                == true)
        ok(restored, "Undo", ["id": used])  // the undo step came along
    }

    /// A partial use marks no occurrence done: its undo step names none, rather than the epoch, which
    /// west of UTC reads as 1969-12-31 — a date import refused, so such a backup could not be
    /// restored (an export in Etc/GMT+11 failed to import before).
    @Test func aBackupWestOfUTCRestoresTheUndoOfADoneThatMarkedNoOccurrence() throws {
        let clock = ManualClock(start)
        let west = TimeZoneRules.fixed(identifier: "Etc/GMT+11", offset: -11 * 3600)
        let original = try engine("west", clock: clock, zone: west)
        let credit = add(original, benefit)
        ok(original, "Done", ["id": credit, "amount": .string("4")])
        let backup = ok(original, "Export", ["history": .bool(false)])
        #expect(backup["state"]?["undo"]?.elements.first?["due"] == nil)

        let restored = try engine("west-restored", clock: clock, zone: west)
        ok(restored, "Import", ["items": backup["items"] ?? .null, "state": backup["state"] ?? .null])
        #expect(ok(restored, "List") == ok(original, "List"))
        ok(restored, "Undo", ["id": credit])
    }

    @Test func aStateEntryForAnItemNotImportedRefusesTheWholeImport() throws {
        let engine = try engine("one", clock: ManualClock(start))
        var item = benefit
        item["id"] = .string("abcd")
        let reply = call(
            engine, "Import",
            [
                "items": .array([.object(item)]),
                "state": .object([
                    "occurrences": .array([
                        .object(["item": .string("zzzz"), "due": .string("2026-11-30T23:59:00+00:00")])
                    ])
                ]),
            ])
        guard case .failure(let error) = reply else {
            Issue.record("accepted: \(reply)")
            return
        }
        #expect(error.parameters["parameter"] == .string("state.occurrences[0].item"))
        #expect(ok(engine, "List")["items"] == .array([]))
    }

    @Test func aHistoryEntryOfAnUnknownEventRefusesTheWholeImportNamingIt() throws {
        let engine = try engine("one", clock: ManualClock(start))
        var item = benefit
        item["id"] = .string("abcd")
        let entry: [String: JSONValue] = [
            "at": .string("2026-11-01T10:00:00+00:00"), "item": .string("abcd"), "title": .string("Uber Cash"),
            "event": .string("exploded"), "reason": .string(""),
        ]
        let reply = call(
            engine, "Import",
            ["items": .array([.object(item)]), "state": .object(["history": .array([.object(entry)])])])
        guard case .failure(let error) = reply else {
            Issue.record("accepted: \(reply)")
            return
        }
        #expect(error.parameters["parameter"] == .string("state.history[0].event"))
        #expect(error.description.contains("\"exploded\" is not a history event; use added, edited, removed"))
        #expect(ok(engine, "List")["items"] == .array([]))
    }

    /// Each way a backup's state can be malformed is refused naming the entry's path, in words
    /// that say what was expected — these are the words a client sees (InvalidParameter).
    @Test func aMalformedStateIsRefusedNamingThePathAndWhatWasExpected() throws {
        let engine = try engine("one", clock: ManualClock(start))
        var item = benefit
        item["id"] = .string("abcd")
        let due: JSONValue = .string("2026-11-30T23:59:00+00:00")
        let cases: [(JSONValue, String)] = [
            (.array([]), "state: expected an object of occurrences, redemptions, undo, history"),
            (.object(["zeta": .null, "extra": .array([])]), "state.extra: unknown section"),
            (.object(["occurrences": .string("x")]), "state.occurrences: expected an array"),
            (.object(["undo": .array([.integer(3)])]), "state.undo[0]: expected an object"),
            (
                .object(["occurrences": .array([.object(["due": due])])]),
                "state.occurrences[0].item: missing or not a string"
            ),
            (
                .object(["occurrences": .array([.object(["item": .integer(1), "due": due])])]),
                "state.occurrences[0].item: missing or not a string"
            ),
            (
                .object(["occurrences": .array([.object(["item": .string("abcd"), "due": .string("soon")])])]),
                "state.occurrences[0].due: \"soon\" is not an RFC 3339 time"
            ),
            (
                .object([
                    "occurrences": .array([.object(["item": .string("abcd"), "due": due, "doneAt": .bool(true)])])
                ]),
                "state.occurrences[0].doneAt: missing or not a string"
            ),
            (
                .object([
                    "redemptions": .array([
                        .object(["item": .string("abcd"), "card": .string("Gold"), "at": due, "amount": .string("ten")])
                    ])
                ]),
                "state.redemptions[0].amount: \"ten\" is not a decimal amount"
            ),
            (
                .object(["undo": .array([.object(["item": .string("abcd"), "before": .null])])]),
                "state.undo[0].before: expected the item as it was, an object"
            ),
        ]
        for (state, words) in cases {
            let reply = call(engine, "Import", ["items": .array([.object(item)]), "state": state])
            guard case .failure(let error) = reply else {
                Issue.record("accepted: \(state)")
                continue
            }
            #expect(error.name == ReminderInterface.ErrorName.invalidParameter)
            #expect(error.description == words)
        }
        #expect(ok(engine, "List")["items"] == .array([]))
    }

    @Test func anImportOverItemsItHasIsRefusedUnlessReplace() throws {
        let engine = try engine("one", clock: ManualClock(start))
        _ = add(engine, benefit)
        let backup = ok(engine, "Export")
        guard case .failure(let error) = call(engine, "Import", ["items": backup["items"] ?? .null]) else {
            Issue.record("an import over the same ids was accepted")
            return
        }
        #expect(error.description.contains("already in use (to restore a backup over the items it has"))
        ok(
            engine, "Import",
            ["items": backup["items"] ?? .null, "state": backup["state"] ?? .null, "replace": .bool(true)])
        #expect(ok(engine, "List")["items"]?.elements.count == 1)
    }

    @Test func aDoneThatWasUndoneIsNotUsedRecently() throws {
        let engine = try engine("one", clock: ManualClock(start))
        let kept = add(engine, benefit)
        var other = benefit
        other["title"] = .string("Dining credit")
        let undone = add(engine, other)
        ok(engine, "Done", ["id": kept])
        ok(engine, "Done", ["id": undone])
        ok(engine, "Undo", ["id": undone])
        let used = ok(engine, "Summary")["summary"]?["usedRecently"]?.elements.map { $0["title"] }
        #expect(used == [.string("Uber Cash")])
    }
}

extension JSONValue {
    fileprivate subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    fileprivate var elements: [JSONValue] {
        if case .array(let values) = self { return values }
        return []
    }
}
