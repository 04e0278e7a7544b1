import ReminderCore
import ReminderProtocol
import Testing

@testable import reminderctl

/// What `add` and `edit` say of an item that will get no reminder (issue #22: an evening coupon
/// due before quiet hours end got "next reminder none pending" and no word of why).
@Suite struct NoReminderNoteTests {
    /// 2030-03-05T22:00:05Z, when the notes below are asked for.
    static let now: Int64 = 1_898_978_405

    func step(_ lead: String, computed: String, fireAt: String? = nil, result: String) -> ExplainReply.Step {
        ExplainReply.Step(
            lead: lead, due: "2030-03-05T22:03:00Z", rule: .verbatim(""), computed: computed, dstGap: false,
            quietHours: "not affected", fireAt: fireAt, result: .verbatim(result))
    }

    func note(_ steps: [ExplainReply.Step]) -> [String] {
        NoReminderNote.lines(steps, id: "k4s8", now: NoReminderNoteTests.now)
    }

    @Test func quietHoursThatMovedTheReminderBeforeTheItemWasAddedAreNamedWithWhatToDo() {
        let lines = note([
            step(
                "1m", computed: "2030-03-05T22:02:00Z",
                result: "dropped: in quiet hours 22:00–08:00, which end after the due time; a minute before they "
                    + "begin (2030-03-05T21:59:00Z) is before the item was added")
        ])
        #expect(
            lines == [
                "No reminder will come before it is due, Tue 2030-03-05 22:03:",
                "  1m  Tue 2030-03-05 22:02  in quiet hours 22:00–08:00, which end after the due time; a minute "
                    + "before they begin (Tue 2030-03-05 21:59) is before the item was added",
                "Quiet hours hold pop-ups until they end. To be reminded during them, change or turn them off: "
                    + "reminderctl setup --quiet-hours START-END (or none)",
            ])
    }

    @Test func leadsPastOrAfterTheDueTimeAskForALeadInHoursOrMinutes() {
        let lines = note([
            step("1d", computed: "2030-03-04T09:00:00Z", result: "dropped: before the item was added"),
            step("0d", computed: "2030-03-05T09:00:00Z", result: "dropped: at or after the due time"),
        ])
        #expect(
            lines == [
                "No reminder will come before it is due, Tue 2030-03-05 22:03:",
                "  1d  Mon 2030-03-04 09:00  before the item was added",
                "  0d  Tue 2030-03-05 09:00  at or after the due time",
                "To be reminded, give a lead in hours or minutes: reminderctl edit k4s8 --lead 1h",
            ])
    }

    @Test func aKeptTimeAlreadyPastWasPassedOverByTheChange() {
        let lines = note([
            step("30m", computed: "2030-03-05T21:33:00Z", fireAt: "2030-03-05T21:33:00Z", result: "kept"),
            step("10d", computed: "2030-02-23T09:00:00Z", result: "dropped: before the item was added"),
        ])
        #expect(
            lines == [
                "No reminder will come before it is due, Tue 2030-03-05 22:03:",
                "  30m  Tue 2030-03-05 21:33  its time had passed when the item or the settings changed",
                "  10d  Sat 2030-02-23 09:00  before the item was added",
                "To be reminded, give a lead that is still ahead: reminderctl edit k4s8 --lead 10m",
            ])
    }

    @Test func nothingIsSaidWhenAReminderIsToComeOrWasShownOrNoneWasAskedFor() {
        #expect(note([]) == [])
        let dropped = step("1d", computed: "2030-03-04T09:00:00Z", result: "dropped: before the item was added")
        let ahead = step("1m", computed: "2030-03-05T22:02:00Z", fireAt: "2030-03-05T22:02:00Z", result: "kept")
        let shown = step(
            "1h", computed: "2030-03-05T21:03:00Z", fireAt: "2030-03-05T21:03:00Z", result: "already shown")
        #expect(note([dropped, ahead]) == [])
        #expect(note([dropped, shown]) == [])
    }
}

/// Times in the daemon's words (history reasons, refusals, a shortened snooze) as the tables write them.
@Suite struct HumanTimeInTextTests {
    @Test func eachRFC3339TimeIsWrittenAsTheTablesDoInItsOwnOffset() {
        #expect(
            HumanTime.inText("due 2030-03-05T23:59:00-05:00 passed without Done")
                == "due Tue 2030-03-05 23:59 passed without Done")
        #expect(
            HumanTime.inText("5h would end after the due time 2030-03-05T14:00:00Z; until 2030-03-06T09:00:00+01:00")
                == "5h would end after the due time Tue 2030-03-05 14:00; until Wed 2030-03-06 09:00")
    }

    @Test func textWithoutATimeIsLeftAsItIs() {
        for text in ["1h, until resumed", "Tea 2030-03-05", "id 12030-03-05T23:59:00Z9", "T", ""] {
            #expect(HumanTime.inText(text) == text)
        }
    }
}
