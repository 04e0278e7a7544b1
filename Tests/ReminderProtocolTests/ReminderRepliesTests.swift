import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

/// Each typed reply reads back what it wrote, through the wire bytes, and says which field of a
/// reply it cannot read.
@Suite struct ReminderRepliesTests {
    /// The parameters as the client receives them: serialized as a reply, then parsed.
    func overTheWire(_ parameters: [String: JSONValue]) throws -> [String: JSONValue] {
        let bytes = VarlinkReply.success(parameters).bytes
        guard case .success(let read) = try VarlinkReply(bytes: Array(bytes.dropLast())) else {
            Issue.record("not a success")
            return [:]
        }
        return read
    }

    @Test func statusRoundTripsWithAndWithoutItsOptionalFields() throws {
        let full = StatusReply(
            version: "0.2.0", uptimeSeconds: 12, items: 3, nextReminder: "2026-11-24T09:00:00-05:00",
            notificationServer: .init(
                name: "dunst", vendor: "knopwob", version: "1.9", capabilities: ["body", "actions"]),
            paused: "until resumed", waiting: 1, timeZone: "America/New_York", today: "2026-11-22",
            store: "/tmp/s.sqlite", held: 2, heldReason: "do not disturb", inTurn: 3)
        #expect(try StatusReply(parameters: overTheWire(full.parameters)) == full)
        let bare = StatusReply(
            version: "0.2.0", uptimeSeconds: 0, items: 0, nextReminder: nil, notificationServer: nil, paused: nil,
            waiting: 0, timeZone: "UTC", today: "2026-11-22", store: "s", held: 0, heldReason: nil)
        #expect(try StatusReply(parameters: overTheWire(bare.parameters)) == bare)
        // The absent values are written as null, so every key is in the reply.
        #expect(bare.parameters["status"]?.objectKeys.count == 13)
    }

    /// A daemon of the previous version (still running after an upgrade, until it is restarted)
    /// answers `Status` without `today`: the reply still reads, so `status` and `add` keep working.
    @Test func aStatusFromADaemonBeforeTodayStillReads() throws {
        var parameters = StatusReply(
            version: "0.1.0", uptimeSeconds: 5, items: 1, nextReminder: nil, notificationServer: nil, paused: nil,
            waiting: 0, timeZone: "Europe/Paris", today: nil, store: "s", held: 0, heldReason: nil
        ).parameters
        if case .object(var fields)? = parameters["status"] {
            fields["today"] = nil
            parameters["status"] = .object(fields)
        }
        if case .object(var fields)? = parameters["status"] {
            fields["inTurn"] = nil  // nor `inTurn`, older still
            parameters["status"] = .object(fields)
        }
        let read = try StatusReply(parameters: overTheWire(parameters))
        #expect(read.today == nil)
        #expect(read.inTurn == 0)
        #expect(read.timeZone == "Europe/Paris")
    }

    @Test func historyRoundTrips() throws {
        let reply = HistoryReply(entries: [
            .init(at: "2026-11-24T09:00:00Z", item: "ab12", title: "Uber Cash", event: "fired", reason: "7d"),
            .init(at: "2026-11-23T09:00:00Z", item: "cd34", title: "Fee", event: "done", reason: ""),
        ])
        #expect(try HistoryReply(parameters: overTheWire(reply.parameters)) == reply)
        #expect(try HistoryReply(parameters: overTheWire(HistoryReply(entries: []).parameters)).entries.isEmpty)
    }

    @Test func explainRoundTripsWithADroppedStepAndASnooze() throws {
        let reply = ExplainReply(
            steps: [
                .init(
                    lead: "7d", due: "2026-12-31T23:59:00Z",
                    rule: Wording(
                        ("%1$s, %2$d day before the due date", "%1$s, %2$d days before the due date"), count: 7,
                        .text("09:00"), .text("7")),
                    computed: "2026-12-24T09:00:00Z", dstGap: false, quietHours: "not affected",
                    fireAt: "2026-12-24T09:00:00Z", result: Wording("kept")),
                .init(
                    lead: "1h", due: "2026-12-31T23:59:00Z", rule: .verbatim("1h before the due time (elapsed time)"),
                    computed: "2026-12-31T22:59:00Z", dstGap: true, quietHours: "moved to the end of quiet hours",
                    fireAt: nil, result: Wording("dropped: %1$s", .wording(Wording("at or after the due time")))),
            ], snoozedUntil: "2026-12-20T10:00:00Z")
        #expect(try ExplainReply(parameters: overTheWire(reply.parameters)) == reply)
        // The English cells as before; the templates beside them say the same (a verbatim one has none).
        #expect(
            reply.steps.map(\.rule) == ["09:00, 7 days before the due date", "1h before the due time (elapsed time)"])
        #expect(reply.steps.map(\.result) == ["kept", "dropped: at or after the due time"])
        #expect(reply.steps[1].ruleTemplate == nil)
        #expect(reply.steps.map(\.translatedResult) == reply.steps.map(\.result))
        // A template that does not say what the English cell says is not used.
        var forged = reply.steps[0]
        forged.rule = "something else"
        #expect(forged.translatedRule == "something else")
        let none = ExplainReply(steps: [], snoozedUntil: nil)
        #expect(try ExplainReply(parameters: overTheWire(none.parameters)) == none)
    }

    @Test func anUnreadableReplyNamesTheField() {
        var status = StatusReply(
            version: "v", uptimeSeconds: 0, items: 0, nextReminder: nil, notificationServer: nil, paused: nil,
            waiting: 0, timeZone: "UTC", today: "2026-11-22", store: "s", held: 0, heldReason: nil
        ).parameters
        if case .object(var fields)? = status["status"] {
            fields["items"] = .string("three")
            status["status"] = .object(fields)
        }
        #expect(throws: ReminderProtocolError.malformedMessage(reason: "status.items: expected a whole number")) {
            try StatusReply(parameters: status)
        }
        #expect(throws: ReminderProtocolError.malformedMessage(reason: "entries[0].event: expected a string")) {
            try HistoryReply(parameters: [
                "entries": .array([
                    .object(["at": .string("t"), "item": .string("i"), "title": .string("x"), "reason": .string("")])
                ])
            ])
        }
        #expect(throws: ReminderProtocolError.malformedMessage(reason: "steps: expected an array")) {
            try ExplainReply(parameters: [:])
        }
    }
}

extension JSONValue {
    var objectKeys: [String] {
        if case .object(let fields) = self { return Array(fields.keys) }
        return []
    }
}

@Suite struct UpcomingReplyTests {
    @Test func upcomingRoundTripsAndLeavesOutTheMoneyAnItemHasNot() throws {
        let reply = UpcomingReply(reminders: [
            .init(
                item: "ab12", title: "Uber Cash", fireAt: "2026-11-24T09:00:00Z", due: "2026-11-30T23:59:00Z",
                lead: "7d", late: false, card: "Amex Gold", amount: "15", currency: "USD"),
            .init(
                item: "cd34", title: "Coupon", fireAt: "2026-11-25T09:00:00Z", due: "2026-11-26T18:00:00Z",
                lead: "1d", late: true, value: "5"),
            .init(
                item: "ef56", title: "Rebuy", fireAt: "2026-11-26T09:00:00Z", due: "2026-11-27T23:59:00Z", lead: "1d",
                late: false),
        ])
        let bytes = VarlinkReply.success(reply.parameters).bytes
        guard case .success(let read) = try VarlinkReply(bytes: Array(bytes.dropLast())) else {
            return #expect(Bool(false), "not a success")
        }
        #expect(try UpcomingReply(parameters: read) == reply)
        guard case .array(let rows)? = reply.parameters["reminders"], case .object(let rebuy) = rows[2] else {
            return #expect(Bool(false), "no rows")
        }
        #expect(Set(rebuy.keys) == ["item", "title", "fireAt", "due", "lead", "late"])
    }
}
