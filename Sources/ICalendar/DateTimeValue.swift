/// A DATE or DATE-TIME value (RFC 5545 §3.3.4, §3.3.5): `20261130`, `20261130T235900` (floating,
/// or local to the property's `TZID`), `20261130T235900Z` (UTC). The zone is not resolved here:
/// that needs the zone database, which this pure module does not have.
public struct DateTimeValue: Hashable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    /// Seconds into the day; nil for a DATE.
    public var secondsOfDay: Int?
    public var isUTC: Bool
    /// The `TZID` parameter the value came with.
    public var timeZoneID: String?

    public init(
        year: Int, month: Int, day: Int, secondsOfDay: Int? = nil, isUTC: Bool = false, timeZoneID: String? = nil
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.secondsOfDay = secondsOfDay
        self.isUTC = isUTC
        self.timeZoneID = timeZoneID
    }

    /// Reads the value of `property`, naming it in the error.
    public init(_ property: Property) throws(ICalendarError.Value) {
        guard let value = DateTimeValue(text: property.value) else {
            throw .init(
                "\(property.name) \"\(property.value)\" is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS[Z])")
        }
        self = value
        if !isUTC, secondsOfDay != nil { timeZoneID = property.parameter("TZID") }
    }

    /// Parses the bare text, or nil when it is not one.
    public init?(text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 8 || bytes.count == 15 || bytes.count == 16 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var total = 0
            for byte in bytes[range] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                total = total * 10 + Int(byte - 0x30)
            }
            return total
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8), (1...12).contains(month),
            (1...31).contains(day)
        else { return nil }
        self.init(year: year, month: month, day: day)
        guard bytes.count > 8 else { return }
        guard bytes[8] == UInt8(ascii: "T"), let h = number(9..<11), let m = number(11..<13), let s = number(13..<15),
            h < 24, m < 60, s <= 60
        else { return nil }
        secondsOfDay = h * 3600 + m * 60 + min(s, 59)
        guard bytes.count == 16 else { return }
        guard bytes[15] == UInt8(ascii: "Z") else { return nil }
        isUTC = true
    }

    public var isDate: Bool { secondsOfDay == nil }

    /// The value text: `20261130`, `20261130T235900` or `20261130T235900Z`.
    public var description: String {
        var text = pad(year, 4) + pad(month, 2) + pad(day, 2)
        guard let seconds = secondsOfDay else { return text }
        text += "T" + pad(seconds / 3600, 2) + pad(seconds / 60 % 60, 2) + pad(seconds % 60, 2)
        return isUTC ? text + "Z" : text
    }

    /// The property `name` holding this value, with `TZID` or `VALUE=DATE` as it needs.
    public func property(_ name: String) -> Property {
        var parameters: [Parameter] = []
        if isDate { parameters.append(Parameter("VALUE", ["DATE"])) }
        if let timeZoneID, !isUTC, !isDate { parameters.append(Parameter("TZID", [timeZoneID])) }
        return Property(name, description, parameters: parameters)
    }
}

extension ICalendarError {
    /// A value that does not read as its type, before the line it is on is known.
    public struct Value: Error, Hashable, Sendable {
        public let reason: String
        public init(_ reason: String) { self.reason = reason }
    }
}

func pad(_ number: Int, _ width: Int) -> String {
    let digits = String(number)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
