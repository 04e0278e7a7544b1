/// RFC 3339 timestamps, as `createdAt`, `plan --from/--to` and every output use them.
public enum Timestamp {
    /// `2026-11-24T09:00:00-05:00`: the local reading with its UTC offset (`+00:00` for UTC).
    public static func format(_ instant: Int64, in zone: TimeZoneRules) -> String {
        format(instant, offsetSeconds: zone.offset(at: instant))
    }

    /// `format` at a known UTC offset (`OffsetDateTime`'s, as it was read).
    public static func format(_ instant: Int64, offsetSeconds: Int32) -> String {
        let offset = Int(offsetSeconds)
        let local = LocalDateTime(localSeconds: instant + Int64(offset))
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        let time = local.time
        return "\(local.date)T\(pad(time.hour, 2)):\(pad(time.minute, 2)):\(pad(time.second, 2))"
            + "\(sign)\(pad(magnitude / 3600, 2)):\(pad(magnitude / 60 % 60, 2))"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; a fraction of a second is dropped.
    public static func parse(_ text: String) -> Result<Int64, DateParseError> {
        // The forms reminderd itself writes (createdAt in every stored item: seconds, then Z or
        // ±HH:MM) without the general path's string slicing.
        let bytes = Array(text.utf8)
        if bytes.count == 20 || bytes.count == 25, bytes[10] == UInt8(ascii: "T"),
            case .success(let date) = LocalDate.parse(utf8: Array(bytes[0..<10])),
            case .success(let time) = LocalTime.parse(utf8: Array(bytes[11..<19]))
        {
            let local = LocalDateTime(date: date, time: time).localSeconds
            if bytes.count == 20, bytes[19] == UInt8(ascii: "Z") { return .success(local) }
            if bytes.count == 25, bytes[19] == UInt8(ascii: "+") || bytes[19] == UInt8(ascii: "-"),
                bytes[22] == UInt8(ascii: ":"), let hours = asciiNumber(bytes, 20..<22),
                let minutes = asciiNumber(bytes, 23..<25), hours < 24, minutes < 60
            {
                let offset = Int64(hours * 3600 + minutes * 60)
                return .success(bytes[19] == UInt8(ascii: "-") ? local + offset : local - offset)
            }
        }
        let expected = DateParseError.malformed("expected an RFC 3339 timestamp like 2026-11-21T09:00:00-05:00")
        var body = Substring(text)
        let offset: Int64
        if body.hasSuffix("Z") || body.hasSuffix("z") {
            offset = 0
            body = body.dropLast()
        } else {
            guard body.count > 6 else { return .failure(expected) }
            let zonePart = body.suffix(6)
            let sign = zonePart.first
            let hm = zonePart.dropFirst().split(separator: ":")
            guard sign == "+" || sign == "-", hm.count == 2,
                hm.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) }),
                let hours = Int64(hm[0]), let minutes = Int64(hm[1]), hours < 24, minutes < 60
            else { return .failure(expected) }
            offset = (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
            body = body.dropLast(6)
        }
        if let dot = body.firstIndex(of: ".") {
            guard body[body.index(after: dot)...].allSatisfy(\.isASCIIDigit), body.index(after: dot) < body.endIndex
            else {
                return .failure(expected)
            }
            body = body[..<dot]
        }
        guard body.count == 19, body.contains("T") || body.contains("t") || body.contains(" ") else {
            return .failure(expected)
        }
        switch LocalDateTime.parse(String(body).uppercased()) {
        case .success(let local): return .success(local.localSeconds - offset)
        case .failure(let error): return .failure(error)
        }
    }

    /// The UTC offset an RFC 3339 timestamp was written with, in seconds.
    public static func offsetSeconds(_ text: String) -> Int64? {
        if text.hasSuffix("Z") || text.hasSuffix("z") { return 0 }
        guard case .success(let instant) = parse(text) else { return nil }
        let local = String(text.prefix(19)).uppercased()
        guard case .success(let wall) = LocalDateTime.parse(local) else { return nil }
        return wall.localSeconds - instant
    }

    /// Parses what a person may give for a moment: an RFC 3339 timestamp, or a local date-time or
    /// date (midnight) read in `zone` by the spec's gap/overlap rule.
    public static func parseFlexible(_ text: String, in zone: TimeZoneRules) -> Result<Int64, DateParseError> {
        if case .success(let instant) = parse(text) { return .success(instant) }
        if case .success(let local) = LocalDateTime.parse(text) { return .success(zone.resolve(local).instant) }
        switch LocalDate.parse(text) {
        case .success(let date):
            return .success(zone.resolve(LocalDateTime(date: date, time: LocalTime(hour: 0, minute: 0))).instant)
        case .failure:
            return .failure(
                .malformed("expected a date (2026-11-21), a local time (2026-11-21T09:00) or an RFC 3339 timestamp"))
        }
    }
}
