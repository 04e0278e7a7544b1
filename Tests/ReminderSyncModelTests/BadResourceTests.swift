import CivilTime
import ICalendar
import ReminderCore
import ReminderSyncModel
import Testing

/// A resource that cannot be an item says which resource, and which property, in words.
@Suite struct BadResourceTests {
    @Test(arguments: [
        ("X-REMINDERD-AMOUNT:15\r\n", "X-REMINDERD-AMOUNT:fifteen\r\n", "X-REMINDERD-AMOUNT: \"fifteen\""),
        ("X-REMINDERD-PERIOD:monthly\r\n", "", "X-REMINDERD-PERIOD: missing"),
        ("X-REMINDERD-LEAD:7d,1d\r\n", "X-REMINDERD-LEAD:7d,1q\r\n", "X-REMINDERD-LEAD[1]"),
        ("SUMMARY:Uber Cash $15 — Amex Platinum\r\n", "SUMMARY:\r\n", "SUMMARY"),
        ("UID:", "X-UID:", "has no UID"),
        (
            "STATUS:NEEDS-ACTION\r\n", "STATUS:NEEDS-ACTION\r\nX-REMINDERD-DONE:20261130/x/15\r\n",
            "X-REMINDERD-DONE:20261130/x/15"
        ),
        (
            "STATUS:NEEDS-ACTION\r\n",
            "STATUS:NEEDS-ACTION\r\nX-REMINDERD-DONE:20261130T235900/20261120T150000Z/1.23456\r\n",
            "not a decimal amount"
        ),
        ("END:VTODO\r\nEND:VCALENDAR", "END:VTODO\r\n", "never closed"),
    ])
    func errorsNameTheResourceAndProperty(from: String, to: String, expected: String) throws {
        let text = Kit.written(SyncRecord(item: Kit.uber)).replacingFirst(from, with: to)
        #expect {
            _ = try Kit.read(text)
        } throws: { error in
            let description = "\(error)"
            return description.hasPrefix("item.ics") && description.contains(expected)
        }
    }
}
