import CivilTime
import ReminderJSON

/// The `workdays` setting (CONTRACT §3, "Working days"): which weekdays are working days and
/// whose public holidays are not. A reminder that would come on a day off comes on the working
/// day before (`FireTimeRules.moveToWorkday`).
public struct Workdays: Hashable, Sendable {
    /// Working weekdays as bits, bit 0 = Sunday … bit 6 = Saturday (`LocalDate.weekday`).
    public let weekdays: UInt8
    /// A region of `HolidayTable`, or nil for weekdays alone.
    public let holidays: String?

    public init(weekdays: UInt8, holidays: String?) {
        self.weekdays = weekdays
        self.holidays = holidays
    }

    /// How far back a move off days off can go, with room to spare: a week has a working day,
    /// and no region's run of holidays and weekend in the table is longer than two weeks.
    public static let longestMove: Int64 = 21 * 86_400

    /// The regions whose holidays ship with the program, and the years they cover.
    public static var regions: [String] { HolidayTable.regions.keys.sorted() }
    public static var holidayYears: ClosedRange<Int> { HolidayTable.years }
    public static var holidaySource: String { HolidayTable.source }

    /// Why `date` is a day off ("Saturday is not a working day", "Christmas Day (US)"), or nil
    /// on a working day. A holiday outside `holidayYears` is not known, so not a day off.
    public func dayOff(_ date: LocalDate) -> String? {
        let day = date.dayNumber
        if let region = holidays, let table = HolidayTable.regions[region] {
            let key = UInt32(truncatingIfNeeded: day) << 8
            var low = 0
            var high = table.count
            while low < high {  // the first entry at or after the day
                let middle = (low + high) / 2
                if table[middle] & ~0xFF < key { low = middle + 1 } else { high = middle }
            }
            if low < table.count, table[low] & ~0xFF == key, day >= 0 {
                return "\(HolidayTable.names[Int(table[low] & 0xFF)]) (\(region))"
            }
        }
        if weekdays & (1 << UInt8(date.weekday)) == 0 {
            return "\(LocalDate.weekdayNames[date.weekday]) is not a working day"
        }
        return nil
    }

    /// Reads `{"days": "mon-fri", "holidays": "US"}`; `days` defaults to Monday to Friday,
    /// `holidays` to none.
    public init(json: JSONValue) throws(ReminderCoreError) {
        var fields = try FieldReader(json, path: "workdays")
        var weekdays: UInt8 = 0b0111110
        if let days = try fields.string("days") { weekdays = try Workdays.parseDays(days) }
        let region = try fields.string("holidays")
        if let region, HolidayTable.regions[region] == nil {
            throw .invalidValue(
                field: "workdays.holidays",
                reason: "\(quoted(region)) is not a holiday region; use one of "
                    + Workdays.regions.joined(separator: ", "))
        }
        try fields.rejectUnknown()
        self.init(weekdays: weekdays, holidays: region)
    }

    static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    /// "mon-fri", "sun-thu", "mon,wed,fri", "fri-mon" (a range may wrap past Sunday).
    static func parseDays(_ text: String) throws(ReminderCoreError) -> UInt8 {
        func bad(_ why: String) -> ReminderCoreError {
            .invalidValue(
                field: "workdays.days",
                reason: "\(quoted(text)): \(why); write days as mon, tue, wed, thu, fri, sat, sun, "
                    + "ranges like mon-fri, separated by commas")
        }
        func index(_ name: Substring) throws(ReminderCoreError) -> Int {
            let name = name.trimmingSpaces.lowercased()
            guard let found = dayNames.firstIndex(of: name) else { throw bad("\(quoted(name)) is not a day") }
            return found
        }
        var bits: UInt8 = 0
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = part.split(separator: "-", omittingEmptySubsequences: false)
            guard ends.count <= 2 else { throw bad("\(quoted(String(part))) is not a day or a range") }
            let first = try index(ends[0])
            let last = try index(ends[ends.count - 1])
            var day = first
            while true {
                bits |= 1 << UInt8(day)
                if day == last { break }
                day = (day + 1) % 7
            }
        }
        return bits
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
