import CivilTime
import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

/// `ItemView` is written and read by its field table alone: every typed field comes back as it
/// went, and what the daemon writes reads back to the same bytes.
@Suite struct ItemViewWireTests {
    /// A benefit with every typed field set, and two fields it only carries.
    let full: ItemView = {
        var view = ItemView(
        id: "ab12cd34", kind: .benefit, title: "Uber Cash", status: .used, card: "Amex Gold",
        amount: Money(tenThousandths: 150_000), value: Money(tenThousandths: 75_000),
        amountUsed: Money(tenThousandths: 50_000), amountLeft: Money(tenThousandths: 100_000),
        amountThisPeriod: Money(tenThousandths: 350_000), period: .monthly, periodStart: LocalDate(uncheckedYear: 2026, month: 3, day: 15),
        currency: "EUR", due: OffsetDateTime(instant: 1_796_090_340, offsetSeconds: -18_000), daysLeft: -3,
        nextReminder: OffsetDateTime(instant: 1_795_600_800, offsetSeconds: 3_600), reason: "why", hint: "what",
        more: ["notes": .string("n"), "lead": .array([.string("3d")])])
        view.taskList = true
        return view
    }()

    func read(_ text: String) throws -> ItemView {
        try ItemView(wire: JSONValue.parse(Array(text.utf8), source: "reply"), path: "item")
    }

    @Test func everyTypedFieldComesBackThroughTheWire() throws {
        let bytes = full.json.serialized()
        let back = try ItemView(wire: JSONValue.parse(bytes, source: "reply"), path: "item")
        #expect(back == full)
        // Every field of the table is written, so none of them went untested here.
        guard case .object(let object) = full.json else {
            Issue.record("not an object")
            return
        }
        for field in ItemView.wireFields { #expect(object[field.key] != nil, "\(field.key)") }
        #expect(Set(object.keys).subtracting(ItemView.wireFields.map(\.key)) == ["notes", "lead"])
    }

    /// A reply as the daemon writes one (keys sorted, money canonical, times with the zone's
    /// offset, `nextReminder` null when none) reads back to the same bytes.
    @Test func whatTheDaemonWritesReadsBackByteForByte() throws {
        let replies = [
            #"{"amount":"15","amountLeft":"7.50","amountUsed":"7.50","card":"Amex Gold","createdAt":"2026-11-01T10:00:00Z","currency":"USD","daysLeft":8,"due":"2026-11-30T23:59:00-05:00","id":"k4s8","kind":"benefit","nextReminder":"2026-11-27T09:00:00-05:00","period":"monthly","status":"available","title":"Uber Cash"}"#,
            #"{"currency":"EUR","expires":"2026-12-31","id":"c1","kind":"coupon","nextReminder":null,"status":"expired","title":"Pizza","value":"8.125"}"#,
            #"{"hint":"reminderctl remove q1","id":"q1","kind":"?","reason":"bad","status":"unreadable","title":"(unreadable)"}"#,
        ]
        for text in replies { #expect(try read(text).json.text() == text) }
    }

    @Test func aFieldOfTheWrongTypeOrValueIsRefusedByName() {
        let refusals = [
            (#"{"id":"a","kind":"fee","title":"F","status":"paid"}"#, "item.status: expected a status"),
            (#"{"id":"a","kind":"fee","title":"F","status":"used","amount":"lots"}"#, "item.amount: expected a decimal"),
            (#"{"id":"a","kind":"fee","title":"F","status":"used","due":"2026-11-30"}"#, "item.due: expected an RFC 3339"),
            (#"{"kind":"fee","title":"F","status":"used"}"#, "item.id: expected a string"),
        ]
        for (text, start) in refusals {
            #expect {
                try read(text)
            } throws: { error in
                guard case ReminderProtocolError.malformedMessage(let reason) = error else { return false }
                return reason.hasPrefix(start)
            }
        }
    }
}
