import ReminderCore
import ReminderDaemon
import ReminderProtocol
import Testing

/// What a pop-up offers (issue 11, pop-ups): it stays until acted on, offers Done and only the
/// snoozes that fit (three buttons at most, none that does nothing), is reachable on GNOME,
/// groups reminders due at one instant, and is not called late when merely shown again.
@Suite struct EnginePopUpTests {
    @Test func aReminderStaysOnScreenUntilActedOn() throws {
        let harness = try EngineHarness(notifier: RecordingNotifier(capabilities: ["actions", "persistence"]))
        _ = harness.addCoupon(expiresIn: 2 * 3600, leads: ["1h"])
        harness.advance(to: 3600)
        let popUp = try #require(harness.notifier.requests.first)
        #expect(popUp.timeoutMilliseconds == 0)
        #expect(popUp.resident)
    }

    @Test func atMostThreeButtonsDoneFirstThenTheShortestSnoozesAndNoShow() throws {
        let harness = try EngineHarness()
        _ = harness.addCoupon(expiresIn: 30 * 86_400, leads: ["10d"])
        harness.advance(to: 20 * 86_400)
        let popUp = try #require(harness.notifier.requests.first)
        #expect(popUp.actions.map(\.key) == ["done", "snooze-1h", "snooze-tomorrow"])
        #expect(popUp.actions.map(\.label) == ["Mark as used", "Snooze 1h", "Snooze until tomorrow"])
    }

    @Test func onlySnoozesEndingBeforeTheDueTimeAreOffered() throws {
        let harness = try EngineHarness()
        _ = harness.addCoupon(expiresIn: 5 * 3600, leads: ["3h"])  // shown 3 h before: 1h fits, 1d and 1w do not
        harness.advance(to: 2 * 3600)
        #expect(harness.notifier.requests.first?.actions.map(\.key) == ["done", "snooze-1h"])
    }

    @Test func whenNoSnoozeFitsOneRemindsAMinuteBeforeTheDueTime() throws {
        let harness = try EngineHarness()
        let item = harness.addCoupon(expiresIn: 2 * 3600, leads: ["1h"])  // 1 h left: even 1h ends at the due time
        harness.advance(to: 3600)
        let popUp = try #require(harness.notifier.requests.first)
        #expect(popUp.actions.map(\.key) == ["done", "snooze-last-minute"])
        #expect(popUp.actions.last?.label == "Remind 1 min before")
        harness.notifier.press("snooze-last-minute", on: try #require(harness.notifier.acceptedIds.first))
        harness.settle()
        #expect(harness.history(item).last == "snoozed")
        harness.advance(to: 2 * 3600 - 61)
        #expect(harness.notifier.requests.count == 1)
        harness.advance(to: 2 * 3600 - 60)
        #expect(harness.notifier.requests.count == 2)
    }

    @Test func aCommandLineSnoozePastTheDueTimeSaysItWasShortened() throws {
        let harness = try EngineHarness()
        let item = harness.addCoupon(expiresIn: 2 * 3600, leads: ["1h"])
        guard case .success(let reply) = harness.perform("Snooze", ["id": .string(item), "duration": .string("5h")])
        else {
            Issue.record("Snooze failed")
            return
        }
        #expect(reply["until"] == .string("2026-11-18T13:05:40+00:00"))  // a minute before the due time, 13:06:40
        guard case .string(let why)? = reply["shortened"] else {
            Issue.record("no shortened in \(reply)")
            return
        }
        #expect(why.contains("5h would end after the due time"))
        guard case .success(let fitting) = harness.perform("Snooze", ["id": .string(item), "duration": .string("30m")])
        else {
            Issue.record("Snooze failed")
            return
        }
        #expect(fitting["shortened"] == nil)
    }

    @Test func onGnomeEveryReminderAndTheUndoOfferStayAsCriticalBanners() throws {
        let harness = try EngineHarness(notifier: RecordingNotifier(name: "gnome-shell"))
        _ = harness.addCoupon(expiresIn: 30 * 86_400, leads: ["10d"])  // 10 days out: low elsewhere
        harness.advance(to: 20 * 86_400)
        let popUp = try #require(harness.notifier.requests.first)
        #expect(popUp.urgency == .critical)
        #expect(popUp.actions.count <= 3)
        harness.notifier.press("done", on: try #require(harness.notifier.acceptedIds.first))
        harness.settle()
        let confirmation = try #require(harness.notifier.requests.last)
        #expect(confirmation.actions.map(\.key) == ["undo"])
        #expect(confirmation.urgency == .critical)
    }

    @Test func elsewhereUrgencyFollowsTheDaysLeftAndTheUndoOfferIsNotLow() throws {
        let harness = try EngineHarness()
        _ = harness.addCoupon(expiresIn: 30 * 86_400, leads: ["10d"])
        harness.advance(to: 20 * 86_400)
        #expect(harness.notifier.requests.first?.urgency == .low)
        harness.notifier.press("done", on: try #require(harness.notifier.acceptedIds.first))
        harness.settle()
        #expect(harness.notifier.requests.last?.urgency == .normal)
    }

    /// A reminder done, snoozed or removed here leaves the grouped pop-up it is in, as one
    /// acknowledged on another device does: the group is shown again in place without it, and
    /// closed when none is left (it went on naming a reminder already done).
    @Test func aGroupedReminderDoneHereLeavesItsGroup() throws {
        let harness = try EngineHarness()
        let ids = ["Sushi", "Tacos", "Ramen"].map { harness.addCoupon(expiresIn: 2 * 3600, leads: ["1h"], title: $0) }
        harness.advance(to: 3600)
        let group = try #require(harness.notifier.acceptedIds.first)
        #expect(harness.notifier.requests.count == 1)
        _ = harness.perform("Done", ["id": .string(ids[0])])
        harness.settle()
        let again = try #require(harness.notifier.requests.last)
        #expect(harness.notifier.requests.count == 2 && again.replacesId == group)
        #expect(!again.body.contains("Sushi") && again.body.contains("Tacos") && again.body.contains("Ramen"))
        _ = harness.perform("Snooze", ["id": .string(ids[1]), "duration": .string("10m")])
        harness.settle()
        let last = try #require(harness.notifier.requests.last)
        #expect(harness.notifier.requests.count == 3 && !last.body.contains("Tacos") && last.body.contains("Ramen"))
        _ = harness.perform("Remove", ["id": .string(ids[2])])
        harness.settle()
        #expect(harness.notifier.requests.count == 3, "nothing left to show")
        #expect(harness.notifier.closed.contains(try #require(harness.notifier.acceptedIds.last)))
    }

    @Test func manyRemindersAtOneInstantShareOnePopUpListingTheCommandForEach() throws {
        let harness = try EngineHarness()
        let titles = ["Sushi", "Tacos", "Ramen", "Pho"]
        let ids = titles.map { harness.addCoupon(expiresIn: 2 * 3600, leads: ["1h"], title: $0) }
        harness.advance(to: 3600)
        #expect(harness.notifier.requests.count == 1)
        let group = try #require(harness.notifier.requests.first)
        // No Done that would mark all four done; due in an hour, no snooze fits them all.
        #expect(group.actions.map(\.key) == ["one-at-a-time"])
        #expect(group.timeoutMilliseconds == 0)
        #expect(group.summary == "4 reminders: \u{2068}Pho\u{2069}, \u{2068}Ramen\u{2069} and 2 more")
        for id in ids {
            #expect(group.body.contains("reminderctl done \(id)"))
            #expect(harness.history(id) == ["added", "fired"])
        }
        // Each was recorded fired, so a restart shows none of them again.
        try harness.restart()
        harness.advance(to: 3660)
        #expect(harness.notifier.requests.isEmpty)
    }

    @Test func aGroupNamesFiveAndCountsTheRest() throws {
        let harness = try EngineHarness()
        let ids = (1...7).map { harness.addCoupon(expiresIn: 2 * 3600, leads: ["1h"], title: "Deal \($0)") }
        harness.advance(to: 3600)
        let group = try #require(harness.notifier.requests.first)
        #expect(harness.notifier.requests.count == 1)
        #expect(group.body.split(separator: "\n").count == 6)
        #expect(group.body.hasSuffix("\nand 2 more: reminderctl list"))
        for id in ids { #expect(harness.history(id) == ["added", "fired"]) }
    }

    @Test func twoRemindersAtOneInstantKeepTheirOwnPopUps() throws {
        let harness = try EngineHarness()
        _ = harness.addCoupon(expiresIn: 2 * 3600, leads: ["1h"], title: "Sushi")
        _ = harness.addCoupon(expiresIn: 2 * 3600, leads: ["1h"], title: "Tacos")
        harness.advance(to: 3600)
        #expect(
            harness.notifier.requests.map(\.summary).sorted() == ["\u{2068}Sushi\u{2069}", "\u{2068}Tacos\u{2069}"])
    }

    @Test func aGroupedPopUpInFlightWhenTheDaemonDiedIsShownOnceAfterTheRestart() throws {
        let harness = try EngineHarness()
        let ids = ["A", "B", "C"].map { harness.addCoupon(expiresIn: 2 * 3600, leads: ["1h"], title: $0) }
        harness.notifier.answer = .stall
        harness.advance(to: 3600)
        #expect(harness.notifier.stalled == 1)
        try harness.restart()
        harness.advance(to: 3601)
        let shown = harness.notifier.requests.filter { $0.category == "x-reminderd.group" }
        #expect(shown.count == 1)
        for id in ids { #expect(shown.first?.body.contains("reminderctl done \(id)") == true) }
    }

    @Test func aGroupOpenWhenTheServerVanishedIsShownOnceAsAGroupOnTheNextOne() throws {
        let harness = try EngineHarness()
        let ids = ["A", "B", "C"].map { harness.addCoupon(expiresIn: 2 * 3600, leads: ["1h"], title: $0) }
        harness.advance(to: 3600)
        harness.notifier.vanish()
        harness.settle()
        harness.notifier.appear()
        harness.settle()
        #expect(harness.notifier.requests.count == 2)
        #expect(harness.notifier.requests.last?.category == "x-reminderd.group")
        for id in ids { #expect(harness.history(id) == ["added", "fired", "reshown"]) }
    }

    @Test func aPopUpShownAgainOnANewServerIsNotCalledLate() throws {
        let harness = try EngineHarness()
        let item = harness.addCoupon(expiresIn: 2 * 3600, leads: ["1h"])
        harness.advance(to: 3600)
        harness.notifier.vanish()
        harness.settle()
        harness.clock.set(EngineHarness.start + 3600 + 300)  // the server came back five minutes later
        harness.notifier.appear()
        harness.settle()
        #expect(harness.notifier.requests.count == 2)
        #expect(harness.notifier.requests.last?.body.contains("late") == false)
        #expect(harness.history(item).last == "reshown")
    }
}
