/// Why the bytes of a zone's TZif file could not be read, naming the zone.
public struct ZoneDataError: Error, Sendable, Equatable, CustomStringConvertible {
    public let zone: String
    public let reason: String

    public init(zone: String, reason: String) {
        self.zone = zone
        self.reason = reason
    }

    public var description: String { "time zone \(zone): \(reason)" }
}
