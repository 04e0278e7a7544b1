import CivilTime
import ReminderCore

/// What converting between items and resources needs besides them: the device's rules and
/// leads, the time, and the zone database (which this pure module does not open itself).
public struct SyncContext: Sendable {
    public var planner: Planner
    /// Unix seconds: DTSTAMP, LAST-MODIFIED, and which occurrence is current.
    public var now: Int64
    /// The rules of an IANA zone by name, for times another client wrote in its own `TZID`.
    public var zoneNamed: @Sendable (String) -> TimeZoneRules?
    /// `sync.otherTasks`: other apps' tasks read as reminders (`TaskListTask`), not skipped.
    public var otherTasks: Bool

    public init(
        planner: Planner, now: Int64, zoneNamed: @escaping @Sendable (String) -> TimeZoneRules? = { _ in nil },
        otherTasks: Bool = false
    ) {
        self.planner = planner
        self.now = now
        self.zoneNamed = zoneNamed
        self.otherTasks = otherTasks
    }

    public var rules: FireTimeRules { planner.rules }
    public var zone: TimeZoneRules { planner.rules.zone }
}
