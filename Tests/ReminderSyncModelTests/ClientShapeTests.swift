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

    /// Each client's untick of the November Done, after reminderd wrote that Done back, reads
    /// as an Undo of November (the ledger entry goes), and reminderd's rewrite shows November
    /// again. Before, these changed nothing: the ledger the client kept still held November.
    @Test(arguments: [
        ("Apple Reminders", ClientShapes.appleUnticked),
        ("Tasks.org", ClientShapes.tasksOrgUnticked),
        ("Evolution", ClientShapes.evolutionUnticked),
        ("Nextcloud Tasks", ClientShapes.nextcloudUnticked),
        ("Thunderbird", ClientShapes.thunderbirdUnticked),
        ("jtx Board", ClientShapes.jtxUnticked),
        ("KOrganizer", ClientShapes.kdeUnticked),
        ("STATUS:COMPLETED master", ClientShapes.masterUnticked),
    ])
    func untickReadsAsNovemberUndone(client: String, body: String) throws {
        let reading = try Kit.read(body)
        #expect(reading.foreignUndos == [Self.november], "\(client)")
        #expect(reading.foreignCompletions.isEmpty && reading.record.ledger.entries.isEmpty, "\(client)")
        #expect(reading.movedDate == nil, "\(client)")
        let written = VTodoWriter.write(reading.record, uid: reading.uid, into: reading.calendar, context: Kit.context)
        let todos = written.components("VTODO")
        #expect(todos.count == 1, "\(client)")
        #expect(todos[0].property("DUE")?.line == "DUE;TZID=America/New_York:20261130T235900", "\(client)")
        #expect(todos[0].properties("X-REMINDERD-DONE").isEmpty, "\(client)")
        let again = try VTodoReader.read(written, name: "item.ics", context: Kit.context)
        #expect(again.foreignUndos.isEmpty && again.foreignCompletions.isEmpty, "\(client)")
        #expect(again.record == reading.record, "\(client)")
    }

    /// The same bodies as reminderd wrote them (the Done in the ledger, the date on December)
    /// and a roll past a done occurrence are no unticks.
    @Test func aRollOverALedgerIsADoneNotAnUntick() throws {
        var done = SyncRecord(item: Kit.uber)
        done.markDone(try #require(done.currentOccurrence(in: Kit.context)), at: Self.doneAt, in: Kit.context)
        let own = try Kit.read(Kit.written(done))
        #expect(own.foreignUndos.isEmpty && own.record.ledger == done.ledger)
        let rolled = try Kit.read(ClientShapes.tasksOrgRolledAgain)
        #expect(rolled.foreignUndos.isEmpty)
        #expect(rolled.foreignCompletions.map(\.occurrence) == [Fixture.local("2026-12-31T23:59")])
        #expect(rolled.record.ledger.entries.map(\.occurrence) == [Self.november, Fixture.local("2026-12-31T23:59")])
    }

    /// A coupon ticked (reminderd wrote it completed) and unticked on a phone, as Tasks.org
    /// does: `STATUS:NEEDS-ACTION`, `COMPLETED` gone, the ledger kept.
    @Test func aOneOffUntickedIsUndone() throws {
        var done = SyncRecord(item: Kit.coupon)
        done.markDone(try #require(done.currentOccurrence(in: Kit.context)), at: Self.doneAt, in: Kit.context)
        let completed = Kit.written(done)
        #expect(try Kit.read(completed).foreignUndos.isEmpty, "reminderd's own completed body")
        let unticked = completed.replacingFirst("STATUS:COMPLETED", with: "STATUS:NEEDS-ACTION")
            .replacingFirst("PERCENT-COMPLETE:100", with: "PERCENT-COMPLETE:0")
            .replacingFirst("COMPLETED:20261120T150000Z\r\n", with: "")
            .replacingFirst("PRODID:-//reminderd//reminderd-sync//EN", with: "PRODID:+//IDN tasks.org//android-140107//EN")
        let reading = try Kit.read(unticked)
        #expect(reading.foreignUndos == [Fixture.local("2026-12-24T23:59")])
        #expect(reading.record.ledger.entries.isEmpty && reading.record.item == Kit.coupon)
        // Still completed (a phone that edited the notes only): nothing undone.
        let edited = completed.replacingFirst(
            "PRODID:-//reminderd//reminderd-sync//EN", with: "PRODID:+//IDN tasks.org//android-140107//EN")
        #expect(try Kit.read(edited).foreignUndos.isEmpty)
    }

    /// An untick on top of the base this device last agreed on is an Undo in the merge: the
    /// remote side removed the entry.
    @Test func anUntickMergesAsAnUndo() throws {
        let base = try Kit.read(Kit.written({
            var done = SyncRecord(item: Kit.uber)
            done.markDone(done.currentOccurrence(in: Kit.context)!, at: Self.doneAt, in: Kit.context)
            return done
        }())).record
        let remote = try Kit.read(ClientShapes.tasksOrgUnticked).record
        let merged = SyncMerge.merge(base: base, local: base, remote: remote, zone: Kit.newYork).record
        #expect(merged.ledger.entries.isEmpty)
    }

    /// A repeating item's date moved to a day that is not an occurrence is no Done and no Undo;
    /// the reading names the move and the derived date for the writer to put back.
    @Test func aDateMovedOffTheScheduleIsNamedForTheWriteBack() throws {
        let reading = try Kit.read(ClientShapes.tasksOrgDateMoved)
        #expect(reading.foreignCompletions.isEmpty && reading.foreignUndos.isEmpty)
        #expect(reading.movedDate?.shown == Fixture.date("2026-12-15"))
        #expect(reading.movedDate?.derived == Fixture.date("2026-11-30"))
        let written = VTodoWriter.write(reading.record, uid: reading.uid, into: reading.calendar, context: Kit.context)
        let again = try VTodoReader.read(written, name: "item.ics", context: Kit.context)
        #expect(again.movedDate == nil)
        #expect(written.components("VTODO")[0].property("DUE")?.value == "20261130T235900")
        // A roll is a move to an occurrence: not named.
        #expect(try Kit.read(ClientShapes.tasksOrgRolled).movedDate == nil)
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
