import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

/// The replies that carry items and the dashboard read back what the daemon wrote, and say which
/// item and field they cannot read.
@Suite struct ItemAndSummaryRepliesTests {
    func overTheWire(_ parameters: [String: JSONValue]) throws -> [String: JSONValue] {
        try ReminderRepliesTests().overTheWire(parameters)
    }

    @Test func summaryRoundTripsWithItsListsAndFeeReturns() throws {
        let pizza = SummaryReply.Entry(
            item: "cd34", title: "Pizza", kind: "coupon", status: "expiring", currency: "EUR",
            due: "2026-11-22T23:30:00Z", daysLeft: 0, value: "8")
        let reply = SummaryReply(
            currency: "USD", benefitsAvailable: "63", benefitsAvailableOther: ["EUR": "12.50"], benefitCards: 1,
            expiring: [pizza],
            usedRecently: [.init(item: "ab12", title: "Uber Cash", at: "2026-11-20T10:00:00Z", reason: "")],
            monthlyTotal: "17.99", monthlyOther: [:], renewingThisWeek: [], couponsToday: [pizza], couponsThisWeek: [],
            cards: [
                .init(
                    card: "Amex Gold", redeemed: "14", currency: "USD", feeDue: "2027-01-01T23:59:00Z",
                    daysUntilFee: 40,
                    fee: "325", net: "-311"),
                .init(
                    card: "No Fee", redeemed: "0", currency: "USD", feeDue: "2027-02-01T23:59:00Z", daysUntilFee: 71,
                    fee: nil, net: nil),
            ])
        #expect(try SummaryReply(parameters: overTheWire(reply.parameters)) == reply)
        // Absent, not null: an entry without a card has no "card" key.
        guard case .object(let summary)? = reply.parameters["summary"], case .array(let expiring)? = summary["expiring"]
        else {
            Issue.record("no summary object")
            return
        }
        #expect(expiring.first?.objectKeys.contains("card") == false)
    }

    @Test func itemRepliesRoundTripAndKeepFieldsThisVersionDoesNotKnow() throws {
        let view = try ItemView(
            wire: .object([
                "id": .string("ab12"), "kind": .string("benefit"), "title": .string("Uber Cash"),
                "status": .string("used"), "amount": .string("15"), "currency": .string("EUR"), "daysLeft": .integer(3),
                "nextReminder": .null, "futureField": .bool(true),
            ]), path: "item")
        let add = AddReply(id: "ab12", item: view)
        #expect(try AddReply(parameters: overTheWire(add.parameters)) == add)
        let read = try ItemReply(parameters: overTheWire(ItemReply(item: view).parameters)).item
        #expect(
            (read.title, read.currency, read.daysLeft, read.nextReminder, read.card) == (
                "Uber Cash", "EUR", 3, nil, nil
            ))
        #expect(read.more["futureField"] == JSONValue.bool(true))
        let list = ListReply(items: [view, view])
        #expect(try ListReply(parameters: overTheWire(list.parameters)) == list)
        for reply in [SnoozeReply(until: "t"), SnoozeReply(until: "t", shortened: .verbatim("why")),
            SnoozeReply(until: "t", shortened: Wording("%1$s is in quiet hours", .text("23:00")))] {
            #expect(try SnoozeReply(parameters: overTheWire(reply.parameters)) == reply)
        }
        #expect(try PauseReply(parameters: overTheWire(PauseReply(until: nil).parameters)) == PauseReply(until: nil))
        #expect(try ImportReply(parameters: overTheWire(ImportReply(ids: ["a", "b"]).parameters)).ids == ["a", "b"])
        #expect(try RemoveReply(parameters: overTheWire(RemoveReply(id: "ab12").parameters)).id == "ab12")
        #expect(
            try CalendarReply(parameters: overTheWire(CalendarReply(ics: "BEGIN:VCALENDAR").parameters)).ics
                == "BEGIN:VCALENDAR")
        let backup = ExportReply(items: [view.json], state: .object(["occurrences": .array([])]))
        #expect(try ExportReply(parameters: overTheWire(backup.parameters)) == backup)
    }

    /// A backup and a report are read by their field tables, a wrong field named by its place.
    @Test func anUnreadableBackupOrReportNamesItsPlace() {
        #expect(throws: ReminderProtocolError.malformedMessage(reason: "state: expected an object")) {
            try ExportReply(parameters: ["items": .array([]), "state": .array([])])
        }
        let card = JSONValue.object([
            "card": .string("Gold"), "currency": .string("USD"), "redeemed": .string("10"), "lost": .string("0"),
            "fee": .string("ten"),
        ])
        let report = JSONValue.object([
            "currency": .string("USD"), "cardFilter": .null, "months": .array([]), "cards": .array([card]),
            "subscriptions": .object(["monthlyTotal": .string("0"), "items": .array([])]), "lost": .array([]),
        ])
        #expect(throws: ReminderProtocolError.malformedMessage(reason: "report.cards[0].fee: expected a decimal amount")) {
            try ReportReply(parameters: ["report": report])
        }
    }

    @Test func anUnreadableItemNamesItsPlaceAndField() {
        #expect(
            throws: ReminderProtocolError.malformedMessage(reason: "items[1].daysLeft: expected a whole number or null")
        ) {
            try ListReply(parameters: [
                "items": .array([
                    .object([
                        "id": .string("a"), "kind": .string("fee"), "title": .string("F"), "status": .string("used"),
                    ]),
                    .object([
                        "id": .string("b"), "kind": .string("fee"), "title": .string("F"), "status": .string("used"),
                        "daysLeft": .string("3"),
                    ]),
                ])
            ])
        }
        #expect(throws: ReminderProtocolError.malformedMessage(reason: "item.title: expected a string")) {
            try ItemReply(parameters: [
                "item": .object(["id": .string("a"), "kind": .string("fee"), "status": .string("x")])
            ])
        }
    }
}
