import Foundation
import ReminderCore
import ReminderJSON
import Testing

@testable import ReminderDaemon

/// Pop-ups that are no reminders — a sync conflict, "While You Were Away", the digest of held
/// reminders, a refused button — carry titles a person typed: on a server that reads markup
/// (`body-markup`) their `&`, `<` and `>` are escaped, as a reminder's are (Desktop
/// Notifications spec, "Markup"), and sent as they are to one that does not.
@Suite struct EngineNoticeMarkupTests {
    static let markup = ["actions", "body-markup"]

    @Test func aConflictPopUpIsEscapedForAServerThatReadsMarkup() throws {
        let server = FakeTaskList()
        let a = try EngineHarness()
        let b = try EngineHarness(notifier: RecordingNotifier(capabilities: EngineNoticeMarkupTests.markup))
        let id = a.addUber()
        server.sync(a.engine)
        server.sync(b.engine)
        for (harness, title) in [(a, "Fish & <Chips>"), (b, "Fish & Chips")] {
            _ = harness.perform("Edit", ["id": .string(id), "changes": .object(["title": .string(title)])])
        }
        server.sync(a.engine)
        server.sync(b.engine)
        let notice = try #require(b.notifier.requests.last)
        #expect(notice.summary == "Fish & <Chips>: changed on two devices", "the summary is never markup")
        #expect(
            notice.body
                == "title: kept \"Fish &amp; &lt;Chips&gt;\" from the other device; this device had \"Fish &amp; Chips\"")
    }

    @Test func theWhileYouWereAwayPopUpIsEscapedOnlyForAServerThatReadsMarkup() throws {
        for (capabilities, body) in [
            (EngineNoticeMarkupTests.markup, "Pizza &lt;2 for 1&gt; &amp; more passed while you were away"),
            (["actions"], "Pizza <2 for 1> & more passed while you were away"),
        ] {
            let harness = try EngineHarness()
            _ = harness.addCoupon(expiresIn: 2 * 3600, leads: ["1h"], title: "Pizza <2 for 1> & more")
            harness.clock.set(EngineHarness.start + 3 * 3600)  // away past the reminder and the due time
            try harness.restart(notifier: RecordingNotifier(capabilities: nil))
            harness.notifier.appear(capabilities: capabilities)
            harness.settle()
            let notice = try #require(harness.notifier.requests.first)
            #expect(notice.summary == "While You Were Away")
            #expect(notice.body == body)
        }
    }

    @Test func theDigestOfHeldRemindersAndARefusedButtonAreEscaped() throws {
        let harness = try EngineHarness(notifier: RecordingNotifier(capabilities: EngineNoticeMarkupTests.markup))
        // Days ahead, so not critical: a pause holds them.
        for title in ["A & B", "<C>"] { _ = harness.addCoupon(expiresIn: 3 * 86_400, leads: ["1d"], title: title) }
        _ = harness.perform("Pause")
        harness.advance(to: 2 * 86_400)
        #expect(harness.notifier.requests.isEmpty)
        _ = harness.perform("Resume")
        let digest = try #require(harness.notifier.requests.first)
        #expect(digest.body == "2 reminders held by your pause since 11:06: &lt;C&gt;, A &amp; B")
        // Its due time passed: the Done button of a pop-up still on screen is refused, in words.
        let popUpHarness = try EngineHarness(notifier: RecordingNotifier(capabilities: EngineNoticeMarkupTests.markup))
        _ = popUpHarness.addCoupon(expiresIn: 2 * 3600, leads: ["1h"], title: "A & B")
        popUpHarness.advance(to: 3600)
        let popUp = try #require(popUpHarness.notifier.acceptedIds.first)
        popUpHarness.clock.set(EngineHarness.start + 2 * 3600 + 1)
        popUpHarness.notifier.press("done", on: popUp)
        popUpHarness.settle()
        let refusal = try #require(popUpHarness.notifier.requests.last)
        #expect(refusal.summary == "Not done")
        #expect(refusal.body.hasPrefix("A &amp; B: its due time"))
    }
}
