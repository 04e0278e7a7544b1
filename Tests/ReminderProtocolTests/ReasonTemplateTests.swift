import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

/// An error's reason travels in English with its template beside it; the side showing it uses the
/// template only when it says the same English, so another daemon's words are never misquoted.
@Suite struct ReasonTemplateTests {
    static let reason = Wording("due %1$s, too soon to snooze", .text("2026-11-24T09:00:00Z"))

    @Test func theReasonIsEnglishWithItsTemplateBeside() {
        let parameters = VarlinkError.reasonParameters(Self.reason, ["id": .string("k4s8")])
        #expect(parameters["reason"] == .string("due 2026-11-24T09:00:00Z, too soon to snooze"))
        #expect(Wording(template: parameters["reasonTemplate"]) == Self.reason)
        #expect(VarlinkError.reasonParameters(.verbatim("401 Unauthorized"))["reasonTemplate"] == nil)
    }

    @Test func aTemplateThatSaysOtherWordsOrNoneLeavesTheEnglish() {
        var parameters = VarlinkError.reasonParameters(Self.reason)
        #expect(VarlinkError(name: "x", parameters: parameters).translatedReason == "due 2026-11-24T09:00:00Z, too soon to snooze")
        parameters["reason"] = .string("another daemon's words")
        #expect(VarlinkError(name: "x", parameters: parameters).translatedReason == "another daemon's words")
        parameters["reasonTemplate"] = .string("not an object")
        #expect(VarlinkError(name: "x", parameters: parameters).translatedReason == "another daemon's words")
        #expect(VarlinkError(name: "x", parameters: [:]).translatedReason == nil)
    }

    @Test func nestedAndPluralTemplatesRoundTrip() {
        let dropped = Wording(
            "dropped: %1$s",
            .wording(Wording(("%1$d day", "%1$d days"), count: 3, .text("3"))))
        #expect(dropped.english == "dropped: 3 days")
        #expect(Wording(template: dropped.template) == dropped)
        #expect(dropped.nested(0)?.english == "3 days")
    }
}
