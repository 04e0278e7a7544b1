import CivilTime
import ReminderStore
import ReminderCore
import ReminderPlatform
import Testing

@testable import ReminderDaemon

/// The pop-up composer alone, from plain values: what each server capability allows, and only
/// the snoozes that end before the occurrence passes.
@Suite struct PopUpComposerTests {
    func composer(_ capabilities: [String], name: String = "test") -> PopUpComposer {
        PopUpComposer(
            server: ServerInfo(name: name, vendor: "", version: "", capabilities: capabilities),
            configuration: Parts.configuration, rules: Parts.rules, zone: .utc, now: Parts.now)
    }

    /// A reminder of a coupon titled `title`, due `dueIn` seconds from now, shown now.
    func reminder(_ composer: PopUpComposer, title: String = "Deal", dueIn: Int64 = 30 * 86_400) -> NotificationRequest
    {
        let (item, occurrence) = Parts.coupon("ab12", title: title, dueIn: dueIn)
        let event = ReminderEngine.ScheduledEvent.fire(
            itemId: "ab12", occurrence: occurrence, fires: [ReminderFire(at: Parts.now, lead: "1h")], lead: "1h", late: nil)
        let text = NotificationText(
            item: item, occurrence: occurrence, now: Parts.now, zone: .utc, defaultCurrency: "USD", moneyLocale: nil)
        return composer.reminder(event, text: text, shownAgain: false, replacesId: 7)
    }

    @Test func buttonsOnlyWithTheActionsCapability() {
        let with = reminder(composer(["actions"]))
        #expect(with.actions.map(\.key) == ["done", "snooze-1h", "snooze-tomorrow"])
        #expect(!with.body.contains("reminderctl"))
        let without = reminder(composer([]))
        #expect(without.actions.isEmpty)
        #expect(without.body.hasSuffix("\nreminderctl done ab12"))
        #expect(without.replacesId == 7)
    }

    @Test func markupIsEscapedOnlyWithBodyMarkup() {
        #expect(reminder(composer(["body-markup"]), title: "<b>A&B</b>").body.contains("&lt;b&gt;A&amp;B"))
        #expect(reminder(composer([]), title: "<b>A&B</b>").body.contains("<b>A&B</b>"))
    }

    @Test func onlySnoozesThatEndBeforeTheOccurrencePasses() {
        #expect(reminder(composer(["actions"]), dueIn: 5 * 3600).actions.map(\.key) == ["done", "snooze-1h"])
        #expect(reminder(composer(["actions"]), dueIn: 3600).actions.map(\.key) == ["done", "snooze-last-minute"])
        #expect(reminder(composer(["actions"]), dueIn: 90).actions.map(\.key) == ["done"])
    }

    /// Three buttons (GNOME's most): Done, the shortest snooze, then "Snooze until tomorrow" in
    /// the place of the next snooze, offered only where it ends tomorrow at the reminder time
    /// (09:00; now is Wednesday 11:06:40) before the due time, out of quiet hours, and not where
    /// it would end with the snooze beside it.
    @Test func snoozeUntilTomorrowOnlyWhereItDoesSomething() {
        let labels = reminder(composer(["actions"])).actions.map(\.label)
        #expect(labels == ["Mark as used", "Snooze 1h", "Snooze until tomorrow"])
        // Due Thursday 10:00: tomorrow 09:00 is before it, where a snooze of 1d is not.
        let thursday10 = Int64(22 * 3600 + 53 * 60 + 20)
        #expect(reminder(composer(["actions"]), dueIn: thursday10).actions.map(\.key)
            == ["done", "snooze-1h", "snooze-tomorrow"])
        // Due Thursday 09:00: tomorrow 09:00 is not before it, so it is not offered.
        #expect(reminder(composer(["actions"]), dueIn: thursday10 - 3600).actions.map(\.key) == ["done", "snooze-1h"])
        // Quiet hours until 10:00: it ends at 10:00, not in them, so not before a 10:00 due time.
        var quiet = Parts.configuration
        quiet.quietHours = QuietHours(start: LocalTime(hour: 22, minute: 0), end: LocalTime(hour: 10, minute: 0))
        let rules = FireTimeRules(zone: .utc, configuration: quiet)
        #expect(PopUpComposer.tomorrowSnoozeEnd(from: Parts.now, due: Parts.now + thursday10, configuration: quiet, rules: rules) == nil)
        #expect(PopUpComposer.tomorrowSnoozeEnd(from: Parts.now, due: Parts.now + 86_400 * 3, configuration: quiet, rules: rules)
            == Parts.now + thursday10)
        // At 09:00 with only a 1d snooze configured, both would end at tomorrow 09:00: one button.
        var daily = Parts.configuration
        daily.snoozeOptions = [CalendarDuration(1, .days)]
        let nine = Parts.now - (2 * 3600 + 6 * 60 + 40)
        let atNine = PopUpComposer(
            server: ServerInfo(name: "test", vendor: "", version: "", capabilities: ["actions"]),
            configuration: daily, rules: Parts.rules, zone: .utc, now: nine)
        #expect(atNine.snoozeOffers(due: nine + 30 * 86_400).map(\.action) == [.snooze(CalendarDuration(1, .days))])
        #expect(PopUpAction(key: PopUpAction.snoozeUntilTomorrow.key) == .snoozeUntilTomorrow)
    }

    @Test func residentOnlyWithPersistence() {
        #expect(reminder(composer(["persistence"])).resident)
        #expect(!reminder(composer(["actions"])).resident)
        #expect(reminder(composer([])).timeoutMilliseconds == 0)
    }

    @Test func gnomeGetsCriticalSoItsBannerStays() {
        #expect(reminder(composer(["actions"], name: "gnome-shell")).urgency == .critical)
        #expect(reminder(composer(["actions"])).urgency == .low)  // 30 days ahead
    }

    /// Only a reminder due today goes through the desktop's do-not-disturb; GNOME is sent every
    /// reminder critical (`gnomeGetsCriticalSoItsBannerStays`), yet one due later still waits.
    @Test func onlyAReminderDueTodayBypassesDoNotDisturb() {
        #expect(reminder(composer([]), dueIn: 3600).bypassDoNotDisturb)
        #expect(!reminder(composer([]), dueIn: 86_400).bypassDoNotDisturb)
        #expect(!reminder(composer([]), dueIn: 30 * 86_400).bypassDoNotDisturb)
        let gnome = reminder(composer(["actions"], name: "gnome-shell"), dueIn: 86_400)
        #expect(gnome.urgency == .critical)
        #expect(!gnome.bypassDoNotDisturb)
    }

    /// Two requests that differ only in going through do-not-disturb are two different pop-ups.
    @Test func bypassingDoNotDisturbIsPartOfARequestsEquality() {
        let request = reminder(composer([]), dueIn: 3600)
        var held = request
        held.bypassDoNotDisturb = false
        #expect(request == request)
        #expect(request != held)
    }

    @Test func aLateReminderSaysSoUnlessShownAgain() {
        let (item, occurrence) = Parts.coupon("ab12", dueIn: 86_400)
        let event = ReminderEngine.ScheduledEvent.fire(
            itemId: "ab12", occurrence: occurrence, fires: [ReminderFire(at: Parts.now - 600, lead: "1h")], lead: "1h", late: nil)
        let text = NotificationText(
            item: item, occurrence: occurrence, now: Parts.now, zone: .utc, defaultCurrency: "USD", moneyLocale: nil)
        let composer = composer([])
        #expect(
            composer.reminder(event, text: text, shownAgain: false, replacesId: 0).body.contains(
                "\nLate: the computer was asleep or its clock jumped at 10:56"))
        #expect(!composer.reminder(event, text: text, shownAgain: true, replacesId: 0).body.contains("Late"))
    }

    @Test func aGroupNamesItsRemindersInOrderWithOneAtATimeButNoDone() {
        let reminders = [("c", "Zeta", 7200), ("a", "Beta", 3600), ("b", "Alpha", 3600)].map { id, title, dueIn in
            let (item, occurrence) = Parts.coupon(id, title: title, dueIn: Int64(dueIn))
            let event = ReminderEngine.ScheduledEvent.fire(
                itemId: id, occurrence: occurrence, fires: [ReminderFire(at: Parts.now, lead: "1h")], lead: "1h", late: nil)
            let text = NotificationText(
                item: item, occurrence: occurrence, now: Parts.now, zone: .utc, defaultCurrency: "USD", moneyLocale: nil)
            return (event: event, item: item, text: text)
        }
        let (request, events) = composer(["actions", "persistence"]).group(reminders)
        #expect(events.map(\.itemId) == ["b", "a", "c"])
        #expect(request.bypassDoNotDisturb)  // "a" and "b" are due today
        // One at a time, and no Snooze all: "a" and "b" are due in an hour, where 1h does not fit.
        #expect(request.actions.map(\.key) == ["one-at-a-time"])
        #expect(composer([]).group(reminders).request.actions.isEmpty)
        #expect(!request.resident)
        #expect(request.summary.hasPrefix("3 reminders: "))
        #expect(request.summary.hasSuffix(" and 1 more"))
        let commands = request.body.components(separatedBy: "\n").filter { $0.contains("reminderctl done") }
        #expect(
            commands.map { String($0.suffix(18)) } == [
                "reminderctl done b", "reminderctl done a", "reminderctl done c",
            ])
    }

    @Test func theUndoOfferHasItsButtonOnlyWithActions() {
        let (item, _) = Parts.coupon("ab12", title: "Uber Cash", dueIn: 86_400)
        let with = composer(["actions"]).undoOffer(for: item, id: "ab12")
        #expect(with.actions.map(\.key) == ["undo"])
        #expect(with.body == "Marked Uber Cash as used")
        #expect(with.urgency == .normal)
        let without = composer([]).undoOffer(for: item, id: "ab12")
        #expect(without.actions.isEmpty)
        #expect(without.body == "Marked Uber Cash as used\nreminderctl undo ab12")
    }

    /// The offer repeats the words of the button pressed: a subscription or a fee was paid.
    @Test func theUndoOfferOfASubscriptionOrAFeeSaysPaid() {
        let day = LocalDate(uncheckedYear: 2026, month: 12, day: 5)
        let subscription = Item(
            id: "nf01", title: "Netflix", createdAt: Parts.now,
            schedule: .subscription(Subscription(every: CalendarDuration(1, .months), next: day)))
        let fee = Item(id: "fe01", title: "Gold fee", createdAt: Parts.now, schedule: .fee(Fee(due: day)))
        #expect(composer(["actions"]).undoOffer(for: subscription, id: "nf01").body == "Marked Netflix as paid")
        #expect(composer(["actions"]).undoOffer(for: fee, id: "fe01").body == "Marked Gold fee as paid")
    }

    /// Europe/Berlin with the default quiet hours, a coupon due tomorrow at 23:59: a snooze of two
    /// weeks is shortened to 23:58, which is quiet, so it ends at 21:59, before the window (issue 19,
    /// defect 6: it ended at 23:58 and fired in quiet hours).
    @Test func aShortenedSnoozeEndsBeforeQuietHoursNotInThem() throws {
        let berlin = try ZoneDatabase.shared.zone(named: "Europe/Berlin")
        let configuration = Configuration(timeZone: "Europe/Berlin")
        let rules = FireTimeRules(zone: berlin, configuration: configuration)
        let due = rules.occurrence(dueOn: LocalDate(uncheckedYear: 2026, month: 11, day: 19)).due
        let twoWeeks = CalendarDuration(2, .weeks)
        let snooze = try #require(
            PopUpComposer.snoozeEnd(twoWeeks, from: Parts.now, due: due, configuration: configuration, rules: rules))
        let expected = berlin.resolve(
            LocalDateTime(date: LocalDate(uncheckedYear: 2026, month: 11, day: 19), time: LocalTime(hour: 21, minute: 59)))
        #expect(snooze.end == expected.instant)
        #expect(snooze.shortened)
    }

    /// A late label's times: the hour today, the weekday within a week, else as tables write them.
    @Test func aLateLabelWritesItsTimesAsAPersonReadsThem() {
        let at = { PopUpComposer.timeWords($0, zone: .utc, now: Parts.now) }
        #expect(at(Parts.now - 600) == "10:56")
        #expect(at(Parts.now - 86_400) == "Tue 11:06")
        #expect(at(Parts.now - 8 * 86_400) == "Tue 2026-11-10 11:06")
        let away = Parts.fire("ab12", at: [Parts.now - 8 * 86_400], late: .notRunning)
        #expect(
            PopUpComposer.historyNote(of: away, zone: .utc, now: Parts.now)
                == "late: reminderd was not running at 2026-11-10T11:06:40+00:00")
        let held = Parts.fire("ab12", at: [Parts.now - 600], late: .doNotDisturb(since: Parts.now - 600))
        #expect(
            PopUpComposer.historyNote(of: held, zone: .utc, now: Parts.now)
                == "late: held by Do Not Disturb since 2026-11-18T10:56:40+00:00")
    }
}
