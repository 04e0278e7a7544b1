import CivilTime
import ICalendar
import ReminderCore
import ReminderSyncModel
import ReminderTestSupport
import Testing

/// Each client's way of completing the November occurrence reads as "2026-11-30 done at
/// 2026-11-20 15:00 UTC", and reminderd's rewrite is the rolling master again.
@Suite struct ClientShapeTests {
    static let november = Fixture.local("2026-11-30T23:59")
    static let doneAt = Kit.utc("20261120T150000Z")

    @Test(arguments: [
        ("Apple Reminders", ClientShapes.appleRolled),
        ("Tasks.org", ClientShapes.tasksOrgRolled),
        ("Evolution", ClientShapes.evolutionRolled),
        ("Nextcloud Tasks", ClientShapes.nextcloudRolled),
        ("Thunderbird", ClientShapes.thunderbirdOverride),
        ("jtx Board", ClientShapes.jtxOverride),
        ("KOrganizer", ClientShapes.kdeMoved),
        ("STATUS:COMPLETED master", ClientShapes.completedMaster),
    ])
    func completionReadsAsNovemberDone(client: String, body: String) throws {
        let reading = try Kit.read(body)
        #expect(reading.foreignCompletions == [DoneEntry(occurrence: Self.november, doneAt: Self.doneAt)], "\(client)")
        #expect(reading.record.ledger.entries == reading.foreignCompletions, "\(client)")
        #expect(reading.record.item == Kit.uber, "\(client)")
        // Written back: rolled to December, one master, no override, the client's extras kept.
        let written = VTodoWriter.write(reading.record, uid: reading.uid, into: reading.calendar, context: Kit.context)
        let todos = written.components("VTODO")
        #expect(todos.count == 1, "\(client)")
        #expect(todos[0].property("DUE")?.line == "DUE;TZID=America/New_York:20261231T235900", "\(client)")
        #expect(
            todos[0].property("STATUS")?.value == "NEEDS-ACTION" && todos[0].property("COMPLETED") == nil, "\(client)")
        #expect(
            todos[0].properties("X-REMINDERD-DONE").map(\.value) == ["20261130T235900/20261120T150000Z/"], "\(client)")
        // Read again by the client's next sync: nothing new is done.
        let again = try VTodoReader.read(written, name: "item.ics", context: Kit.context)
        #expect(again.foreignCompletions.isEmpty && again.record == reading.record, "\(client)")
    }

    @Test func clientExtrasSurviveTheRewrite() throws {
        for body in [ClientShapes.appleRolled, ClientShapes.evolutionRolled, ClientShapes.kdeMoved] {
            let reading = try Kit.read(body)
            let todo = VTodoWriter.write(reading.record, uid: reading.uid, into: reading.calendar, context: Kit.context)
                .components.last!
            let original = try Kit.todo(body)
            for name in ["X-APPLE-SORT-ORDER", "PRIORITY", "X-EVOLUTION-ALARM-UID"] {
                #expect(original.property(name)?.value == todo.property(name)?.value)
            }
            if let kde = original.property("X-KDE-LIBKCAL-DTRECURRENCE") {
                #expect(todo.property(kde.name)?.value == "20261231T235900")
            }
        }
        let evolution = try Kit.read(ClientShapes.evolutionRolled)
        let alarms = VTodoWriter.write(
            evolution.record, uid: evolution.uid, into: evolution.calendar, context: Kit.context
        )
        .components.last!.components("VALARM")
        #expect(
            alarms.contains {
                $0.property("X-EVOLUTION-ALARM-UID") != nil && $0.property("TRIGGER")?.value == "-P1DT14H59M"
            })
        #expect(alarms.count == 2)
    }

    @Test func acknowledgementsOfOtherClientsAreRead() throws {
        #expect(
            try Kit.read(ClientShapes.evolutionRolled).record.alarms.lastAcknowledged == Kit.utc("20261120T145900Z"))
        let thunderbird = try Kit.read(ClientShapes.thunderbirdOverride).record.alarms
        #expect(thunderbird == AlarmState(lastAcknowledged: Self.doneAt, snoozedUntil: Kit.utc("20261121T140000Z")))
        #expect(try Kit.read(ClientShapes.tasksOrgRolled).record.alarms.lastAcknowledged == Self.doneAt)
    }

    @Test func appleCompletedCopyIsACompletionRecord() throws {
        let known = [
            CompletedCopy.Known(
                uid: "6f1c2a9e-0d4b-4c1e-9a57-3b8f0e2d7c41@reminderd", record: SyncRecord(item: Kit.uber))
        ]
        let copy = try Component.parse(ClientShapes.appleCompletedCopy)
        let match = try #require(CompletedCopy.match(copy, known: known, context: Kit.context))
        #expect(match.uid == known[0].uid)
        #expect(match.entry == DoneEntry(occurrence: Self.november, doneAt: Self.doneAt))
        // Not a copy: a known UID, or a summary no item has.
        #expect(
            CompletedCopy.match(try Component.parse(ClientShapes.completedMaster), known: known, context: Kit.context)
                == nil)
        let other = ClientShapes.appleCompletedCopy.replacingFirst("SUMMARY:Uber Cash", with: "SUMMARY:Lyft Cash")
        #expect(CompletedCopy.match(try Component.parse(other), known: known, context: Kit.context) == nil)
        // A copy that carried reminderd's fields over is matched by the item id.
        let carried = ClientShapes.appleCompletedCopy.replacingFirst(
            "SUMMARY:Uber Cash $15 — Amex Platinum", with: "SUMMARY:Uber\r\n" + ClientShapes.fields.crlf)
        let byID = try #require(CompletedCopy.match(try Component.parse(carried), known: known, context: Kit.context))
        #expect(byID.uid == known[0].uid && byID.entry.occurrence == Self.november)
        // Reading the copy as an item fails plainly: it has no reminderd fields.
        #expect(throws: SyncFormatError.notAnItem(resource: "item.ics")) {
            try Kit.read(ClientShapes.appleCompletedCopy)
        }
    }

    @Test func dueMovedToANonOccurrenceIsAnEditNotADone() throws {
        let reading = try Kit.read(ClientShapes.dueEdited)
        #expect(reading.foreignCompletions.isEmpty && reading.record.ledger.entries.isEmpty)
    }

    @Test func reminderdsOwnRollOfAnExpiredOccurrenceIsNoDone() throws {
        // Another reminderd wrote this on 2026-12-02, after November expired undone.
        let december = Kit.written(SyncRecord(item: Kit.uber), context: Kit.at(Kit.utc("20261202T120000Z")))
        #expect(try Kit.todo(december).property("DUE")?.value == "20261231T235900")
        let reading = try Kit.read(december)
        #expect(reading.foreignCompletions.isEmpty && reading.record.ledger.entries.isEmpty)
    }

    @Test func aRollAfterAnUndoElsewhereIsStillADone() throws {
        // Device B did and synced November, then undid it; the phone saw the undone body and
        // rolled it. This device last saw the December body: only the phone's roll says Done.
        var done = SyncRecord(item: Kit.uber)
        done.markDone(try #require(done.currentOccurrence(in: Kit.context)), at: Kit.now, in: Kit.context)
        let reading = try Kit.read(ClientShapes.appleRolled)
        #expect(reading.foreignCompletions == [DoneEntry(occurrence: Self.november, doneAt: Self.doneAt)])
        let merged = SyncMerge.merge(base: done, local: done, remote: reading.record, zone: Kit.newYork).record
        #expect(merged.ledger.contains(Self.november))
    }

    @Test func oneOffsCompletedElsewhere() throws {
        let couponText = Kit.written(SyncRecord(item: Kit.coupon))
            .replacingFirst("STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED\r\nCOMPLETED:20261120T150000Z")
        let coupon = try Kit.read(couponText)
        #expect(coupon.foreignCompletions == [DoneEntry(occurrence: Fixture.local("2026-12-24T23:59"), doneAt: Self.doneAt)])
        let rebuyText = Kit.written(SyncRecord(item: Kit.rebuy))
            .replacingFirst("STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED\r\nCOMPLETED:20261120T150000Z")
        let rebuy = try Kit.read(rebuyText)
        guard case .rebuy(let bought) = rebuy.record.item.schedule else {
            Issue.record("not a rebuy")
            return
        }
        #expect(bought.lastPurchased == Fixture.date("2026-11-20"))
        #expect(
            VTodoWriter.write(rebuy.record, uid: Kit.uid, into: nil, context: Kit.context).components.last!.property(
                "DUE")?.value == "20261220T235900")
    }

    @Test func phoneEditsOfTitleAndCouponExpiryAreRead() throws {
        let retitled = ClientShapes.appleRolled.replacingFirst(
            "SUMMARY:Uber Cash $15 — Amex Platinum", with: "SUMMARY:Uber Eats")
        #expect(try Kit.read(retitled).record.item.title == "Uber Eats")
        let moved = Kit.written(SyncRecord(item: Kit.coupon)).replacingFirst("20261224T235900", with: "20261231T180000")
        guard case .coupon(let coupon) = try Kit.read(moved).record.item.schedule else {
            Issue.record("not a coupon")
            return
        }
        #expect(coupon.expires == .dateTime(Fixture.local("2026-12-31T18:00")))
    }
}
