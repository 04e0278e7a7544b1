import CivilTime
import ReminderCore
import ReminderStore
import Testing

@testable import ReminderDaemon

/// The item index alone: order, sorted ids and records stay in step as items come and go.
@Suite struct ItemIndexTests {
    let now = Parts.now

    @Test func loadedFromTheStoreInItsOrderWithRecordsAndFires() {
        let b = Parts.coupon("bb", dueIn: 3600)
        let a = Parts.coupon("ab", dueIn: 7200)
        let index = ItemIndex(
            items: [b.item, a.item], quarantined: [],
            records: [OccurrenceRecord(itemId: "ab", due: a.occurrence.due, doneAt: now)],
            fires: [FireRecord(itemId: "bb", due: b.occurrence.due, fireAt: now, shownAt: now, notificationId: 1)])
        #expect(index.order == ["bb", "ab"])
        #expect(index.sortedIds.all == ["ab", "bb"])
        #expect(index.record(of: "ab", due: a.occurrence.due)?.doneAt == now)
        #expect(index.fired.contains(FireKey(itemId: "bb", due: b.occurrence.due, fireAt: now)))
        #expect(index.checkInvariant() == [])
    }

    /// Where a repeat until acknowledged starts from: the newest showing, and of the fires one
    /// late pop-up stood for, the latest, in whatever order the store lists them.
    @Test func theLastShownIsTheNewestShowingsLatestFire() {
        let b = Parts.coupon("bb", dueIn: 3600)
        let fires = [
            FireRecord(itemId: "bb", due: b.occurrence.due, fireAt: now - 900, shownAt: now - 600, notificationId: 1, lead: "2h"),
            FireRecord(itemId: "bb", due: b.occurrence.due, fireAt: now - 300, shownAt: now, notificationId: 2, lead: "repeat 1"),
            FireRecord(itemId: "bb", due: b.occurrence.due, fireAt: now - 400, shownAt: now, notificationId: 2, lead: "1h"),
        ]
        for order in [fires, fires.reversed()] {
            let index = ItemIndex(items: [b.item], quarantined: [], records: [], fires: order)
            #expect(index.lastShown["bb"] == LastShown(due: b.occurrence.due, fireAt: now - 300, lead: "repeat 1", at: now))
        }
    }

    @Test func addingAndRemovingKeepsOrderSortedIdsAndRecordsInStep() {
        var index = ItemIndex()
        index.add([Parts.coupon("zz", dueIn: 60).item])
        index.add([Parts.coupon("ab", dueIn: 60).item, Parts.coupon("mm", dueIn: 60).item])
        #expect(index.order == ["zz", "ab", "mm"])
        #expect(index.sortedIds.starting(with: "a") == ["ab"])
        let due = Parts.coupon("ab", dueIn: 60).occurrence.due
        index.record(OccurrenceRecord(itemId: "ab", due: due, snoozedUntil: now + 10))
        index.recordShown(
            ShownReminder(
                itemId: "ab", due: due, fires: [ReminderFire(at: now, lead: "1h")], title: "", event: .fired, reason: ""),
            at: now)
        #expect(index.checkInvariant() == [])
        index.remove("ab")
        #expect(index.order == ["zz", "mm"])
        #expect(index.sortedIds.all == ["mm", "zz"])
        #expect(index.occurrences["ab"] == nil)
        #expect(!index.fired.contains(FireKey(itemId: "ab", due: due, fireAt: now)))
        #expect(index.checkInvariant() == [])
    }

    @Test func anUpdateReplacesOnlyAnItemItHas() {
        var index = ItemIndex()
        var item = Parts.coupon("ab", title: "Old", dueIn: 60).item
        index.add([item])
        item.title = "New"
        index.update(item)
        index.update(Parts.coupon("zz", dueIn: 60).item)  // not there: not added behind the order's back
        #expect(index.items["ab"]?.title == "New")
        #expect(index.items["zz"] == nil)
        #expect(index.checkInvariant() == [])
    }

    @Test func theCurrentOccurrenceIsTheFirstNotDone() {
        var index = ItemIndex()
        let (item, occurrence) = Parts.coupon("ab", dueIn: 3600)
        index.add([item])
        #expect(index.currentOccurrence(of: item, rules: Parts.rules, now: now) == occurrence)
        index.record(OccurrenceRecord(itemId: "ab", due: occurrence.due, doneAt: now))
        #expect(index.currentOccurrence(of: item, rules: Parts.rules, now: now) == nil)  // a coupon has one
    }

    @Test func theCheckFindsRecordsOfAnItemNotThere() {
        var index = ItemIndex()
        index.record(OccurrenceRecord(itemId: "gone", due: now))
        #expect(index.checkInvariant() == ["records of gone, which is not there"])
    }
}

/// Items by name and never twice (issue 28): an id first, then a title or its start; what `Add`
/// refuses as tracked already or as a card typo.
@Suite struct ItemIndexNameTests {
    func index(_ items: [Item]) -> ItemIndex {
        var index = ItemIndex()
        index.add(items)
        return index
    }

    func benefit(_ id: String, _ title: String, card: String?) -> Item {
        Item(id: id, title: title, schedule: .benefit(Benefit(card: card, amount: nil, period: .monthly)))
    }

    @Test func anIdComesFirstThenATitleOrTheUniqueStartOfOne() throws {
        let index = index([
            Parts.coupon("ab12", title: "Crème brûlée", dueIn: 60).item,
            Parts.coupon("cd34", title: "Coffee", dueIn: 60).item,
            Parts.coupon("cf56", title: "Coffee filters", dueIn: 60).item,
        ])
        #expect(try index.resolve("ab12") == "ab12")
        #expect(try index.resolve("cd") == "cd34")
        #expect(try index.resolve("CREME BRULEE") == "ab12")
        #expect(try index.resolve("crè") == "ab12")
        #expect(try index.resolve("coffee") == "cd34")  // its whole title, though another starts so
        #expect(throws: EngineError.self) { try index.resolve("cof") }
        do {
            _ = try index.resolve("cof")
        } catch {
            guard case .ambiguousName(let name, let matches) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(name == "cof" && matches == ["cd34", "cf56"])
        }
        do {
            _ = try index.resolve("tea")
        } catch {
            guard case .noSuchItem("tea") = error else {
                Issue.record("\(error)")
                return
            }
        }
    }

    @Test func aDuplicateIsOneOfTheSameKindTitleAndCardOrACardsSecondFee() throws {
        var index = index([
            benefit("u1", "Uber Cash", card: "Amex Platinum"),
            benefit("r1", "Resy dining credit", card: "Amex Platinum"),
            Item(
                id: "f1", title: "Amex Platinum annual fee",
                schedule: .fee(
                    Fee(card: "Amex Platinum", amount: nil, due: LocalDate(uncheckedYear: 2027, month: 3, day: 15)))),
            Parts.coupon("c1", title: "BOGO", dueIn: 60).item,
        ])
        func refused(_ item: Item) -> [String]? {
            do { try index.refuseDuplicate(of: item) } catch {
                if case .duplicate(_, let matches) = error { return matches }
            }
            return nil
        }
        #expect(refused(benefit("x", "uber  cash", card: "AMEX PLATINUM")) == ["u1"])
        #expect(refused(benefit("x", "Resy", card: "Amex Platinum")) == ["r1"])
        #expect(refused(benefit("x", "Uber Cash", card: "Amex Gold")) == nil)
        #expect(refused(benefit("x", "Uber", card: nil)) == nil)
        let fee = Item(
            id: "x", title: "Platinum fee",
            schedule: .fee(
                Fee(card: "amex platinum", amount: nil, due: LocalDate(uncheckedYear: 2027, month: 3, day: 1))))
        #expect(refused(fee) == ["f1"])
        #expect(refused(Parts.coupon("x", title: "bogo", dueIn: 90).item) == ["c1"])
        #expect(refused(Parts.coupon("x", title: "BOGO 2", dueIn: 90).item) == nil)
        index.remove("c1")
        #expect(refused(Parts.coupon("x", title: "bogo", dueIn: 90).item) == nil)
        index.update(benefit("u1", "Uber One", card: "Amex Platinum"))
        #expect(refused(benefit("x", "Uber Cash", card: "Amex Platinum")) == nil)
        #expect(index.checkInvariant() == [])
    }

    @Test func aCardATypoAwayIsRefusedAndOneInAnotherCaseIsSpeltAsTracked() throws {
        let index = index([benefit("s1", "Travel credit", card: "Sapphire Reserve")])
        do {
            _ = try index.spellingCard(of: benefit("x", "DoorDash", card: "Sapphire Reserv"))
            Issue.record("a typo was taken as a new card")
        } catch {
            guard case .nearCard("Sapphire Reserv", let known) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(known == ["Sapphire Reserve"])
        }
        #expect(
            try index.spellingCard(of: benefit("x", "DoorDash", card: "sapphire  reserve")).cardName
                == "Sapphire Reserve")
        #expect(try index.spellingCard(of: benefit("x", "DoorDash", card: "Venture X")).cardName == "Venture X")
    }
}
