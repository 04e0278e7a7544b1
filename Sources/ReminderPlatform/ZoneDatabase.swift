import CivilTime
import ReminderCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Finds IANA zones in the system's zoneinfo directory (`$TZDIR`, else `/usr/share/zoneinfo`) —
/// the same files the C library and Python's `zoneinfo` read — and works out the system zone.
public final class ZoneDatabase: Sendable {
    public let directory: String
    private let cache = Mutex<[String: TimeZoneRules]>([:])

    public init(directory: String? = nil) {
        let environment = environmentVariable("TZDIR")
        self.directory = directory ?? (environment?.isEmpty == false ? environment! : "/usr/share/zoneinfo")
    }

    /// The process-wide database.
    public static let shared = ZoneDatabase()

    /// The zone called `name` (`Europe/Berlin`, `UTC`).
    public func zone(named name: String) throws(ReminderPlatformError) -> TimeZoneRules {
        if let cached = cache.withLock({ $0[name] }) { return cached }
        let valid =
            !name.isEmpty && !name.hasPrefix("/") && !name.split(separator: "/").contains("..")
            && name.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 }
        guard valid else { throw .unknownZone(name: name, reason: "not an IANA zone name like Europe/Berlin") }
        let bytes: [UInt8]
        do { bytes = try FileReader.read("\(directory)/\(name)") } catch {
            throw .unknownZone(name: name, reason: "not found in \(directory) (\(error))")
        }
        let rules: TimeZoneRules
        do { rules = try TimeZoneRules(identifier: name, tzif: bytes) } catch {
            throw .unknownZone(name: name, reason: error.description)
        }
        cache.withLock { $0[name] = rules }
        return rules
    }

    /// Every zone and link name the database lists (`tzdata.zi`'s Z and L lines, else
    /// `zone1970.tab`), for suggesting the one meant; empty when neither can be read.
    public func names() -> [String] {
        if let text = try? FileReader.read("\(directory)/tzdata.zi") {
            return String(decoding: text, as: UTF8.self).split(separator: "\n").compactMap { line in
                let words = line.split(separator: " ")
                switch words.first {
                case "Z" where words.count > 1: return String(words[1])
                case "L" where words.count > 2: return String(words[2])
                default: return nil
                }
            }
        }
        guard let text = try? FileReader.read("\(directory)/zone1970.tab") else { return [] }
        return String(decoding: text, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let columns = line.split(separator: "\t")
            return columns.count > 2 ? String(columns[2]) : nil
        }
    }

    /// The configured zone, or the system's when `name` is nil.
    public func zone(configured name: String?) throws(ReminderPlatformError) -> TimeZoneRules {
        if let name { return try zone(named: name) }
        return try systemZone()
    }

    /// `$TZ` (a zone name, optionally after `:`), else the zone `/etc/localtime` links to, else
    /// that file's own rules, else UTC.
    public func systemZone() throws(ReminderPlatformError) -> TimeZoneRules {
        if var tz = environmentVariable("TZ"), !tz.isEmpty {
            if tz.hasPrefix(":") { tz.removeFirst() }
            if tz.hasPrefix("/") {
                return try zone(file: tz, identifier: tz)
            }
            return try zone(named: tz)
        }
        if let name = ZoneDatabase.localtimeLinkName() { return try zone(named: name) }
        if let rules = try? zone(file: ZoneDatabase.localtimePath, identifier: "localtime") { return rules }
        return .utc
    }

    private func zone(file path: String, identifier: String) throws(ReminderPlatformError) -> TimeZoneRules {
        let bytes = try FileReader.read(path)
        do { return try TimeZoneRules(identifier: identifier, tzif: bytes) } catch {
            throw .unknownZone(name: identifier, reason: error.description)
        }
    }

    /// The system zone's link: `/etc/localtime`, or `$REMINDERD_LOCALTIME` (tests point it at a
    /// link of their own).
    public static var localtimePath: String {
        environmentVariable("REMINDERD_LOCALTIME").flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/localtime"
    }

    /// Whether the zone comes from the system (no `$TZ` to override `/etc/localtime`).
    public static var followsLocaltime: Bool {
        environmentVariable("TZ").map(\.isEmpty) ?? true
    }

    /// `Europe/Berlin` when `/etc/localtime` → `/usr/share/zoneinfo/Europe/Berlin`.
    static func localtimeLinkName() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(localtimePath, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let parts = target.split(separator: "/", omittingEmptySubsequences: true)
        guard let index = parts.lastIndex(of: "zoneinfo"), index + 1 < parts.count else { return nil }
        return parts[(index + 1)...].joined(separator: "/")
    }
}
