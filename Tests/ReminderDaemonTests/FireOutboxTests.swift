import ReminderCore
import Testing

@testable import ReminderDaemon

/// The outbox alone: a fire moves between in flight, on screen, waiting, held and to be shown
/// again, and is always in exactly one of them.
@Suite struct FireOutboxTests {
    let now = Parts.now

    @Test func aFireGoesFromInFlightToTheScreenAndOnToTheNextServer() {
        var outbox = FireOutbox()
        let fire = Parts.fire("a", at: [now])
        let ticket = outbox.send([fire])
        var places: [String] = []
        outbox.forEachFire { _, place in places.append(place) }
        #expect(places == ["in flight"])
        let answered = outbox.answered(ticket)
        #expect(answered.map(\.itemId) == ["a"])
        outbox.onScreen(answered[0], as: 7)
        #expect(outbox.popUps(of: "a") == [7])
        #expect(outbox.popUps(of: "a", due: answered[0].dueInstant + 1) == [])
        #expect(outbox.checkInvariant() == [])
        outbox.offerUndo(8, for: "b")
        outbox.serverVanished()
        #expect(outbox.onScreen.isEmpty && outbox.undoOffers.isEmpty)
        #expect(outbox.repost.map(\.itemId) == ["a"])
        #expect(outbox.take(.repost).map(\.itemId) == ["a"])
        #expect(outbox.repost.isEmpty)
        #expect(outbox.checkInvariant() == [])
    }

    @Test func aGroupOnScreenIsGoneWhenClosed() {
        var outbox = FireOutbox()
        outbox.onScreen(group: [Parts.fire("a", at: [now]), Parts.fire("b", at: [now])], as: 3)
        outbox.offerUndo(3, for: "a")
        #expect(outbox.closed(3) == nil)  // a group, not a single reminder's pop-up
        #expect(outbox.groupsOnScreen.isEmpty && outbox.undoOffers.isEmpty)
        outbox.onScreen(Parts.fire("c", at: [now]), as: 4)
        #expect(outbox.closed(4)?.itemId == "c")
        #expect(outbox.checkInvariant() == [])
    }

    @Test func droppingAnItemTakesOnlyItsWaitingAndHeldReminders() {
        var outbox = FireOutbox()
        outbox.keep([Parts.fire("a", at: [now]), Parts.fire("b", at: [now])], in: .waiting)
        outbox.keep(Parts.fire("a", at: [now + 1]), in: .held)
        outbox.drop("a")
        #expect(outbox.waiting.map(\.itemId) == ["b"])
        #expect(outbox.held.isEmpty)
        #expect(outbox.checkInvariant() == [])
    }

    @Test func anAcknowledgementCoversOnlyTheItemsRemindersFiredByThen() {
        var outbox = FireOutbox()
        outbox.keep([Parts.fire("a", at: [now - 60, now]), Parts.fire("b", at: [now])], in: .waiting)
        outbox.keep(Parts.fire("a", at: [now + 60]), in: .held)
        outbox.onScreen(Parts.fire("a", at: [now - 120]), as: 5)
        outbox.onScreen(group: [Parts.fire("a", at: [now - 180])], as: 6)
        #expect(outbox.holds("a", firedBy: now - 150), "a grouped pop-up, shown again without it")
        #expect(!outbox.holds("a", firedBy: now - 200), "nothing fired by then")
        #expect(outbox.holds("a", firedBy: now - 120), "the pop-up on screen")
        #expect(outbox.popUps(of: "a", firedBy: now - 60) == [5])
        outbox.drop("a", firedBy: now - 60)
        #expect(outbox.waiting.count == 2, "a pop-up standing for a later time too is not covered")
        outbox.drop("a", firedBy: now)
        #expect(outbox.waiting.map(\.itemId) == ["b"])
        #expect(outbox.held.count == 1 && outbox.onScreen.count == 1 && outbox.groupsOnScreen.count == 1)
        #expect(outbox.checkInvariant() == [])
    }

    @Test func theCheckFindsAFireKeptInTwoPlaces() {
        var outbox = FireOutbox()
        let fire = Parts.fire("a", at: [now - 60, now])
        outbox.keep(fire, in: .waiting)
        outbox.keep(Parts.fire("a", at: [now]), in: .held)
        #expect(outbox.checkInvariant().count == 1)
        _ = outbox.take(.held)
        #expect(outbox.checkInvariant() == [])
        _ = outbox.send([fire])
        #expect(outbox.checkInvariant().first?.contains("waiting and in flight") == true)
    }
}
