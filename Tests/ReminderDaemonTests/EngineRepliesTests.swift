import CivilTime
import Logging
import ReminderCore
import ReminderJSON
import ReminderProtocol
import ReminderStore
import Testing

@testable import ReminderDaemon

/// What the engine says of its own settings, so that a client need not read a config file the
/// daemon may not be using: each item's currency, today's date in its zone, and the calendar.
@Suite struct EngineRepliesTests {
    let harness = try! EngineHarness(configuration: Configuration(timeZone: "UTC", quietHours: nil, currency: "EUR"))

    func reply<Reply: ReminderReply>(_ method: String, _ parameters: [String: JSONValue] = [:], as: Reply.Type)
        throws -> Reply
    {
        guard case .success(let parameters) = harness.perform(method, parameters) else {
            Issue.record("\(method) failed")
            throw ReminderProtocolError.malformedMessage(reason: "\(method) failed")
        }
        return try Reply(parameters: parameters)
    }

    @Test func itemsWithoutACurrencyAreShownInTheConfiguredOneAndKeepTheirOwn() throws {
        let plain = try reply(
            "Add",
            [
                "item": .object([
                    "kind": .string("fee"), "title": .string("Fee"), "amount": .string("95"),
                    "due": .string("2027-01-10"),
                ])
            ],
            as: AddReply.self)
        #expect(plain.item.currency == "EUR")
        let own = try reply(
            "Add",
            [
                "item": .object([
                    "kind": .string("fee"), "title": .string("Other"), "amount": .string("5"),
                    "due": .string("2027-01-11"), "currency": .string("GBP"),
                ])
            ], as: AddReply.self)
        #expect(own.item.currency == "GBP")
        #expect(try reply("List", as: ListReply.self).items.map(\.currency) == ["EUR", "GBP"])
        #expect(try reply("Get", ["id": .string(plain.id)], as: ItemReply.self).item.currency == "EUR")
        // The backup keeps the item as stored: without a currency, it follows the config it is restored under.
        let backup = try reply("Export", as: ExportReply.self)
        #expect(backup.items.first?.hasField("currency") == false)
    }

    @Test func upcomingNamesTheCurrencyOfRowsWithMoneyOnly() throws {
        for (title, value) in [("Pizza", "8"), ("Bagels", nil)] {
            var fields: [String: JSONValue] = [
                "kind": .string("coupon"), "title": .string(title), "expires": .string("2026-11-25T12:00"),
            ]
            if let value { fields["value"] = .string(value) }
            _ = try reply("Add", ["item": .object(fields)], as: AddReply.self)
        }
        let rows = try reply("Upcoming", ["days": .integer(30)], as: UpcomingReply.self).reminders
        #expect(Set(rows.map { "\($0.title) \($0.currency ?? "-")" }) == ["Pizza EUR", "Bagels -"])
    }

    @Test func statusSaysTodayInTheDaemonsZone() throws {
        // 2026-11-18T11:06:40Z is already the 19th in UTC+14.
        #expect(try reply("Status", as: StatusReply.self).today == "2026-11-18")
        let engine = ReminderEngine(
            store: try ReminderStore(path: harness.directory.appendingPathComponent("other.sqlite").path),
            notifier: RecordingNotifier(), configuration: Configuration(quietHours: nil),
            zone: .fixed(identifier: "UTC+14", offset: 14 * 3600), clock: { EngineHarness.start },
            logger: Logger(label: "test"))
        let status = engine.queue.sync { engine.status(now: EngineHarness.start) }
        #expect(status.today == "2026-11-19")
    }

    @Test func theCalendarIsWrittenWithTheDaemonsSettings() throws {
        let added = try reply(
            "Add",
            [
                "item": .object([
                    "kind": .string("coupon"), "title": .string("Pizza"), "expires": .string("2026-12-01T12:00"),
                ])
            ],
            as: AddReply.self)
        let ics = try reply("Calendar", ["days": .integer(30)], as: CalendarReply.self).ics
        #expect(ics.hasPrefix("BEGIN:VCALENDAR"))
        #expect(ics.contains("UID:\(added.id)@reminderd"))
        #expect(ics.contains("DTSTART:20261201T120000Z"))
        guard case .failure(let error) = harness.perform("Calendar", ["days": .integer(0)]) else {
            Issue.record("days 0 was accepted")
            return
        }
        #expect(error.name == ReminderInterface.ErrorName.invalidParameter)
    }
}
