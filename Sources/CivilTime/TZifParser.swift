/// Reads a TZif file (RFC 8536, versions 1–4) into `TimeZoneRules`.
///
/// Only the bytes are handled here; finding the file is `ReminderPlatform.ZoneDatabase`'s job,
/// which keeps this module free of I/O.
extension TimeZoneRules {
    public init(identifier: String, tzif bytes: [UInt8]) throws(ZoneDataError) {
        var reader = ByteReader(bytes: bytes, zone: identifier)
        let v1 = try reader.header()
        let header: TZifHeader
        let timeSize: Int
        if v1.version >= 2 {
            try reader.skip(v1.dataLength(timeSize: 4))
            header = try reader.header()
            timeSize = 8
        } else {
            header = v1
            timeSize = 4
        }
        var times: [Int64] = []
        times.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount { times.append(try reader.signed(size: timeSize)) }
        var typeIndices: [Int] = []
        for _ in 0..<header.timeCount { typeIndices.append(Int(try reader.byte())) }
        var typeOffsets: [Int32] = []
        for _ in 0..<header.typeCount {
            typeOffsets.append(Int32(truncatingIfNeeded: try reader.signed(size: 4)))
            try reader.skip(2)  // isdst, abbreviation index
        }
        guard !typeOffsets.isEmpty, typeIndices.allSatisfy({ $0 < typeOffsets.count }) else {
            throw ZoneDataError(zone: identifier, reason: "time type index out of range")
        }
        try reader.skip(header.charCount + header.leapCount * (timeSize + 4) + header.isStdCount + header.isUTCount)
        var changes = zip(times, typeIndices).map { ($0, typeOffsets[$1]) }
        let initial = typeOffsets[0]
        if v1.version >= 2, let footer = reader.footer(), !footer.isEmpty {
            let rule: PosixTimeZoneRule
            do { rule = try PosixTimeZoneRule(parsing: footer) } catch {
                throw ZoneDataError(zone: identifier, reason: "footer \"\(footer)\": \(error.reason)")
            }
            changes += rule.changes(after: times.last, through: LocalDate.supportedYears.upperBound + 1)
        }
        self.init(identifier: identifier, initialOffset: initial, changes: changes)
    }
}

private struct TZifHeader {
    let version: Int
    let isUTCount: Int
    let isStdCount: Int
    let leapCount: Int
    let timeCount: Int
    let typeCount: Int
    let charCount: Int

    func dataLength(timeSize: Int) -> Int {
        timeCount * timeSize + timeCount + typeCount * 6 + charCount + leapCount * (timeSize + 4) + isStdCount
            + isUTCount
    }
}

private struct ByteReader {
    let bytes: [UInt8]
    let zone: String
    var position = 0

    init(bytes: [UInt8], zone: String) {
        self.bytes = bytes
        self.zone = zone
    }

    mutating func need(_ count: Int) throws(ZoneDataError) {
        guard count >= 0, position + count <= bytes.count else {
            throw ZoneDataError(zone: zone, reason: "file ends early (at byte \(position), needs \(count) more)")
        }
    }

    mutating func skip(_ count: Int) throws(ZoneDataError) {
        try need(count)
        position += count
    }

    mutating func byte() throws(ZoneDataError) -> UInt8 {
        try need(1)
        defer { position += 1 }
        return bytes[position]
    }

    mutating func signed(size: Int) throws(ZoneDataError) -> Int64 {
        try need(size)
        var value: UInt64 = 0
        for i in 0..<size { value = value << 8 | UInt64(bytes[position + i]) }
        position += size
        if size == 4 { return Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: value))) }
        return Int64(bitPattern: value)
    }

    mutating func count() throws(ZoneDataError) -> Int {
        let value = try signed(size: 4)
        guard value >= 0, value < 1 << 20 else {
            throw ZoneDataError(zone: zone, reason: "implausible count \(value) in header")
        }
        return Int(value)
    }

    mutating func header() throws(ZoneDataError) -> TZifHeader {
        try need(44)
        guard bytes[position..<position + 4].elementsEqual("TZif".utf8) else {
            throw ZoneDataError(zone: zone, reason: "not a TZif file")
        }
        let versionByte = bytes[position + 4]
        position += 20
        return TZifHeader(
            version: versionByte == 0 ? 1 : Int(versionByte) - 0x30,
            isUTCount: try count(), isStdCount: try count(), leapCount: try count(),
            timeCount: try count(), typeCount: try count(), charCount: try count())
    }

    /// The POSIX TZ string between the two newlines that end a version 2+ file.
    func footer() -> String? {
        guard position < bytes.count, bytes[position] == 0x0A else { return nil }
        let rest = bytes[(position + 1)...]
        guard let end = rest.firstIndex(of: 0x0A) else { return nil }
        return String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
    }
}
