import ReminderCore
import ReminderJSON
import ReminderProtocol
import ReminderStore
import Testing

@testable import ReminderDaemon

/// The edge is the one place an engine refusal becomes an `io.reminderd.Reminders` error: each
/// `EngineError` keeps the name and parameters clients (and `reminderctl`'s messages) read, and
/// a button's refusal reads as a client's would.
@Suite struct VarlinkEdgeTests {
    @Test func eachEngineErrorIsTheInterfaceErrorClientsRead() {
        let cases: [(EngineError, String, [String: JSONValue], String)] = [
            (
                .invalidItem(.invalidValue(field: "due", reason: "not a date")), "InvalidItem",
                ["field": .string("due"), "reason": .string("not a date")], "due: not a date"
            ),
            (
                .invalidParameter("days", .verbatim("expected 1 to 3660")), "InvalidParameter",
                ["parameter": .string("days"), "reason": .string("expected 1 to 3660")], "days: expected 1 to 3660"
            ),
            (
                .notApplicable("k4s8", .verbatim("nothing is due")), "NotApplicable",
                ["id": .string("k4s8"), "reason": .string("nothing is due")], "nothing is due"
            ),
            (
                // A translatable reason: in English as before, and its template beside it.
                .notApplicable("k4s8", Wording("nothing is due before %1$s", .text("2026-11-24T09:00:00Z"))),
                "NotApplicable",
                [
                    "id": .string("k4s8"), "reason": .string("nothing is due before 2026-11-24T09:00:00Z"),
                    "reasonTemplate": .object([
                        "format": .string("nothing is due before %1$s"),
                        "arguments": .array([.string("2026-11-24T09:00:00Z")]),
                    ]),
                ],
                "nothing is due before 2026-11-24T09:00:00Z"
            ),
            (.noSuchItem("zz"), "NoSuchItem", ["id": .string("zz")], "NoSuchItem: zz"),
            (
                .ambiguousId("k", matches: ["k4s8", "k9aa"]), "AmbiguousId",
                ["prefix": .string("k"), "matches": .array([.string("k4s8"), .string("k9aa")])], "AmbiguousId: k"
            ),
            (.nothingToUndo("k4s8"), "NothingToUndo", ["id": .string("k4s8")], "NothingToUndo: k4s8"),
            (
                .syncFailed(.verbatim("no task list yet")), "SyncFailed", ["reason": .string("no task list yet")],
                "no task list yet"
            ),
            (
                .store(.database(reason: "disk I/O error")), "Internal",
                ["reason": .string("store: disk I/O error")], "store: disk I/O error"
            ),
            (.internal("a fault"), "Internal", ["reason": .string("a fault")], "a fault"),
        ]
        for (error, name, parameters, words) in cases {
            #expect(error.varlinkError.name == "\(ReminderInterface.name).\(name)", "\(error)")
            #expect(error.varlinkError.parameters == parameters, "\(error)")
            #expect(error.description == words)
        }
    }
}
