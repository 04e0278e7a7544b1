import ICalendar
import Testing

@Suite struct ValueTests {
    @Test func serverRewrittenDurationsAreTheSameLength() throws {
        let ours = try #require(DurationValue(text: "-PT38H59M"))
        let servers = try #require(DurationValue(text: "-P1DT14H59M"))
        #expect(ours.isSameLength(as: servers))
        #expect(ours != servers)
        #expect(try #require(DurationValue(text: "-P1W")).approximateSeconds == -7 * 86_400)
        #expect(!ours.isSameLength(as: try #require(DurationValue(text: "PT38H59M"))))
    }

    @Test(arguments: ["", "P", "-P", "PT", "P1H", "PT1D", "P1DT", "P1D2", "P9999999999D", "1D", "PX"])
    func rejectsMalformedDurations(text: String) {
        #expect(DurationValue(text: text) == nil)
    }

    @Test func writesDurationsAsExportDoes() {
        #expect(DurationValue(isNegative: true, days: 1, seconds: 14 * 3600 + 59 * 60).description == "-P1DT14H59M")
        #expect(DurationValue(isNegative: true, days: 7, seconds: 0).description == "-P7D")
        #expect(DurationValue(isNegative: false, days: 0, seconds: 0).description == "PT0S")
    }

    @Test func readsDatesAndDateTimes() throws {
        let due = try DateTimeValue(
            Property("DUE", "20261130T235900", parameters: [Parameter("TZID", ["America/New_York"])]))
        #expect(due.timeZoneID == "America/New_York" && due.secondsOfDay == 86_340 && !due.isUTC)
        #expect(due.property("DUE").line == "DUE;TZID=America/New_York:20261130T235900")
        let utc = try #require(DateTimeValue(text: "20261124T140000Z"))
        #expect(utc.isUTC && utc.description == "20261124T140000Z")
        let date = try #require(DateTimeValue(text: "20261130"))
        #expect(date.isDate && date.property("DUE").line == "DUE;VALUE=DATE:20261130")
    }

    @Test(arguments: [
        "2026113", "20261330", "20261100", "20261130T2359", "20261130T245900", "20261130X235900", "20261130T235900Y",
    ])
    func rejectsMalformedDateTimes(text: String) {
        #expect(DateTimeValue(text: text) == nil)
        #expect(throws: ICalendarError.Value.self) { try DateTimeValue(Property("DUE", text)) }
    }
}
