import CivilTime
import ReminderCore
import ReminderSyncModel
import ReminderTestSupport
import Testing

@Suite struct SyncMergeTests {
    let base = SyncRecord(item: Kit.uber)

    func merge(_ local: SyncRecord, _ remote: SyncRecord, base: SyncRecord? = nil) -> (SyncRecord, [SyncConflict]) {
        let result = SyncMerge.merge(base: base ?? self.base, local: local, remote: remote, zone: Kit.newYork)
        return (result.record, result.conflicts)
    }

    @Test func oneSideChangedTakesIt() {
        var local = base
        local.item.title = "Uber credit"
        var remote = base
        remote.item.notes = "in the app"
        let (merged, conflicts) = merge(local, remote)
        #expect(merged.item.title == "Uber credit" && merged.item.notes == "in the app")
        #expect(conflicts.isEmpty)
    }

    @Test func bothChangedRemoteWinsAndLocalIsAConflict() {
        var local = base
        local.item.title = "Uber credit"
        var remote = base
        remote.item.title = "Uber Cash (monthly)"
        let (merged, conflicts) = merge(local, remote)
        #expect(merged.item.title == "Uber Cash (monthly)")
        #expect(conflicts == [SyncConflict(field: "title", local: "Uber credit", remote: "Uber Cash (monthly)")])
    }

    @Test func inconsistentFieldsTakeTheRemoteItemWhole() {
        var local = base
        local.item.schedule = .benefit(
            Benefit(card: "Amex Gold", amount: Money(tenThousandths: 150_000), period: .monthly))
        var remote = base
        remote.item.schedule = .coupon(Coupon(expires: .date(Fixture.date("2026-12-24"))))
        let (merged, conflicts) = merge(local, remote)
        #expect(merged.item == remote.item)
        #expect(conflicts.contains { $0.field == "card" && $0.local == "Amex Gold" && $0.remote.isEmpty })
    }

    @Test func ledgerIsAThreeWaySetMerge() {
        let (oct, nov, dec) = (Fixture.local("2026-10-31T23:59"), Fixture.local("2026-11-30T23:59"), Fixture.local("2026-12-31T23:59"))
        var base = self.base
        base.ledger = DoneLedger([DoneEntry(occurrence: oct, doneAt: 1)])
        var local = base
        local.ledger.remove(oct)  // Undo here
        local.ledger.record(DoneEntry(occurrence: nov, doneAt: 5))
        var remote = base
        remote.ledger.record(DoneEntry(occurrence: nov, doneAt: 3))  // the same occurrence, offline: the later stands
        remote.ledger.record(DoneEntry(occurrence: dec, doneAt: 4))
        let (merged, _) = merge(local, remote, base: base)
        #expect(
            merged.ledger.entries == [DoneEntry(occurrence: nov, doneAt: 5), DoneEntry(occurrence: dec, doneAt: 4)])
    }

    @Test func doneAgainAfterAnUndoElsewhereIsKept() {
        let nov = Fixture.local("2026-11-30T23:59")
        var base = self.base
        base.ledger = DoneLedger([DoneEntry(occurrence: nov, doneAt: 1)])
        var local = base
        local.ledger.remove(nov)
        local.ledger.record(DoneEntry(occurrence: nov, doneAt: 9))
        var remote = base
        remote.ledger.remove(nov)
        #expect(merge(local, remote, base: base).0.ledger.entries == [DoneEntry(occurrence: nov, doneAt: 9)])
    }

    @Test func amountUsedIsTheMaximumWithinAPeriodAndTheLaterPeriodWins() {
        func used(_ amount: Int64, _ period: String) -> SyncRecord {
            var record = base
            record.item.schedule = .benefit(
                Benefit(
                    card: "Amex Platinum", amount: Money(tenThousandths: 150_000), period: .monthly,
                    amountUsed: Money(tenThousandths: Int128(amount))))
            record.amountUsedPeriod = Fixture.date(period)
            return record
        }
        #expect(
            merge(used(50_000, "2026-11-30"), used(70_000, "2026-11-30")).0.amountUsed == Money(tenThousandths: 70_000))
        #expect(
            merge(used(90_000, "2026-11-30"), used(70_000, "2026-11-30")).0.amountUsed == Money(tenThousandths: 90_000))
        let later = merge(used(90_000, "2026-11-30"), used(10_000, "2026-12-31")).0
        #expect(later.amountUsed == Money(tenThousandths: 10_000) && later.amountUsedPeriod == Fixture.date("2026-12-31"))
        #expect(merge(used(90_000, "2026-11-30"), base).0.amountUsed == Money(tenThousandths: 90_000))
    }

    /// A partial use of November on one device, November done on another: the Done took the
    /// rest, so the merge keeps no used amount for it (it kept 5 used beside the Done, which the
    /// server's readers dropped: devices that never agreed; EngineSyncModelTests seed 31).
    @Test func aPartialUseOfAPeriodDoneElsewhereIsTakenUpByTheDone() {
        let nov = Fixture.local("2026-11-30T23:59")
        var base = self.base
        base.item.schedule = .benefit(
            Benefit(card: "Amex Platinum", amount: Money(tenThousandths: 150_000), period: .monthly))
        var local = base
        local.ledger.record(DoneEntry(occurrence: nov, doneAt: 5))
        var remote = base
        remote.item.schedule = .benefit(
            Benefit(
                card: "Amex Platinum", amount: Money(tenThousandths: 150_000), period: .monthly,
                amountUsed: Money(tenThousandths: 50_000)))
        remote.amountUsedPeriod = Fixture.date("2026-11-30")
        for (one, other) in [(local, remote), (remote, local)] {
            let merged = merge(one, other, base: base).0
            #expect(merged.ledger.contains(nov))
            #expect(merged.amountUsed == nil && merged.amountUsedPeriod == nil)
        }
    }

    @Test func newestAcknowledgementWins() {
        var local = base
        local.alarms = AlarmState(lastAcknowledged: 200, snoozedUntil: 500)
        var remote = base
        remote.alarms = AlarmState(lastAcknowledged: 300)
        #expect(merge(local, remote).0.alarms == AlarmState(lastAcknowledged: 300))
        #expect(merge(remote, local).0.alarms == AlarmState(lastAcknowledged: 300))
        #expect(merge(local, base).0.alarms == local.alarms)
    }

    @Test func withoutABaseBothSidesCountAsChanged() {
        var local = base
        local.item.title = "Mine"
        local.ledger.record(DoneEntry(occurrence: Fixture.local("2026-11-30T23:59"), doneAt: 1))
        let result = SyncMerge.merge(base: nil, local: local, remote: base, zone: Kit.newYork)
        #expect(result.record.item.title == "Uber Cash" && result.conflicts.map(\.field) == ["title"])
        #expect(result.record.ledger == local.ledger)
    }
}

@Suite struct CatalogMatchTests {
    @Test func matchesOnKindCardCreditAndPeriod() {
        let gold = ["Uber Cash", "Dining credit"].map { title in
            Item(
                title: title,
                schedule: .benefit(Benefit(card: "Amex Gold", amount: Money(tenThousandths: 100_000), period: .monthly))
            )
        }
        var phone = gold.reversed().map { $0 }
        phone[0].title = "DINING CREDIT"
        phone.append(Item(title: "Uber Cash", schedule: .benefit(Benefit(card: "Amex Platinum", period: .monthly))))
        phone.append(Item(title: "Uber Cash", schedule: .benefit(Benefit(card: "Amex Gold", period: .annual))))
        phone.append(Kit.coupon)
        let pairs = CatalogMatch.pairs(local: gold, remote: phone)
        #expect(pairs.map { [$0.local, $0.remote] } == [[0, 1], [1, 0]])
        #expect(CatalogMatch.key(Kit.coupon) == nil && CatalogMatch.key(Kit.fee) != nil)
    }
}
