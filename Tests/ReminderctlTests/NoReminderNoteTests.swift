import ReminderProtocol
import Testing

@testable import reminderctl

/// What `add` and `edit` say of an item that will get no reminder (issue #22: an evening coupon
/// due before quiet hours end got "next reminder none pending" and no word of why).
@Suite struct NoReminderNoteTests {
    func step(_ lead: String, fireAt: String? = nil, result: String) -> ExplainReply.Step {
        ExplainReply.Step(
            lead: lead, due: "2030-03-05T22:03:00Z", rule: "", computed: "2030-03-05T22:02:00Z", dstGap: false,
            quietHours: "not affected", fireAt: fireAt, result: result)
    }

    @Test func quietHoursThatMovedTheReminderBeforeTheItemWasAddedAreNamedWithWhatToDo() {
        let lines = NoReminderNote.lines(
            [
                step(
                    "1m",
                    result: "dropped: it falls in quiet hours 22:00–08:00, which end after the due time, and a minute "
                        + "before they begin (2030-03-05T21:59:00Z) is before the item was added")
            ], id: "k4s8")
        #expect(
            lines == [
                "No reminder will come for it. 1m lead: it falls in quiet hours 22:00–08:00, which end after the due "
                    + "time, and a minute before they begin (Tue 2030-03-05 21:59) is before the item was added.",
                "Quiet hours hold pop-ups until they end. To be reminded during them, change or turn them off: "
                    + "reminderctl setup --quiet-hours START-END (or none)",
            ])
    }

    @Test func leadsThatHadPassedAskForOneStillAhead() {
        let lines = NoReminderNote.lines(
            [
                step("1d", result: "dropped: before the item was added"),
                step("0d", result: "dropped: at or after the due time"),
            ], id: "k4s8")
        #expect(
            lines == [
                "No reminder will come for it. 1d lead: before the item was added; 0d lead: at or after the due time.",
                "To be reminded, give a lead that is still ahead: reminderctl edit k4s8 --lead 10m",
            ])
    }

    @Test func nothingIsSaidWhenAReminderIsKeptOrNoneWasAskedFor() {
        #expect(NoReminderNote.lines([], id: "k4s8") == [])
        #expect(
            NoReminderNote.lines(
                [
                    step("1d", result: "dropped: before the item was added"),
                    step("1m", fireAt: "2030-03-05T22:02:00Z", result: "kept"),
                ], id: "k4s8") == [])
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
