import CivilTime
import Foundation
import ReminderCore
import ReminderJSON
import ReminderProtocol
@_spi(Testing) import ReminderStore
import Testing

@testable import ReminderDaemon

/// reminderd's side of pulling, with two engines as two devices syncing through one task list
/// (`FakeTaskList` plays the server and reminderd-sync): what another device's add, Done, Undo,
/// snooze, edit and removal do here, conflicts, the removal rules, the first join's catalog
/// match, an Apple completed copy, resources that are not items, and a batch the store refuses.
@Suite struct EngineSyncPullTests: TwoDeviceSuite {
    let devices: TwoDevices

    init() throws { devices = try TwoDevices() }

    func uid(_ harness: EngineHarness, _ id: String) -> String? {
        harness.engine.queue.sync { harness.engine.sync.uids(of: [id]) }.first
    }

    func edit(_ harness: EngineHarness, _ id: String, title: String) {
        _ = harness.perform("Edit", ["id": .string(id), "changes": .object(["title": .string(title)])])
    }

    @Test func anItemAddedOnOneDeviceAppearsOnTheOtherUnderItsUID() throws {
        let id = shared { $0.addUber() }
        #expect(b.ids == [id], "the other device's id is free here, so it is kept")
        #expect(b.history(id) == ["added elsewhere"])
        #expect(uid(b, id) == uid(a, id) && uid(a, id) != nil)
        #expect(b.field(id, "card") == "Amex Platinum")
        #expect(b.pending.isEmpty, "the server holds what B has: nothing to push")
        #expect(server.resources.count == 1)
    }

    @Test func doneUndoSnoozeAndEditElsewhereAreAppliedWithTheirHistory() throws {
        let id = shared { $0.addCoupon(expiresIn: 7200, leads: ["1h"]) }
        b.advance(to: 3600)
        let popUp = try #require(b.notifier.acceptedIds.first)
        a.clock.set(EngineHarness.start + 3600)
        _ = a.perform("Done", ["id": .string(id)])
        server.sync(a.engine)
        server.sync(b.engine)
        #expect(b.doneDues(id) == a.doneDues(id) && b.doneDues(id).count == 1)
        #expect(b.history(id).suffix(1) == ["done elsewhere"])
        #expect(b.notifier.closed == [popUp], "the pop-up of an occurrence done elsewhere closes")
        _ = a.perform("Undo", ["id": .string(id)])
        server.sync(a.engine)
        server.sync(b.engine)
        #expect(b.doneDues(id).isEmpty)
        #expect(b.history(id).suffix(1) == ["undone elsewhere"])
        _ = a.perform("Snooze", ["id": .string(id), "duration": .string("30m")])
        server.sync(a.engine)
        server.sync(b.engine)
        #expect(
            b.reasons(id, "snoozed elsewhere") == ["until " + Timestamp.format(EngineHarness.start + 5400, in: .utc)])
        edit(a, id, title: "Bigger deal")
        server.sync(a.engine)
        let pulled = server.pull(b.engine, Array(server.resources.keys))
        #expect(pulled?.applied == 1 && pulled?.conflicts == 0)
        #expect(b.field(id, "title") == "Bigger deal")
        #expect(b.reasons(id, "edited elsewhere") == ["title"])
        #expect(b.pending.isEmpty)
    }

    @Test func aRebuysDoneOnEitherDeviceIsADoneElsewhereOnTheOther() throws {
        // Ran out on 2026-10-31: overdue, so both devices remind at once.
        let id = shared {
            let item: JSONValue = .object([
                "kind": .string("rebuy"), "title": .string("Coffee"), "everyDays": .integer(30),
                "lastPurchased": .string("2026-10-01"),
            ])
            return ok($0.engine, "Add", ["item": item])["id"].flatMap { if case .string(let id) = $0 { id } else { nil } }
                ?? ""
        }
        a.advance(to: 0)
        b.advance(to: 0)
        let onB = try #require(b.notifier.acceptedIds.first)
        _ = a.perform("Done", ["id": .string(id)])
        server.sync(a.engine)
        server.sync(b.engine)
        #expect(b.field(id, "lastPurchased") == "2026-11-18")
        #expect(b.history(id).suffix(1) == ["done elsewhere"], "not an edit of its purchase date")
        #expect(b.reasons(id, "done elsewhere") == ["for the occurrence due 2026-10-31T23:59:00+00:00"])
        #expect(b.notifier.closed == [onB])
        #expect(b.pending.isEmpty && a.pending.isEmpty)
        // The other way round, bought again a week later.
        b.clock.set(EngineHarness.start + 7 * 86_400)
        _ = b.perform("Done", ["id": .string(id)])
        server.sync(b.engine)
        server.sync(a.engine)
        #expect(a.field(id, "lastPurchased") == "2026-11-25")
        #expect(a.history(id).suffix(2) == ["done", "done elsewhere"])
        #expect(a.doneDues(id) == b.doneDues(id) && a.doneDues(id).count == 2)
    }

    @Test func aNewItemWhoseIdIsTakenHereGetsANewOne() throws {
        func importItem(_ harness: EngineHarness, _ title: String) {
            let item: JSONValue = .object([
                "id": .string("abcd"), "kind": .string("rebuy"), "title": .string(title),
                "everyDays": .integer(30), "lastPurchased": .string("2026-11-10"),
            ])
            _ = ok(harness.engine, "Import", ["items": .array([item])])
        }
        importItem(a, "Lenses")
        importItem(b, "Filters")
        server.sync(a.engine)
        server.sync(b.engine)
        #expect(b.ids.count == 2 && b.ids[0] == "abcd" && b.ids[1] != "abcd")
        #expect(b.field("abcd", "title") == "Filters" && b.field(b.ids[1], "title") == "Lenses")
        #expect(b.history(b.ids[1]) == ["added elsewhere"])
        server.sync(a.engine)
        #expect(a.ids.count == 2 && a.field("abcd", "title") == "Lenses")
        #expect(server.resources.count == 2)
    }

    @Test func anItemRemovedElsewhereIsRemovedHere() throws {
        let id = shared { $0.addUber() }
        _ = a.perform("Remove", ["id": .string(id)])
        server.sync(a.engine)
        #expect(server.resources.isEmpty)
        server.sync(b.engine)
        #expect(b.ids.isEmpty)
        #expect(b.history(id).suffix(1) == ["removed elsewhere"])
        #expect(b.pending.isEmpty)
    }

    @Test func anItemRemovedElsewhereButChangedHereIsKeptAndPushedBack() throws {
        let id = shared { $0.addUber() }
        _ = a.perform("Remove", ["id": .string(id)])
        server.sync(a.engine)
        edit(b, id, title: "Lyft Cash")
        server.sync(b.engine)
        #expect(b.ids == [id])
        #expect(b.reasons(id, "kept") == ["removed on another device; kept because it was changed here"])
        #expect(server.resources.count == 1, "created again on the server")
        server.sync(a.engine)
        #expect(a.ids.count == 1)
        #expect(a.field(a.ids[0], "title") == "Lyft Cash")
    }

    @Test func anItemRemovedHereButChangedElsewhereComesBack() throws {
        let id = shared { $0.addUber() }
        _ = a.perform("Remove", ["id": .string(id)])
        edit(b, id, title: "Lyft Cash")
        server.sync(b.engine)
        server.sync(a.engine)
        #expect(a.ids == [id])
        #expect(a.field(id, "title") == "Lyft Cash")
        #expect(a.reasons(id, "kept") == ["removed here; brought back because it was changed on another device"])
        #expect(a.pending.isEmpty, "its DELETE is no longer waiting")
        #expect(server.resources.count == 1)
    }

    @Test func aRemovalOfAnItemUnchangedElsewhereStillGoesOut() throws {
        let id = shared { $0.addUber() }
        let href = try #require(server.resources.keys.first)
        // The server re-serialised the body (a new etag, the same content).
        server.put(href, try #require(server.resources[href]?.body))
        _ = a.perform("Remove", ["id": .string(id)])
        server.sync(a.engine)
        #expect(a.ids.isEmpty)
        #expect(server.resources.isEmpty, "deleted against the server's current etag")
    }

    @Test func bothDevicesEditTheTitleTheOtherDevicesValueIsKeptAndSaid() throws {
        let id = shared { $0.addUber() }
        edit(a, id, title: "Uber Eats")
        edit(b, id, title: "Uber Rides")
        server.sync(a.engine)
        server.sync(b.engine)
        #expect(b.field(id, "title") == "Uber Eats")
        #expect(
            b.reasons(id, "conflict") == [
                "title changed here and on another device: kept \"Uber Eats\", this device had \"Uber Rides\""
            ])
        let notice = try #require(b.notifier.requests.last)
        #expect(notice.summary == "Uber Eats: changed on two devices")
        #expect(notice.body == "title: kept \"Uber Eats\" from the other device; this device had \"Uber Rides\"")
        #expect(reply(b.engine, "SyncStatus", SyncStatusReply.self)?.conflicts == 1)
        #expect(b.pending.isEmpty)
        server.sync(a.engine)
        #expect(a.field(id, "title") == "Uber Eats" && a.reasons(id, "conflict").isEmpty)
    }

    @Test func bothDevicesDoneTheSameOccurrenceOfflineIsOneDone() throws {
        let id = shared { $0.addUber() }
        _ = a.perform("Done", ["id": .string(id)])
        b.clock.set(EngineHarness.start + 100)
        _ = b.perform("Done", ["id": .string(id)])
        server.sync(a.engine)
        server.sync(b.engine)
        server.sync(a.engine)
        #expect(a.doneDues(id) == b.doneDues(id) && a.doneDues(id).count == 1)
        let body = try #require(server.resources.values.first?.body)
        #expect(body.components(separatedBy: "X-REMINDERD-DONE:").count == 2, "one ledger entry")
        #expect(a.pending.isEmpty && b.pending.isEmpty)
        #expect(a.reasons(id, "conflict").isEmpty && b.reasons(id, "conflict").isEmpty)
    }

    @Test func theSameCatalogCreditOnBothDevicesIsMergedOnFirstJoin() throws {
        let onA = a.addUber()
        b.clock.set(EngineHarness.start + 600)
        let onB = b.addUber()
        server.sync(a.engine)
        server.sync(b.engine)
        #expect(b.ids == [onB], "merged into B's own item, not added beside it")
        #expect(b.field(onB, "createdAt") == a.field(onA, "createdAt"), "the earlier creation stands")
        #expect(uid(b, onB) == uid(a, onA))
        #expect(server.resources.count == 1)
        #expect(b.history(onB) == ["added"])
        server.sync(a.engine)
        #expect(a.ids == [onA])
        #expect(a.pending.isEmpty && b.pending.isEmpty)
    }

    @Test func anAppleCompletedCopyIsADoneOfItsItemNotAnItem() throws {
        let id = a.addUber()
        server.sync(a.engine)
        server.put(
            "/alice/reminderd/B0E5A7C2.ics",
            """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//Apple Inc.//iOS 18.1//EN
            BEGIN:VTODO
            UID:B0E5A7C2-3F1D-4E8B-9C6A-1D2E3F4A5B6C
            DTSTAMP:20261120T150000Z
            SUMMARY:Uber Cash $15 — Amex Platinum
            DUE:20261130T235900
            STATUS:COMPLETED
            COMPLETED:20261120T150000Z
            END:VTODO
            END:VCALENDAR

            """.replacingOccurrences(of: "\n", with: "\r\n"))
        server.sync(a.engine)
        #expect(a.ids == [id])
        #expect(a.doneDues(id) == [try Timestamp.parse("2026-11-30T23:59:00Z").get()])
        #expect(a.history(id).suffix(1) == ["done elsewhere"])
        let master = try #require(server.resources.values.first { $0.body.contains("X-REMINDERD-KIND") }?.body)
        #expect(master.contains("X-REMINDERD-DONE:20261130T235900/20261120T150000Z/"), "pushed in the rolling form")
    }

    @Test func aPhoneRollingTheMasterIsADoneElsewhereWrittenBackInTheRollingForm() throws {
        let id = a.addUber()
        server.sync(a.engine)
        let (href, resource) = try #require(server.resources.first)
        #expect(resource.body.contains("DUE;TZID=UTC:20261130T235900"))
        // Apple Reminders completes November: DTSTART and DUE move to December, its PRODID.
        server.put(
            href,
            resource.body.replacingOccurrences(of: "20261130T235900", with: "20261231T235900")
                .replacingOccurrences(
                    of: "PRODID:-//reminderd//reminderd-sync//EN", with: "PRODID:-//Apple Inc.//iOS 18.1//EN"))
        server.sync(a.engine)
        #expect(a.doneDues(id) == [try Timestamp.parse("2026-11-30T23:59:00Z").get()])
        #expect(a.history(id).suffix(1) == ["done elsewhere"])
        let body = try #require(server.resources[href]?.body)
        #expect(body.contains("PRODID:-//reminderd//reminderd-sync//EN"))
        #expect(body.contains("X-REMINDERD-DONE:20261130T235900/"))
        #expect(a.pending.isEmpty)
    }

    /// A phone moved a monthly subscription from December 3 to December 5, a day that is not of
    /// its schedule: the date is derived (docs/SYNC-FORMAT.md), so reminderd keeps December 3,
    /// says so in history, and writes it back at once. Before, the move was dropped silently and
    /// nothing was written: the phone showed December 5 while the laptops reminded December 3.
    @Test func aPhoneMovingARepeatingDateOffItsScheduleIsPutBackAtOnce() throws {
        let id = a.add(["kind": "subscription", "title": "Gym", "every": "1mo", "next": "2026-12-03", "amount": "30"])
        server.sync(a.engine)
        let (href, resource) = try #require(server.resources.first)
        #expect(resource.body.contains("DUE;TZID=UTC:20261203T"))
        server.put(
            href,
            resource.body.replacingOccurrences(of: "TZID=UTC:20261203T", with: "TZID=UTC:20261205T")
                .replacingOccurrences(
                    of: "PRODID:-//reminderd//reminderd-sync//EN", with: "PRODID:+//IDN tasks.org//android-140107//EN"))
        server.sync(a.engine)
        #expect(a.field(id, "next") == "2026-12-03")
        #expect(a.doneDues(id).isEmpty)
        #expect(
            a.reasons(id, "kept").suffix(1) == [
                "date moved to 2026-12-05 on another device, which is not a date of its schedule; "
                    + "put back to 2026-12-03 (edit the item here to change its dates)"
            ])
        let body = try #require(server.resources[href]?.body)
        #expect(body.contains("DUE;TZID=UTC:20261203T") && !body.contains("20261205"))
        #expect(body.contains("PRODID:-//reminderd//reminderd-sync//EN"))
        #expect(a.pending.isEmpty)
        server.sync(a.engine)
        #expect(a.reasons(id, "kept").count == 1, "said once")
    }

    @Test func resourcesThatAreNotReadableItemsAreSkippedAndTouchNothing() throws {
        _ = b.addUber()
        server.sync(b.engine)
        let good = try #require(server.resources.first)
        let otherUID = try #require(good.value.body.firstMatch(of: /UID:([^\r]+)/)).1
        server.put("/c/garbage.ics", "BEGIN:VCALENDAR\r\nthis is not iCalendar\r\n")
        server.put(
            "/c/milk.ics",
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VTODO\r\nUID:milk-1\r\nSUMMARY:Buy milk\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        )
        server.put(
            "/c/fifteen.ics",
            good.value.body.replacingOccurrences(of: "X-REMINDERD-AMOUNT:15", with: "X-REMINDERD-AMOUNT:fifteen")
                .replacingOccurrences(of: String(otherUID), with: "other@x"))
        // The same task twice on the server (a client duplicated it): one item.
        server.put("/c/copy.ics", good.value.body)
        let pulled = server.pull(a.engine, server.resources.keys.sorted())
        #expect(pulled?.applied == 1)
        // Each named with why, for reminderd-sync's report; the task of another app is no item, not skipped.
        let skipped = Dictionary(uniqueKeysWithValues: (pulled?.skipped ?? []).map { ($0.href, $0.reason) })
        #expect(skipped.keys.sorted() == ["/c/copy.ics", "/c/fifteen.ics", "/c/garbage.ics"])
        #expect(skipped["/c/copy.ics"] == "UID \(otherUID) is in another resource of this batch too")
        #expect(skipped["/c/fifteen.ics"]?.hasPrefix("X-REMINDERD-AMOUNT: \"fifteen\": expected a decimal amount") == true)
        #expect(skipped["/c/garbage.ics"]?.hasPrefix("line 2: ") == true)
        #expect(a.ids.count == 1)
        #expect(a.field(a.ids[0], "amount") == "15")
        // The phone's task is named in the journal once, not at every pass that lists it again.
        #expect(a.engine.queue.sync { a.engine.sync.foreignTasksNoted } == ["/c/milk.ics"])
        server.pull(a.engine, ["/c/milk.ics"])
        #expect(a.engine.queue.sync { a.engine.sync.foreignTasksNoted } == ["/c/milk.ics"])
    }

    /// A phone's own task is no item, but its ETag is kept: `SyncBegin` lists it, so a full
    /// listing does not fetch it again while it is unchanged; an edit fetches it again, a
    /// removal forgets it.
    @Test func anotherAppsTaskIsKnownAtItsETagUntilItChangesOrGoes() throws {
        let milk = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VTODO\r\nUID:milk-1\r\nSUMMARY:Buy milk\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        func known() -> [String: String?] {
            let begun = reply(a.engine, "SyncBegin", SyncBeginReply.self, [
                "collection": .string(FakeTaskList.collection), "account": .string("alice@dav.example"),
            ])
            return Dictionary(uniqueKeysWithValues: (begun?.resources ?? []).map { ($0.href, $0.etag) })
        }
        _ = a.addUber()
        server.put("/c/milk.ics", milk)
        server.sync(a.engine)
        #expect(known()["/c/milk.ics"] == .some(server.resources["/c/milk.ics"]?.etag))
        #expect(known().count == 2 && a.ids.count == 1)
        server.put("/c/milk.ics", milk.replacingOccurrences(of: "Buy milk", with: "Buy oat milk"))
        server.sync(a.engine)
        #expect(known()["/c/milk.ics"] == .some(server.resources["/c/milk.ics"]?.etag))
        server.delete("/c/milk.ics")
        server.sync(a.engine)
        #expect(known()["/c/milk.ics"] == nil && known().count == 1)
    }

    @Test func aBatchTheStoreRefusesChangesNothingInMemoryNorTheToken() throws {
        let id = shared { $0.addUber() }
        let popUps = b.notifier.requests.count
        edit(a, id, title: "Uber Eats")
        _ = a.perform("Done", ["id": .string(id)])
        server.sync(a.engine)
        try StoreFaults.failWrites(.history, storeAt: b.storePath)
        guard case .failure(let error) = b.perform("SyncPulled", server.pulled(Array(server.resources.keys), token: "t9"))
        else {
            Issue.record("SyncPulled answered success for a batch it did not store")
            return
        }
        #expect(error.parameters["reason"].map { "\($0)" }?.contains("disk is full") == true)
        #expect(b.field(id, "title") == "Uber Cash")
        #expect(b.doneDues(id).isEmpty)
        #expect(b.notifier.requests.count == popUps)
        let begun = reply(b.engine, "SyncBegin", SyncBeginReply.self, [
            "collection": .string(FakeTaskList.collection), "account": .string("alice@dav.example"),
        ])
        #expect(begun?.token != "t9")
    }

    @Test func theTokenIsStoredWithItsBatch() throws {
        _ = shared { $0.addUber() }
        server.sync(b.engine, token: "t-42")
        let begun = reply(b.engine, "SyncBegin", SyncBeginReply.self, [
            "collection": .string(FakeTaskList.collection), "account": .string("alice@dav.example"),
        ])
        #expect(begun?.token == "t-42")
    }
}
