/// A moment as RFC 3339 writes it with a UTC offset (`2026-11-24T09:00:00-05:00`): the instant,
/// and the offset of the zone it was said in, so it is shown — and written back, character for
/// character — as that zone's wall time. The daemon says due times and reminders this way in its
/// zone; a client shows them in that zone, not in its own.
public struct OffsetDateTime: Hashable, Sendable, CustomStringConvertible {
    /// Seconds since the Unix epoch.
    public let instant: Int64
    public let offsetSeconds: Int32

    public init(instant: Int64, offsetSeconds: Int32) { (self.instant, self.offsetSeconds) = (instant, offsetSeconds) }

    /// `instant` as `zone` reads it.
    public init(_ instant: Int64, in zone: TimeZoneRules) {
        self.init(instant: instant, offsetSeconds: zone.offset(at: instant))
    }

    /// Reads an RFC 3339 timestamp (`Timestamp.parse`); nil when `text` is none.
    public init?(_ text: String) {
        guard case .success(let instant) = Timestamp.parse(text), let offset = Timestamp.offsetSeconds(text) else {
            return nil
        }
        self.init(instant: instant, offsetSeconds: Int32(offset))
    }

    /// The zone of one offset, to show the moment's wall time in.
    public var zone: TimeZoneRules { .fixed(identifier: "offset", offset: offsetSeconds) }

    /// `Timestamp.format` at this offset: the text it was read from, for any the daemon wrote.
    public var description: String { Timestamp.format(instant, offsetSeconds: offsetSeconds) }
}
