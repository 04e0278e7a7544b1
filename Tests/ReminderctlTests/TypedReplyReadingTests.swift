import ReminderCore
import ReminderProtocol
import Testing

@testable import reminderctl

@Suite struct TypedReplyReadingTests {
    @Test func aReplyTheToolCannotReadExits76NamingTheField() {
        do {
            _ = try Output.read { try StatusReply(parameters: ["status": .object([:])]) }
            Issue.record("read an empty status")
        } catch let refusal as Refusal {
            #expect(refusal.exitCode == 76)  // the daemon answered: not 69, unreachable
            #expect(
                refusal.message
                    == "reminderd answered, but its reply cannot be read: malformed message: status.version: expected a string\nhint: reminderd and reminderctl may be of different versions; restart reminderd after an upgrade"
            )
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func thePausedLineReadsTheTypedStatus() {
        let status = StatusReply(
            version: "v", uptimeSeconds: 0, items: 0, nextReminder: nil, notificationServer: nil, paused: nil,
            waiting: 0, timeZone: "UTC", today: "2026-11-22", store: "s", held: 2, heldReason: nil)
        #expect(
            Status.paused(status)
                == "no, but 2 reminders are held by the desktop's do-not-disturb; they come as one digest when it ends")
        var resumed = status
        resumed.paused = "until resumed"
        #expect(
            Status.paused(resumed)
                == "until you run: reminderctl resume; every pop-up is held (2 so far), shown as one digest when the pause ends"
        )
    }
}
