import CivilTime
import ReminderCore
import ReminderStore
import Testing

@testable import ReminderDaemon

/// The schedule alone: each item's wheel entries and events agree, a cancelled entry never fires
/// (not even when its slab slot is reused), and the earliest reminder stays true.
@Suite struct FireScheduleTests {
    let now = Parts.now

    @Test func installedEventsComeDueInOrderAndLeaveNothingBehind() {
        var schedule = FireSchedule(now: now)
        schedule.install([(Parts.fire("a", at: [now + 20]), now + 20), (Parts.pass("a"), now + 86_400)], for: "a")
        schedule.install([(Parts.fire("b", at: [now + 10]), now + 10)], for: "b")
        #expect(schedule.checkInvariant() == [])
        #expect(schedule.nextDeadline() == now + 10)
        #expect(schedule.fires(of: "a").map(\.at) == [now + 20])
        var came: [String] = []
        schedule.expire(to: now + 30) { came.append($0.itemId) }
        #expect(came == ["b", "a"])
        #expect(schedule.fires(of: "a").isEmpty)
        #expect(schedule.nextDeadline() == now + 86_400)
        #expect(schedule.checkInvariant() == [])
    }

    @Test func aCancelledEntryNeverFiresEvenWhenItsSlotIsReused() {
        var schedule = FireSchedule(now: now)
        schedule.install([(Parts.fire("a", at: [now + 10]), now + 10)], for: "a")
        schedule.cancel("a")
        #expect(schedule.checkInvariant() == [])
        // The freed slot takes the next event, with a new generation: the old token finds nothing.
        schedule.install([(Parts.fire("b", at: [now + 50]), now + 50)], for: "b")
        var came: [ReminderEngine.ScheduledEvent] = []
        schedule.expire(to: now + 20) { came.append($0) }
        #expect(came.isEmpty)
        schedule.expire(to: now + 60) { came.append($0) }
        #expect(came.map(\.itemId) == ["b"])
        #expect(schedule.checkInvariant() == [])
    }

    @Test func theEarliestReminderFollowsTheWheel() {
        var schedule = FireSchedule(now: now)
        schedule.install([(Parts.fire("a", at: [now + 100]), now + 100), (Parts.pass("a"), now + 50)], for: "a")
        schedule.install([(Parts.fire("b", at: [now + 200]), now + 200)], for: "b")
        #expect(schedule.nextFireTime() == now + 100)  // the pass at +50 is no reminder
        schedule.expire(to: now + 150) { _ in }
        #expect(schedule.nextFireTime() == now + 200)
        schedule.cancel("b")
        #expect(schedule.nextFireTime() == nil)
        #expect(schedule.checkInvariant() == [])
    }

    @Test func thePauseEndIsAWheelEntryWithoutAnEvent() {
        var schedule = FireSchedule(now: now)
        schedule.armPauseEnd(at: now + 30)
        schedule.armPauseEnd(at: now + 40)  // replaces the first
        #expect(schedule.nextDeadline() == now + 40)
        #expect(schedule.checkInvariant() == [])
        var came = 0
        schedule.expire(to: now + 50) { _ in came += 1 }
        #expect(came == 0)
        #expect(schedule.nextDeadline() == nil)
        #expect(schedule.checkInvariant() == [])
    }

    @Test func rescheduledItemsKeepOnlyTheirNewEntries() {
        var schedule = FireSchedule(now: now)
        for round in 0..<3 {
            schedule.cancel("a")
            let at = now + 100 + Int64(round)
            schedule.install([(Parts.fire("a", at: [at]), at), (Parts.pass("a"), now + 86_400)], for: "a")
            #expect(schedule.checkInvariant() == [])
        }
        #expect(schedule.fires(of: "a").map(\.at) == [now + 102])
        var fireTimes: [Int64] = []
        schedule.forEach(dueBy: .max - 1) { event, at in if event.reminderTime != nil { fireTimes.append(at) } }
        #expect(fireTimes == [now + 102])
    }

    /// The slab keeps events packed (one fire at the entry's own time, its lead kept once, on
    /// time), and whole when they do not fit — late for a reason, moved out of quiet hours, several
    /// fires, another lead; either way each comes back as it was installed.
    @Test func everyEventComesBackAsItWasInstalled() {
        var schedule = FireSchedule(now: now)
        let late: ReminderEngine.ScheduledEvent = .fire(
            itemId: "b", occurrence: Parts.coupon("b", dueIn: 86_400).occurrence,
            fires: [ReminderFire(at: now - 7_200, lead: "2h"), ReminderFire(at: now - 3_600, lead: "1h")], lead: "1h",
            late: .notRunning)
        let otherLead: ReminderEngine.ScheduledEvent = .fire(
            itemId: "c", occurrence: Parts.coupon("c", dueIn: 86_400 * 400).occurrence,
            fires: [ReminderFire(at: now + 60, lead: "snooze")], lead: "3d", late: nil)
        let installed: [(String, [(event: ReminderEngine.ScheduledEvent, at: Int64)])] = [
            (
                "a",
                [
                    (Parts.fire("a", at: [now + 20]), now + 20),
                    (Parts.fire("a", at: [now + 30], late: .doNotDisturb(since: now - 600)), now + 30),
                    (Parts.fire("a", at: [now + 40], late: .quietHours(QuietHours(start: LocalTime(hour: 22, minute: 0), end: LocalTime(hour: 8, minute: 0)))), now + 40),
                    (Parts.pass("a"), now + 86_400),
                ]
            ),
            ("b", [(late, now), (Parts.pass("b"), now + 86_400)]),
            ("c", [(otherLead, now + 60), (Parts.fire("c", at: [now + 90]), now + 90)]),
        ]
        for (id, planned) in installed { schedule.install(planned, for: id) }
        #expect(schedule.checkInvariant() == [])
        var stored: [String] = []
        schedule.forEach(dueBy: .max - 1) { event, at in stored.append("\(event) at \(at)") }
        #expect(stored == installed.flatMap { $0.1.map { "\($0.event) at \($0.at)" } })
        #expect(schedule.fires(of: "b").map(\.late) == [true])
        #expect(schedule.fires(of: "a").map(\.late) == [false, true, false])
        #expect(schedule.fires(of: "c").map(\.lead) == ["3d", "1h"])
        var came: [String] = []
        schedule.expire(to: now + 86_400) { came.append("\($0)") }
        let byTime = installed.flatMap(\.1).sorted { $0.at < $1.at }
        #expect(came.sorted() == byTime.map { "\($0.event)" }.sorted())
        #expect(schedule.checkInvariant() == [])
        #expect(schedule.nextDeadline() == nil)
    }

    /// Each item's events are a chain in the slab: one that comes due from the middle leaves the
    /// others in their order, and an item whose events all went is filed afresh when installed again.
    @Test func anItemsEventsStayInOrderAsSomeComeDue() {
        var schedule = FireSchedule(now: now)
        schedule.install(
            [
                (Parts.fire("a", at: [now + 30]), now + 30), (Parts.fire("a", at: [now + 10]), now + 10),
                (Parts.fire("a", at: [now + 50]), now + 50),
            ], for: "a")
        schedule.install([(Parts.fire("b", at: [now + 20]), now + 20)], for: "b")
        schedule.expire(to: now + 20) { _ in }
        #expect(schedule.fires(of: "a").map(\.at) == [now + 30, now + 50])
        #expect(schedule.fires(of: "b").isEmpty)
        #expect(schedule.checkInvariant() == [])
        schedule.install([(Parts.fire("b", at: [now + 40]), now + 40)], for: "b")
        schedule.install([(Parts.fire("c", at: [now + 60]), now + 60)], for: "c")
        #expect(schedule.fires(of: "b").map(\.at) == [now + 40])
        schedule.cancel("a")
        #expect(schedule.fires(of: "a").isEmpty)
        var came: [String] = []
        schedule.expire(to: now + 100) { came.append($0.itemId) }
        #expect(came == ["b", "c"])
        #expect(schedule.checkInvariant() == [])
    }
}
