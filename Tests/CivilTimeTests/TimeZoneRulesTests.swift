import CivilTime
import Foundation
import ReminderTestSupport
import Testing

@Suite struct TimeZoneRulesTests {
    func resolved(_ zone: String, _ local: String) -> (String, Int64) {
        let rules = Fixture.zone(zone)
        let resolution = rules.resolve(Fixture.local(local))
        return (Timestamp.format(resolution.instant, in: rules), resolution.gapShift)
    }

    @Test func newYorkOffsetsInWinterSummerAndBeyondTheFileTransitions() {
        let ny = Fixture.zone("America/New_York")
        #expect(ny.offset(at: Fixture.instant("2026-01-15T12:00:00Z")) == -5 * 3600)
        #expect(ny.offset(at: Fixture.instant("2026-07-15T12:00:00Z")) == -4 * 3600)
        // After 2037 only the POSIX footer rule gives the offsets.
        #expect(ny.offset(at: Fixture.instant("2100-07-15T12:00:00Z")) == -4 * 3600)
        #expect(ny.offset(at: Fixture.instant("2100-12-15T12:00:00Z")) == -5 * 3600)
    }

    @Test func aTimeInTheSpringGapMovesForwardByTheGap() {
        #expect(resolved("America/New_York", "2026-03-08T02:30") == ("2026-03-08T03:30:00-04:00", 3600))
        #expect(resolved("Europe/Berlin", "2026-03-29T02:30") == ("2026-03-29T03:30:00+02:00", 3600))
        #expect(resolved("America/New_York", "2026-03-08T03:00") == ("2026-03-08T03:00:00-04:00", 0))
        #expect(resolved("America/New_York", "2026-03-08T01:59") == ("2026-03-08T01:59:00-05:00", 0))
    }

    @Test func aRepeatedTimeTakesTheEarlierInstant() {
        #expect(resolved("America/New_York", "2026-11-01T01:30") == ("2026-11-01T01:30:00-04:00", 0))
        #expect(resolved("Europe/Berlin", "2026-10-25T02:30") == ("2026-10-25T02:30:00+02:00", 0))
        #expect(resolved("America/New_York", "2026-11-01T02:00") == ("2026-11-01T02:00:00-05:00", 0))
    }

    @Test func lordHoweShiftsByHalfAnHour() {
        // 2026-10-04 02:00 → 02:30 (+10:30 → +11); 2026-04-05 02:00 → 01:30.
        #expect(resolved("Australia/Lord_Howe", "2026-10-04T02:15") == ("2026-10-04T02:45:00+11:00", 1800))
        #expect(resolved("Australia/Lord_Howe", "2026-04-05T01:45") == ("2026-04-05T01:45:00+11:00", 0))
        #expect(resolved("Australia/Lord_Howe", "2026-04-05T02:00") == ("2026-04-05T02:00:00+10:30", 0))
    }

    @Test func apiaSkippedTheThirtiethOfDecember2011() {
        let apia = Fixture.zone("Pacific/Apia")
        #expect(resolved("Pacific/Apia", "2011-12-30T09:00") == ("2011-12-31T09:00:00+14:00", 86_400))
        #expect(resolved("Pacific/Apia", "2011-12-29T23:59") == ("2011-12-29T23:59:00-10:00", 0))
        let midnight = apia.resolve(Fixture.local("2011-12-31T00:00")).instant
        #expect(apia.localDateTime(at: midnight - 1).description == "2011-12-29T23:59:59")
    }

    @Test func everyZoneLoadsAndItsWindowsAreOrdered() throws {
        let table = try String(contentsOfFile: "/usr/share/zoneinfo/zone1970.tab", encoding: .utf8)
        let names = table.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
            String($0.split(separator: "\t")[2])
        }
        #expect(names.count > 300)
        for name in names {
            let rules = Fixture.zone(name)
            let changes = rules.changes
            for (a, b) in zip(changes, changes.dropFirst()) {
                #expect(a.instant < b.instant, "\(name)")
            }
        }
    }

    @Test func posixFooterRulesCoverBothHemispheres() throws {
        let sydney = Fixture.zone("Australia/Sydney")
        #expect(sydney.offset(at: Fixture.instant("2150-01-15T00:00:00Z")) == 11 * 3600)
        #expect(sydney.offset(at: Fixture.instant("2150-07-15T00:00:00Z")) == 10 * 3600)
        let dublin = Fixture.zone("Europe/Dublin")  // negative DST in the data: IST in summer, GMT in winter
        #expect(dublin.offset(at: Fixture.instant("2150-07-15T00:00:00Z")) == 3600)
        #expect(dublin.offset(at: Fixture.instant("2150-01-15T00:00:00Z")) == 0)
    }

    @Test func aDamagedFileIsRefusedWithTheReason() {
        #expect(throws: ZoneDataError(zone: "Bad/Zone", reason: "not a TZif file")) {
            try TimeZoneRules(
                identifier: "Bad/Zone", tzif: Array("not a zone file at all, but long enough to have a header".utf8))
        }
        #expect(throws: ZoneDataError.self) {
            try TimeZoneRules(identifier: "Short", tzif: Array("TZif2".utf8))
        }
    }
}
