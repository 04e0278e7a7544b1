import CivilTime

/// One occurrence of an item: the instant it is due and the local date it is due on.
public struct Occurrence: Hashable, Sendable {
    /// Unix seconds.
    public let due: Int64
    /// The date the item names (the nominal date, even when a DST gap moved the instant).
    public let dueDate: LocalDate

    public init(due: Int64, dueDate: LocalDate) {
        self.due = due
        self.dueDate = dueDate
    }
}

/// Why a fire time is not simply "due − lead" or "reminder time on the day".
public enum FireAdjustment: String, Hashable, Sendable {
    /// The reminder time did not exist that day and was moved forward by the gap.
    case dstGap = "dst-gap"
    /// It fell in quiet hours and moved to their end.
    case quietHoursEnd = "quiet-hours-end"
    /// It fell in quiet hours whose end is too late, so it moved to a minute before they began.
    case quietHoursStart = "quiet-hours-start"
    /// It fell on a day off and moved to the working day before (`workdays`).
    case workday
}

/// One reminder of one occurrence.
public struct FireTime: Hashable, Sendable {
    public let occurrence: Occurrence
    public let lead: CalendarDuration
    /// Unix seconds.
    public let fireAt: Int64
    public let adjusted: FireAdjustment?
}

/// The fire-time rules of CONTRACT §3 for one zone and one set of settings.
public struct FireTimeRules: Sendable {
    public let zone: TimeZoneRules
    public let reminderTime: LocalTime
    public let quietHours: QuietHours?
    public let workdays: Workdays?

    /// Dates without a time are due at 23:59 local ("expires 11:59 PM").
    public static let endOfDay = LocalTime(hour: 23, minute: 59)

    public init(zone: TimeZoneRules, configuration: Configuration) {
        self.zone = zone
        self.reminderTime = configuration.reminderTime
        self.quietHours = configuration.quietHours
        self.workdays = configuration.workdays
    }

    /// The occurrence due at 23:59 on `date`.
    public func occurrence(dueOn date: LocalDate) -> Occurrence {
        occurrence(dueAt: LocalDateTime(date: date, time: FireTimeRules.endOfDay))
    }

    public func occurrence(dueAt dateTime: LocalDateTime) -> Occurrence {
        Occurrence(due: zone.resolve(dateTime).instant, dueDate: dateTime.date)
    }

    /// Appends the fire times of `occurrence` for `leads` to `result`, in lead order: each lead
    /// computed (1, 2), moved off a day off to the working day before, moved out of quiet hours
    /// (3), dropped at or after the due instant (4) or before `createdAt` (5), and equal instants
    /// collapsed into one — the longest lead's. A reminder moved off a day off to at or before a
    /// reminder that came before it merges into that one (`mergeMovedBack`).
    public func fireTimes(
        of occurrence: Occurrence, leads: [CalendarDuration], createdAt: Int64?, into result: inout [FireTime]
    ) {
        let first = result.count
        var planned: [CalendarDuration: Int64] = [:]  // each lead's fire time before a workday move
        var movedBack: Set<CalendarDuration> = []
        for lead in leads {
            var (fireAt, adjusted) = baseFireTime(of: occurrence, lead: lead)
            planned[lead] = fireAt
            if let moved = moveToWorkday(fireAt, lead: lead) {
                fireAt = moved.fireAt
                adjusted = .workday
                movedBack.insert(lead)
            }
            if let quietHours, let moved = moveOutOfQuietHours(fireAt, window: quietHours, due: occurrence.due) {
                fireAt = moved.fireAt
                adjusted = moved.adjustment
            }
            if fireAt >= occurrence.due { continue }
            if let createdAt, fireAt < createdAt { continue }
            let candidate = FireTime(occurrence: occurrence, lead: lead, fireAt: fireAt, adjusted: adjusted)
            if let same = result[first...].firstIndex(where: { $0.fireAt == fireAt }) {
                if lead.nominalSeconds > result[same].lead.nominalSeconds { result[same] = candidate }
            } else {
                result.append(candidate)
            }
        }
        if !movedBack.isEmpty { mergeMovedBack(movedBack, planned: planned, from: first, in: &result) }
    }

    /// Drops each reminder moved back off a day off to at or before the fire time of a reminder
    /// of the same occurrence that, unmoved, came before it: the person is reminded once there,
    /// not twice, nor in an order the leads do not have.
    func mergeMovedBack(
        _ movedBack: Set<CalendarDuration>, planned: [CalendarDuration: Int64], from first: Int,
        in result: inout [FireTime]
    ) {
        let fires = Array(result[first...])
        result.removeSubrange(first...)
        result += fires.filter { fire in
            guard movedBack.contains(fire.lead), let mine = planned[fire.lead] else { return true }
            return !fires.contains { other in other.fireAt >= fire.fireAt && planned[other.lead, default: .max] < mine }
        }
    }

    /// Working days: a fire time on a day off (`Workdays.dayOff`, on the local date) moves to the
    /// same wall time — the reminder time for a day lead — on the working day before. Nil when it
    /// is on a working day or no `workdays` are set.
    public func moveToWorkday(_ fireAt: Int64, lead: CalendarDuration) -> (
        fireAt: Int64, from: LocalDate, to: LocalDate, reason: String
    )? {
        guard let workdays else { return nil }
        let local = zone.localSeconds(at: fireAt)
        let day = local.floorDiv(86_400)
        let from = LocalDate(dayNumber: day)
        guard let reason = workdays.dayOff(from) else { return nil }
        let timeOfDay = lead.isElapsedTime ? local - day * 86_400 : Int64(reminderTime.secondsOfDay)
        var to = from.adding(days: -1)
        // Every week has a working day; a holiday run is days long, so this ends within weeks.
        while workdays.dayOff(to) != nil { to = to.adding(days: -1) }
        return (zone.resolve(localSeconds: to.dayNumber * 86_400 + timeOfDay).instant, from, to, reason)
    }

    /// Rules 1 and 2: a day lead fires at the reminder time `N` days before the due date; a time
    /// lead fires exactly `N` minutes or hours of elapsed time before the due instant.
    public func baseFireTime(of occurrence: Occurrence, lead: CalendarDuration) -> (
        fireAt: Int64, adjusted: FireAdjustment?
    ) {
        if lead.isElapsedTime { return (occurrence.due - lead.nominalSeconds, nil) }
        let day = occurrence.dueDate.dayNumber - lead.days
        let resolution = zone.resolve(localSeconds: day * 86_400 + Int64(reminderTime.secondsOfDay))
        return (resolution.instant, resolution.gapShift > 0 ? .dstGap : nil)
    }

    /// Rule 3: the quiet window `[start, end)` (as instants, each end resolved by the DST rule)
    /// that holds `fireAt`, if any, and where the fire time goes instead.
    public func moveOutOfQuietHours(_ fireAt: Int64, window: QuietHours, due: Int64) -> (
        fireAt: Int64, adjustment: FireAdjustment
    )? {
        let today = zone.localSeconds(at: fireAt).floorDiv(86_400)
        let startSeconds = Int64(window.start.secondsOfDay)
        let endSeconds = Int64(window.end.secondsOfDay) + (window.wrapsMidnight ? 86_400 : 0)
        // The window that began the day before (when it wraps midnight) is the earlier one.
        for day in (today - 1)...today {
            let start = zone.resolve(localSeconds: day * 86_400 + startSeconds).instant
            guard start <= fireAt else { continue }
            let end = zone.resolve(localSeconds: day * 86_400 + endSeconds).instant
            guard fireAt < end else { continue }
            return end < due ? (end, .quietHoursEnd) : (start - 60, .quietHoursStart)
        }
        return nil
    }

    /// Where a stored snooze of the occurrence due at `due` ends (CONTRACT §3: a snooze never
    /// lands at or after D). A snooze is stored as an instant, so one set before an edit moved the
    /// date earlier, or before a new zone moved its wall time, can lie at or after D: it ends as a
    /// snooze given then would, a minute before D, then out of quiet hours — the occurrence is
    /// still reminded, not swallowed by a snooze that never comes.
    public func snoozeEnd(stored until: Int64, due: Int64) -> Int64 {
        guard until >= due else { return until }
        let end = due - 60
        guard let quietHours, let moved = moveOutOfQuietHours(end, window: quietHours, due: due) else { return end }
        return moved.fireAt
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    func floorDiv(_ divisor: Int64) -> Int64 {
        let q = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? q - 1 : q
    }
}
