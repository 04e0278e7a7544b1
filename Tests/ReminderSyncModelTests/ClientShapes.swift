/// Task resources as other clients leave them after completing one occurrence of the Uber Cash
/// credit (due 2026-11-30 23:59 in New York), written by hand from each client's documented
/// behaviour. Every one keeps reminderd's X- properties, as these clients keep unknown ones.
enum ClientShapes {
    /// reminderd's own fields, as each client carried them over.
    static let fields = """
        X-REMINDERD-KIND:benefit
        X-REMINDERD-ITEM-ID:uber
        X-REMINDERD-CURRENCY:USD
        X-REMINDERD-CARD:Amex Platinum
        X-REMINDERD-AMOUNT:15
        X-REMINDERD-PERIOD:monthly
        X-REMINDERD-LEAD:7d,1d
        X-REMINDERD-CREATED-AT:2026-09-21T14:13:20Z
        """

    static func calendar(prodid: String, _ body: String) -> String {
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:\(prodid)
        \(body)
        END:VCALENDAR

        """.crlf
    }

    static let uid = "UID:6f1c2a9e-0d4b-4c1e-9a57-3b8f0e2d7c41@reminderd"

    /// Apple Reminders: the master's DTSTART and DUE moved to the next occurrence; Apple's own
    /// sort order and a completed copy under a new UID (`appleCompletedCopy`).
    static let appleRolled = calendar(
        prodid: "-//Apple Inc.//iOS 18.1//EN",
        """
        BEGIN:VTODO
        \(uid)
        DTSTAMP:20261120T150000Z
        LAST-MODIFIED:20261120T150000Z
        SUMMARY:Uber Cash $15 — Amex Platinum
        DTSTART;TZID=America/New_York:20261231T235900
        DUE;TZID=America/New_York:20261231T235900
        RRULE:FREQ=MONTHLY;BYMONTHDAY=-1
        STATUS:NEEDS-ACTION
        X-APPLE-SORT-ORDER:740123456
        \(fields)
        END:VTODO
        """)

    static let appleCompletedCopy = calendar(
        prodid: "-//Apple Inc.//iOS 18.1//EN",
        """
        BEGIN:VTODO
        UID:B0E5A7C2-3F1D-4E8B-9C6A-1D2E3F4A5B6C
        DTSTAMP:20261120T150000Z
        SUMMARY:Uber Cash $15 — Amex Platinum
        DUE;TZID=America/New_York:20261130T235900
        STATUS:COMPLETED
        COMPLETED:20261120T150000Z
        PERCENT-COMPLETE:100
        X-APPLE-SORT-ORDER:740123457
        END:VTODO
        """)

    /// Tasks.org through DAVx5 (ical4android), on a phone set to Berlin: DTSTART and DUE moved to
    /// the next occurrence in the phone's zone, completion cleared.
    static let tasksOrgRolled = calendar(
        prodid: "+//IDN tasks.org//android-140107//EN",
        """
        BEGIN:VTODO
        DTSTAMP:20261120T150000Z
        \(uid)
        CREATED:20260921T141320Z
        LAST-MODIFIED:20261120T150000Z
        SUMMARY:Uber Cash $15 — Amex Platinum
        PRIORITY:9
        STATUS:NEEDS-ACTION
        X-MOZ-LASTACK:20261120T150000Z
        DTSTART;TZID=Europe/Berlin:20270101T055900
        DUE;TZID=Europe/Berlin:20270101T055900
        RRULE:FREQ=MONTHLY;BYMONTHDAY=-1
        \(fields)
        END:VTODO
        """)

    /// Evolution: DUE moved, ACKNOWLEDGED on its alarm (RFC 9074), its alarm UID kept.
    static let evolutionRolled = calendar(
        prodid: "-//Ximian//NONSGML Evolution Calendar//EN",
        """
        BEGIN:VTODO
        \(uid)
        DTSTAMP:20261120T150000Z
        SEQUENCE:3
        SUMMARY:Uber Cash $15 — Amex Platinum
        DTSTART;TZID=America/New_York:20261231T235900
        DUE;TZID=America/New_York:20261231T235900
        RRULE:FREQ=MONTHLY;BYMONTHDAY=-1
        STATUS:NEEDS-ACTION
        LAST-MODIFIED:20261120T150000Z
        \(fields)
        BEGIN:VALARM
        X-EVOLUTION-ALARM-UID:20261101T000000Z-1234-1000-1-0@laptop
        ACTION:DISPLAY
        TRIGGER;RELATED=END:-P1DT14H59M
        DESCRIPTION:Uber Cash $15 — Amex Platinum
        ACKNOWLEDGED:20261120T145900Z
        END:VALARM
        END:VTODO
        """)

    /// Nextcloud Tasks (ical.js): DUE and DTSTART moved, the due time now in UTC.
    static let nextcloudRolled = calendar(
        prodid: "-//Nextcloud Tasks v0.16.1",
        """
        BEGIN:VTODO
        \(uid)
        CREATED:20260921T141320Z
        LAST-MODIFIED:20261120T150000Z
        DTSTAMP:20261120T150000Z
        SUMMARY:Uber Cash $15 — Amex Platinum
        DTSTART:20270101T045900Z
        DUE:20270101T045900Z
        RRULE:FREQ=MONTHLY;BYMONTHDAY=-1
        STATUS:NEEDS-ACTION
        \(fields)
        END:VTODO
        """)

    /// An override for the completed occurrence; the master untouched but for the client's own
    /// properties. Thunderbird also acknowledges the alarm.
    static func completedOverride(prodid: String, extra: String) -> String {
        calendar(
            prodid: prodid,
            """
            BEGIN:VTODO
            \(uid)
            DTSTAMP:20261120T150000Z
            SUMMARY:Uber Cash $15 — Amex Platinum
            DTSTART;TZID=America/New_York:20261130T235900
            DUE;TZID=America/New_York:20261130T235900
            RRULE:FREQ=MONTHLY;BYMONTHDAY=-1
            STATUS:NEEDS-ACTION
            \(extra)
            \(fields)
            END:VTODO
            BEGIN:VTODO
            \(uid)
            RECURRENCE-ID;TZID=America/New_York:20261130T235900
            DTSTAMP:20261120T150000Z
            SUMMARY:Uber Cash $15 — Amex Platinum
            DTSTART;TZID=America/New_York:20261130T235900
            DUE;TZID=America/New_York:20261130T235900
            STATUS:COMPLETED
            COMPLETED:20261120T150000Z
            PERCENT-COMPLETE:100
            END:VTODO
            """)
    }

    static let thunderbirdOverride = completedOverride(
        prodid: "-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN",
        extra: "X-MOZ-GENERATION:4\nX-MOZ-LASTACK:20261120T150000Z\nX-MOZ-SNOOZE-TIME-1796086740000000:20261121T140000Z"
    )

    static let jtxOverride = completedOverride(prodid: "+//IDN techbee.at//jtx Board v2.9.1//EN", extra: "X-JTX-FLAG:1")

    /// KOrganizer: DTSTART and DUE stay; the occurrence it shows next moves.
    static let kdeMoved = calendar(
        prodid: "-//K Desktop Environment//NONSGML KOrganizer 6.2//EN",
        """
        BEGIN:VTODO
        \(uid)
        DTSTAMP:20261120T150000Z
        LAST-MODIFIED:20261120T150000Z
        SUMMARY:Uber Cash $15 — Amex Platinum
        DTSTART;TZID=America/New_York:20261130T235900
        DUE;TZID=America/New_York:20261130T235900
        RRULE:FREQ=MONTHLY;BYMONTHDAY=-1
        X-KDE-LIBKCAL-DTRECURRENCE;TZID=America/New_York:20261231T235900
        STATUS:NEEDS-ACTION
        \(fields)
        END:VTODO
        """)

    /// A client that completed the whole series by mistake.
    static let completedMaster = calendar(
        prodid: "-//python-caldav//caldav//en_DK",
        """
        BEGIN:VTODO
        \(uid)
        DTSTAMP:20261120T150000Z
        SUMMARY:Uber Cash $15 — Amex Platinum
        DTSTART;TZID=America/New_York:20261130T235900
        DUE;TZID=America/New_York:20261130T235900
        RRULE:FREQ=MONTHLY;BYMONTHDAY=-1
        STATUS:COMPLETED
        COMPLETED:20261120T150000Z
        \(fields)
        END:VTODO
        """)

    /// A phone that moved the due date to a day that is not an occurrence: an edit, not a Done.
    static let dueEdited = appleRolled.replacingFirst(
        "DUE;TZID=America/New_York:20261231T235900", with: "DUE;TZID=America/New_York:20261215T235900")

    // Unticks: each client taking back its Done of November after reminderd wrote it back in
    // the rolling form (`DUE` December 31, the November entry in the ledger, which the client
    // keeps like any unknown property).

    /// The ledger entry reminderd wrote for the November Done.
    static let novemberDone = "X-REMINDERD-DONE:20261130T235900/20261120T150000Z/"

    /// `body` with the November entry in its ledger.
    static func withNovemberDone(_ body: String) -> String {
        body.replacingFirst("X-REMINDERD-KIND:benefit", with: "X-REMINDERD-KIND:benefit\r\n" + novemberDone)
    }

    /// Apple Reminders, Evolution: the master's date back on November 30.
    static let appleUnticked = withNovemberDone(appleRolled.replacingAll("20261231T235900", with: "20261130T235900"))
    static let evolutionUnticked = withNovemberDone(
        evolutionRolled.replacingAll("20261231T235900", with: "20261130T235900"))

    /// Tasks.org: its Undo restores the date before the roll, in the phone's zone (Berlin).
    static let tasksOrgUnticked = withNovemberDone(
        tasksOrgRolled.replacingAll("20270101T055900", with: "20261201T055900"))

    /// Nextcloud Tasks: the date back, in UTC.
    static let nextcloudUnticked = withNovemberDone(
        nextcloudRolled.replacingAll("20270101T045900Z", with: "20261201T045900Z"))

    /// Thunderbird, jtx Board: the override of November no longer completed; the master as
    /// reminderd wrote it.
    static func uncompletedOverride(prodid: String, extra: String) -> String {
        withNovemberDone(
            completedOverride(prodid: prodid, extra: extra)
                .replacingFirst("DTSTART;TZID=America/New_York:20261130T235900", with:
                    "DTSTART;TZID=America/New_York:20261231T235900")
                .replacingFirst("DUE;TZID=America/New_York:20261130T235900", with:
                    "DUE;TZID=America/New_York:20261231T235900")
                .replacingFirst("STATUS:COMPLETED\r\nCOMPLETED:20261120T150000Z\r\nPERCENT-COMPLETE:100", with:
                    "STATUS:NEEDS-ACTION\r\nPERCENT-COMPLETE:0"))
    }

    static let thunderbirdUnticked = uncompletedOverride(
        prodid: "-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN", extra: "X-MOZ-GENERATION:5")

    static let jtxUnticked = uncompletedOverride(prodid: "+//IDN techbee.at//jtx Board v2.9.1//EN", extra: "X-JTX-FLAG:1")

    /// KOrganizer: DTSTART and DUE as reminderd wrote them, its own recurrence date back.
    static let kdeUnticked = withNovemberDone(
        kdeMoved.replacingAll("20261130T235900", with: "20261231T235900")
            .replacingFirst("X-KDE-LIBKCAL-DTRECURRENCE;TZID=America/New_York:20261231T235900", with:
                "X-KDE-LIBKCAL-DTRECURRENCE;TZID=America/New_York:20261130T235900"))

    /// A client that had completed the master puts its status back, on the date it showed.
    static let masterUnticked = withNovemberDone(
        completedMaster.replacingFirst("STATUS:COMPLETED\r\nCOMPLETED:20261120T150000Z", with: "STATUS:NEEDS-ACTION"))

    /// Tasks.org rolling December after reminderd wrote November's Done back: a Done of
    /// December, not an untick, though the ledger holds an entry.
    static let tasksOrgRolledAgain = withNovemberDone(
        tasksOrgRolled.replacingAll("20270101T055900", with: "20270201T055900"))

    /// A phone that moved a repeating item to a day that is not an occurrence (December 15),
    /// through Tasks.org's date picker.
    static let tasksOrgDateMoved = tasksOrgRolled.replacingAll("20270101T055900", with: "20261215T235900")
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        precondition(contains(target), "no \(target) in the text")
        return replacing(target, with: replacement)
    }
}
