import CivilTime
import ICalendar
import ReminderCore
import ReminderTestSupport
import Testing

@testable import ReminderSyncModel

@Suite struct VTodoWriterTests {
    @Test func repeatingItemIsARollingMasterWithZoneAndRule() throws {
        let text = Kit.written(SyncRecord(item: Kit.uber))
        let calendar = try Component.parse(text)
        let todo = try Kit.todo(text)
        #expect(calendar.property("PRODID")?.value == "-//reminderd//reminderd-sync//EN")
        #expect(todo.property("DUE")?.line == "DUE;TZID=America/New_York:20261130T235900")
        #expect(todo.property("DTSTART")?.line == "DTSTART;TZID=America/New_York:20261130T235900")
        #expect(todo.property("RRULE")?.value == "FREQ=MONTHLY;BYMONTHDAY=-1")
        #expect(todo.property("RRULE")?.value == CalendarRecurrence.rule(for: Kit.uber, first: Fixture.date("2026-11-30")))
        #expect(todo.property("SUMMARY")?.text == "Uber Cash $15 — Amex Platinum")
        #expect(todo.property("STATUS")?.value == "NEEDS-ACTION")
        #expect(todo.property("SEQUENCE")?.value == "0")
        #expect(todo.property("UID")?.value == Kit.uid)
        #expect(todo.property("X-REMINDERD-KIND")?.value == "benefit")
        #expect(todo.property("X-REMINDERD-CARD")?.text == "Amex Platinum")
        #expect(todo.property("X-REMINDERD-AMOUNT")?.value == "15")
        #expect(todo.property("X-REMINDERD-PERIOD")?.value == "monthly")
        #expect(todo.property("X-REMINDERD-LEAD")?.value == "7d,1d")
        #expect(todo.property("X-REMINDERD-ITEM-ID")?.value == "uber")
        #expect(todo.properties("ORGANIZER").isEmpty && todo.properties("ATTENDEE").isEmpty)
        let timezone = try #require(calendar.components("VTIMEZONE").first)
        #expect(timezone.property("TZID")?.value == "America/New_York")
        #expect(timezone.components.contains { $0.name == "STANDARD" && $0.property("TZOFFSETTO")?.value == "-0500" })
        #expect(timezone.components.contains { $0.name == "DAYLIGHT" && $0.property("TZOFFSETTO")?.value == "-0400" })
        #expect(
            calendar.components.firstIndex { $0.name == "VTIMEZONE" }! < calendar.components.firstIndex {
                $0.name == "VTODO"
            }!)
    }

    @Test func aZoneWithoutChangesHasOneObservance() throws {
        let utc = SyncContext(planner: Planner(configuration: .defaults, zone: .utc), now: Kit.now)
        let calendar = try Component.parse(Kit.written(SyncRecord(item: Kit.uber), context: utc))
        let timezone = try #require(calendar.components("VTIMEZONE").first)
        #expect(timezone.property("TZID")?.value == "UTC")
        #expect(
            timezone.components.map { $0.properties.map(\.line) } == [
                ["DTSTART:19700101T000000", "TZOFFSETFROM:+0000", "TZOFFSETTO:+0000"]
            ])
        #expect(calendar.components.last?.property("DUE")?.line == "DUE;TZID=UTC:20261130T235900")
    }

    @Test func oneRelativeAlarmPerLead() throws {
        let todo = try Kit.todo(Kit.written(SyncRecord(item: Kit.uber)))
        let alarms = todo.components("VALARM")
        // Reminder time 09:00: 7 days back, then 14h59m before 23:59.
        #expect(
            alarms.map { $0.property("TRIGGER")!.line } == [
                "TRIGGER;RELATED=END:-P7DT14H59M", "TRIGGER;RELATED=END:-P1DT14H59M",
            ])
        #expect(alarms.allSatisfy { $0.property("ACTION")?.value == "DISPLAY" })
        #expect(alarms.map { $0.property("X-REMINDERD-LEAD")!.value } == ["7d", "1d"])
    }

    @Test func rewritingBumpsSequenceAndKeepsForeignProperties() throws {
        var text = Kit.written(SyncRecord(item: Kit.uber))
        text = text.replacingFirst(
            "SEQUENCE:0\r\n", with: "SEQUENCE:0\r\nX-APPLE-SORT-ORDER:12\r\nX-TASKS-ORG-ID:77\r\n")
        text = text.replacingFirst(
            "X-REMINDERD-LEAD:7d\r\n", with: "X-REMINDERD-LEAD:7d\r\nUID:alarm-7\r\nX-EVOLUTION-ALARM-UID:e7\r\n")
        text = text.replacingFirst(
            "END:VTODO", with: "BEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\nEND:VTODO")
        // A server that rewrote the duration of the 1d lead's alarm.
        text = text.replacingFirst("TRIGGER;RELATED=END:-P1DT14H59M", with: "TRIGGER;RELATED=END:-PT38H59M")
        var record = try Kit.read(text).record
        record.item.title = "Uber Cash credit"
        let again = VTodoWriter.write(
            record, uid: Kit.uid, into: try Component.parse(text), context: Kit.at(Kit.now + 60))
        let todo = again.components.first { $0.name == "VTODO" }!
        #expect(todo.property("SEQUENCE")?.value == "1")
        #expect(todo.property("X-APPLE-SORT-ORDER")?.value == "12" && todo.property("X-TASKS-ORG-ID")?.value == "77")
        let order = todo.properties.map(\.name)
        #expect(order.firstIndex(of: "X-APPLE-SORT-ORDER")! < order.firstIndex(of: "X-TASKS-ORG-ID")!)
        #expect(todo.property("SUMMARY")?.text == "Uber Cash credit $15 — Amex Platinum")
        let alarms = todo.components("VALARM")
        #expect(alarms.count == 3)
        #expect(
            alarms.contains { $0.property("ACTION")?.value == "AUDIO" && $0.property("TRIGGER")?.value == "-PT15M" })
        #expect(
            alarms.contains { $0.property("UID")?.value == "alarm-7" && $0.property("X-EVOLUTION-ALARM-UID") != nil })
        #expect(alarms.contains { $0.property("TRIGGER")?.value == "-PT38H59M" })
        #expect(try VTodoReader.read(again, name: "x", context: Kit.context).record.item == record.item)
    }

    @Test func aThirtySixHourLeadRewrittenByTheServerIsStillItsAlarm() throws {
        var item = Kit.uber
        item.lead = [CalendarDuration(36, .hours)]
        let text = Kit.written(SyncRecord(item: item))
        #expect(
            try Kit.todo(text).components("VALARM").map { $0.property("TRIGGER")!.line } == [
                "TRIGGER;RELATED=END:-PT36H"
            ])
        let served = text.replacingFirst("-PT36H", with: "-P1DT12H")
        let again = VTodoWriter.write(
            try Kit.read(served).record, uid: Kit.uid, into: try Component.parse(served), context: Kit.context)
        #expect(again.components.last!.components("VALARM").map { $0.property("TRIGGER")!.value } == ["-P1DT12H"])
    }

    @Test func removedLeadRemovesOnlyItsAlarm() throws {
        var record = SyncRecord(item: Kit.uber)
        let first = VTodoWriter.write(record, uid: Kit.uid, into: nil, context: Kit.context)
        record.item.lead = [CalendarDuration(1, .days)]
        let todo = VTodoWriter.write(record, uid: Kit.uid, into: first, context: Kit.context).components.last!
        #expect(todo.components("VALARM").map { $0.property("TRIGGER")!.value } == ["-P1DT14H59M"])
    }

    @Test func doneRollsTheMasterAndLedgerIsIdempotent() throws {
        var record = SyncRecord(item: Kit.uber)
        let november = try #require(record.currentOccurrence(in: Kit.context))
        record.markDone(november, at: Kit.now, amount: Money(tenThousandths: 150_000), in: Kit.context)
        record.markDone(november, at: Kit.now + 99, in: Kit.context)
        let todo = try Kit.todo(Kit.written(record))
        #expect(todo.property("DUE")?.value == "20261231T235900")
        #expect(todo.property("DTSTART")?.value == "20261231T235900")
        #expect(todo.property("STATUS")?.value == "NEEDS-ACTION" && todo.property("PERCENT-COMPLETE")?.value == "0")
        #expect(todo.properties("X-REMINDERD-DONE").map(\.value) == ["20261130T235900/20261118T110640Z/15"])
        record.undoDone(Fixture.local("2026-11-30T23:59"))
        let undone = try Kit.todo(Kit.written(record))
        #expect(undone.property("DUE")?.value == "20261130T235900" && undone.properties("X-REMINDERD-DONE").isEmpty)
    }

    @Test func ledgerKeepsTheNewest24() {
        var ledger = DoneLedger()
        for month in 0..<30 {
            let date = Fixture.date("2024-01-28").adding(months: month)
            ledger.record(
                DoneEntry(occurrence: LocalDateTime(date: date, time: FireTimeRules.endOfDay), doneAt: Int64(month)))
        }
        #expect(ledger.entries.count == DoneLedger.kept)
        #expect(ledger.entries.first?.doneAt == 6 && ledger.entries.last?.doneAt == 29)
    }

    @Test func couponDoneIsCompleted() throws {
        var record = SyncRecord(item: Kit.coupon)
        let todo = try Kit.todo(Kit.written(record))
        #expect(todo.property("DUE")?.line == "DUE;TZID=America/New_York:20261224T235900")
        #expect(todo.property("RRULE") == nil && todo.property("DTSTART") == nil)
        #expect(todo.property("SUMMARY")?.text == "Target 20% off $20")
        record.markDone(
            try #require(record.currentOccurrence(in: Kit.context)), at: Kit.utc("20261120T150000Z"), in: Kit.context)
        let done = try Kit.todo(Kit.written(record))
        #expect(done.property("STATUS")?.value == "COMPLETED")
        #expect(done.property("COMPLETED")?.value == "20261120T150000Z")
        #expect(done.property("PERCENT-COMPLETE")?.value == "100")
    }

    @Test func rebuyIsReDatedFromTheDayItWasBought() throws {
        var record = SyncRecord(item: Kit.rebuy)
        #expect(try Kit.todo(Kit.written(record)).property("DUE")?.value == "20261210T235900")
        record.markDone(try #require(record.currentOccurrence(in: Kit.context)), at: Kit.now, in: Kit.context)
        let todo = try Kit.todo(Kit.written(record))
        #expect(todo.property("DUE")?.value == "20261218T235900")
        #expect(todo.property("X-REMINDERD-LAST-PURCHASED")?.value == "2026-11-18")
        #expect(todo.property("STATUS")?.value == "NEEDS-ACTION" && todo.property("RRULE") == nil)
    }

    @Test func rebuyBoughtAgainAfterItWasCreatedReadsBack() throws {
        var rebuy = Kit.rebuy
        rebuy.createdAt = Kit.utc("20261110T120000Z")
        var record = SyncRecord(item: rebuy)
        record.markDone(try #require(record.currentOccurrence(in: Kit.context)), at: Kit.now, in: Kit.context)
        #expect(try Kit.read(Kit.written(record)).record == record)
    }

    @Test func amountUsedCountsTowardThePeriodItWasUsedIn() throws {
        var uber = Kit.uber
        uber.schedule = .benefit(
            Benefit(
                card: "Amex Platinum", amount: Money(tenThousandths: 150_000), period: .monthly,
                amountUsed: Money(tenThousandths: 50_000)))
        let text = Kit.written(SyncRecord(item: uber))
        let used = try #require(try Kit.todo(text).property("X-REMINDERD-AMOUNT-USED"))
        #expect(used.line == "X-REMINDERD-AMOUNT-USED;X-REMINDERD-PERIOD-END=20261130:5")
        let november = try Kit.read(text).record
        #expect(
            november.amountUsed == Money(tenThousandths: 50_000) && november.amountUsedPeriod == Fixture.date("2026-11-30"))
        // Read in December, November's partial use is over.
        let december = try Kit.read(text, context: Kit.at(Kit.utc("20261202T120000Z"))).record
        #expect(december.amountUsed == nil && december.amountUsedPeriod == nil)
    }

    @Test func acknowledgementsGoWhereEveryClientLooks() throws {
        var record = SyncRecord(item: Kit.uber)
        record.alarms = AlarmState(
            lastAcknowledged: Kit.utc("20261123T140000Z"), snoozedUntil: Kit.utc("20261123T150000Z"))
        let text = Kit.written(record)
        let todo = try Kit.todo(text)
        #expect(todo.property("X-MOZ-LASTACK")?.value == "20261123T140000Z")
        #expect(todo.property("X-MOZ-SNOOZE-TIME")?.value == "20261123T150000Z")
        #expect(todo.components("VALARM").allSatisfy { $0.property("ACKNOWLEDGED")?.value == "20261123T140000Z" })
        #expect(try Kit.read(text).record.alarms == record.alarms)
    }

    @Test func summaryLeavesOutACardTheTitleNames() throws {
        #expect(
            try Kit.todo(Kit.written(SyncRecord(item: Kit.fee))).property("SUMMARY")?.text
                == "Amex Gold annual fee $325")
    }

    @Test func everyKindReadsBackAsWritten() throws {
        var uber = Kit.uber
        uber.notes = "Monthly, in the Uber app; not, for; Eats\\"
        for item in [uber, Kit.coupon, Kit.rebuy, Kit.fee] {
            let record = try Kit.read(Kit.written(SyncRecord(item: item))).record
            #expect(record.item == item)
        }
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { fatalError("no \(target) in the text") }
        var copy = self
        copy.replaceSubrange(range, with: replacement)
        return copy
    }
}

/// A credit whose periods count from the card's anniversary (`periodStart`): due the day before
/// the anniversary on the phone too, and its field survives a peer that does not know it.
@Suite struct AnniversaryCreditSyncTests {
    static let travel = Item(
        id: "trvl", title: "Annual travel credit", createdAt: 1_790_000_000, currency: "USD",
        schedule: .benefit(
            Benefit(
                card: "Sapphire Reserve", amount: Money(tenThousandths: 3_000_000), period: .annual,
                periodStart: Fixture.date("2025-03-15"))))

    @Test func anAnniversaryCreditIsDueTheDayBeforeTheAnniversaryAndReadsBack() throws {
        let text = Kit.written(SyncRecord(item: Self.travel))
        let todo = try Kit.todo(text)
        // Now is 2026-11-18: the card year running began 2026-03-15, and ends 2027-03-14.
        #expect(todo.property("DUE")?.line == "DUE;TZID=America/New_York:20270314T235900")
        #expect(todo.property("RRULE")?.value == "FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=14")
        #expect(todo.property("X-REMINDERD-PERIOD-START")?.value == "2025-03-15")
        var record = try Kit.read(text).record
        #expect(record.item == Self.travel)
        // Done on the phone's copy rolls it to the next card year's end.
        record.markDone(try #require(record.currentOccurrence(in: Kit.context)), at: Kit.now, in: Kit.context)
        let rolled = try Kit.todo(Kit.written(record))
        #expect(rolled.property("DUE")?.line == "DUE;TZID=America/New_York:20280314T235900")
    }

    @Test func aPeerThatDoesNotKnowTheFieldKeepsIt() throws {
        let text = Kit.written(SyncRecord(item: Self.travel))
        var todo = try Kit.todo(text)
        // What such a peer reads and writes back: the item without the field, under its own keys.
        var older = SyncRecord(item: Self.travel)
        guard case .benefit(var credit) = older.item.schedule else { return }
        credit.periodStart = nil
        older.item.schedule = .benefit(credit)
        older.item.title = "Travel credit"
        ItemProperties.write(
            older, currentPeriod: nil, into: &todo, keys: ItemProperties.keys.filter { $0 != "periodStart" })
        #expect(todo.property("X-REMINDERD-PERIOD-START")?.value == "2025-03-15")
        #expect(todo.property("SUMMARY")?.text == "Travel credit $300 — Sapphire Reserve")
        // And the same write by this version, which knows the field, removes it with the value.
        ItemProperties.write(older, currentPeriod: nil, into: &todo)
        #expect(todo.property("X-REMINDERD-PERIOD-START") == nil)
    }
}

/// A credit whose amount varies by month (`amountIn`) on the phone: carried as
/// `X-REMINDERD-AMOUNT-IN:12=35`, read back whole, and a used amount above the base amount (in
/// the month that has more) kept through a merge.
@Suite struct AmountsByMonthSyncTests {
    static let uber: Item = {
        var item = Kit.uber
        guard case .benefit(var benefit) = item.schedule else { return item }
        benefit.amountIn = [12: Money(tenThousandths: 350_000), 6: Money(tenThousandths: 200_000)]
        item.schedule = .benefit(benefit)
        return item
    }()

    @Test func amountsByMonthGoAsOnePropertyAndReadBack() throws {
        let text = Kit.written(SyncRecord(item: Self.uber))
        #expect(try Kit.todo(text).property("X-REMINDERD-AMOUNT-IN")?.value == "6=20,12=35")
        #expect(try Kit.read(text).record.item == Self.uber)
        let bad = text.replacingFirst("X-REMINDERD-AMOUNT-IN:6=20,12=35", with: "X-REMINDERD-AMOUNT-IN:13=20")
        #expect(throws: SyncFormatError.self) { try Kit.read(bad) }
    }

    @Test func aMergeKeepsAUsedAmountUpToTheLargestMonth() {
        let base = SyncRecord(item: Self.uber)
        var local = base
        guard case .benefit(var benefit) = local.item.schedule else { return }
        benefit.amountUsed = Money(tenThousandths: 300_000)
        local.item.schedule = .benefit(benefit)
        local.amountUsedPeriod = Fixture.date("2026-12-31")
        var remote = base
        remote.item.notes = "in the app"
        let merged = SyncMerge.merge(base: base, local: local, remote: remote, zone: Kit.newYork).record
        guard case .benefit(let result) = merged.item.schedule else {
            Issue.record("not a benefit")
            return
        }
        #expect(result.amountUsed == Money(tenThousandths: 300_000))
    }
}
