import CivilTime
import ReminderCore
import ReminderJSON
import ReminderTestSupport
import Testing

/// Benefit periods counted from a `periodStart` (a card anniversary) instead of the calendar:
/// each due the day before the next period starts, 23:59 local (CONTRACT §2).
@Suite struct PeriodStartTests {
    let ny = Fixture.zone("America/New_York")

    /// The due instants of `item`'s occurrences in `[from, to)`, in `zone`'s RFC 3339.
    func dues(_ item: Item, zone: TimeZoneRules, from: String, to: String) -> [String] {
        let rules = Planner(configuration: Configuration(quietHours: nil), zone: zone).rules
        var found: [String] = []
        rules.forEachOccurrence(of: item, dueAfter: Fixture.instant(from), before: Fixture.instant(to)) {
            found.append(Timestamp.format($0.due, in: zone))
            return true
        }
        return found
    }

    func benefit(_ period: String, start: String?, zone: TimeZoneRules) throws -> Item {
        let field = start.map { #","periodStart":"\#($0)""# } ?? ""
        return try Fixture.item(#"{"kind":"benefit","title":"b","period":"\#(period)"\#(field)}"#, zone: zone)
    }

    @Test func anAnnualCreditIsDueTheDayBeforeTheAnniversary() throws {
        let item = try benefit("annual", start: "2025-03-15", zone: ny)
        #expect(
            dues(item, zone: ny, from: "2026-11-01T00:00:00Z", to: "2029-01-01T00:00:00Z") == [
                "2027-03-14T23:59:00-04:00", "2028-03-14T23:59:00-04:00",
            ])
    }

    @Test func periodsRunBothWaysFromAStartInTheFuture() throws {
        // The default anniversary is the next fee date, still ahead: the period now running began
        // a year before it.
        let item = try benefit("annual", start: "2031-06-15", zone: ny)
        #expect(
            dues(item, zone: ny, from: "2029-07-01T00:00:00Z", to: "2030-07-01T00:00:00Z") == [
                "2030-06-14T23:59:00-04:00"
            ])
    }

    @Test func monthlyPeriodsFromThe31stClampToTheMonthsEnd() throws {
        // Starts Jan 31, Feb 28 (Feb 29 in 2028), Mar 31, Apr 30, May 31: each due the day before.
        let item = try benefit("monthly", start: "2027-01-31", zone: .utc)
        #expect(
            dues(item, zone: .utc, from: "2027-01-31T00:00:00Z", to: "2027-06-01T00:00:00Z") == [
                "2027-02-27T23:59:00+00:00", "2027-03-30T23:59:00+00:00", "2027-04-29T23:59:00+00:00",
                "2027-05-30T23:59:00+00:00",
            ])
        #expect(
            dues(item, zone: .utc, from: "2028-02-01T00:00:00Z", to: "2028-04-01T00:00:00Z") == [
                "2028-02-28T23:59:00+00:00", "2028-03-30T23:59:00+00:00",
            ])
    }

    @Test func quarterlyPeriodsFromThe30th() throws {
        // Starts Nov 30, Feb 28, May 30, Aug 30.
        let item = try benefit("quarterly", start: "2026-11-30", zone: .utc)
        #expect(
            dues(item, zone: .utc, from: "2027-01-01T00:00:00Z", to: "2027-09-01T00:00:00Z") == [
                "2027-02-27T23:59:00+00:00", "2027-05-29T23:59:00+00:00", "2027-08-29T23:59:00+00:00",
            ])
    }

    @Test func aLeapDayAnniversaryStartsOnFebruary28InOtherYears() throws {
        let item = try benefit("annual", start: "2028-02-29", zone: .utc)
        #expect(
            dues(item, zone: .utc, from: "2028-03-01T00:00:00Z", to: "2033-01-01T00:00:00Z") == [
                "2029-02-27T23:59:00+00:00", "2030-02-27T23:59:00+00:00", "2031-02-27T23:59:00+00:00",
                "2032-02-28T23:59:00+00:00",
            ])
        let semiannual = try benefit("semiannual", start: "2028-02-29", zone: .utc)
        #expect(
            dues(semiannual, zone: .utc, from: "2028-03-01T00:00:00Z", to: "2029-09-01T00:00:00Z") == [
                "2028-08-28T23:59:00+00:00", "2029-02-27T23:59:00+00:00", "2029-08-28T23:59:00+00:00",
            ])
    }

    @Test func aZoneChangeKeepsTheLocalDatesAndMovesTheInstant() throws {
        // The same item read in two zones: the due date is local, 23:59 wherever the user is.
        let json = #"{"kind":"benefit","title":"b","period":"annual","periodStart":"2027-07-01"}"#
        let tokyo = Fixture.zone("Asia/Tokyo")
        let inNewYork = try Fixture.item(json, zone: ny)
        let inTokyo = try Fixture.item(json, zone: tokyo)
        #expect(
            dues(inNewYork, zone: ny, from: "2027-01-01T00:00:00Z", to: "2028-01-01T00:00:00Z") == [
                "2027-06-30T23:59:00-04:00"
            ])
        #expect(
            dues(inTokyo, zone: tokyo, from: "2027-01-01T00:00:00Z", to: "2028-01-01T00:00:00Z") == [
                "2027-06-30T23:59:00+09:00"
            ])
    }

    @Test func aStartOnJanuaryFirstGivesTheCalendarPeriods() throws {
        for period in Benefit.Period.allCases {
            let calendar = try benefit(period.rawValue, start: nil, zone: ny)
            let anchored = try benefit(period.rawValue, start: "1999-01-01", zone: ny)
            let (from, to) = ("2026-01-01T00:00:00Z", "2031-01-01T00:00:00Z")
            let expected = dues(calendar, zone: ny, from: from, to: to)
            #expect(dues(anchored, zone: ny, from: from, to: to) == expected, "\(period)")
            #expect(expected.count >= 5)
        }
    }

    @Test func anItemWithoutTheFieldReadsAsCalendarPeriodsAndKeepsNoField() throws {
        let item = try benefit("quarterly", start: nil, zone: ny)
        guard case .benefit(let credit) = item.schedule else {
            Issue.record("not a benefit")
            return
        }
        #expect(credit.periodStart == nil)
        guard case .object(let fields) = item.json else {
            Issue.record("not an object")
            return
        }
        #expect(fields["periodStart"] == nil)
        let anchored = try benefit("quarterly", start: "2027-02-10", zone: ny)
        guard case .object(let anchoredFields) = anchored.json else {
            Issue.record("not an object")
            return
        }
        #expect(anchoredFields["periodStart"] == .string("2027-02-10"))
        #expect(try Item(json: anchored.json, context: .init(zone: ny)) == anchored)
    }

    @Test func aBadStartIsRefusedNamingTheField() {
        let error = #expect(throws: ReminderCoreError.self) {
            try benefit("annual", start: "2027-02-30", zone: ny)
        }
        #expect(error?.field == "periodStart")
    }
}
