import CivilTime

/// A small reference model of what docs/CONTRACT.md promises about one item ("Occurrences, Done,
/// Snooze and Undo"), written from the contract and not from the engine, for `EngineModelTests`.
/// Occurrences are kept by their local due time: a new zone moves them with their wall time, as
/// the contract's "done, snoozed and shown reminders moved with it" says. Amounts are in cents.
struct ModelItem {
    enum Kind: CaseIterable { case coupon, benefit, subscription, fee, rebuy }

    /// What an Undo puts back: the item's fields as they were before a Done.
    struct Fields: Equatable {
        var title: String
        var amount: Int?
        /// A benefit's partial use, and the due of the period it counts for.
        var used: Int?
        var usedPeriod: LocalDateTime?
        /// A coupon's `expires`.
        var expires = LocalDateTime(localSeconds: 0)
        /// A subscription's `next`, a fee's `due`, a rebuy's `lastPurchased`.
        var date = LocalDate(dayNumber: 0)
        var everyDays = 30
        /// A benefit's period in months (1 monthly, 3 quarterly), its periods ending with the
        /// calendar's months, quarters.
        var periodMonths = 1
    }

    /// Why the model expects a command to be refused.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    let kind: Kind
    let id: String
    var fields: Fields
    var done: Set<LocalDateTime> = []
    /// Snooze ends (instants) by occurrence, with the settings generation they were moved out
    /// of quiet hours under.
    var snoozed: [LocalDateTime: (end: Int64, generation: Int)] = [:]
    var undo: [(fields: Fields, due: LocalDateTime?)] = []
    /// Repeat until acknowledged (CONTRACT §3): seconds apart, at most so many times.
    var repeats: (every: Int64, times: Int)?

    static let endOfDay = LocalTime(hour: 23, minute: 59)

    /// Local due times near `now` (a bounded window around it), in order.
    func dues(near now: Int64, zone: TimeZoneRules) -> [LocalDateTime] {
        let today = zone.localDateTime(at: now).date
        switch kind {
        case .coupon: return [fields.expires]
        case .rebuy: return [LocalDateTime(date: fields.date.adding(days: Int64(fields.everyDays)), time: Self.endOfDay)]
        case .benefit:
            let month = LocalDate(uncheckedYear: today.year, month: today.month, day: 1)
            return (-3..<15).map { month.adding(months: $0) }.filter { $0.month % fields.periodMonths == 0 }.map {
                LocalDateTime(date: $0.lastDayOfMonth, time: Self.endOfDay)
            }
        case .subscription:
            let start = max(0, fields.date.months(until: today) - 1)
            return (start..<start + 24).map {
                LocalDateTime(date: fields.date.adding(months: $0, anchorDay: fields.date.day), time: Self.endOfDay)
            }
        case .fee:
            let start = max(0, today.year - fields.date.year - 1)
            return (start..<start + 12).map {
                LocalDateTime(date: fields.date.adding(months: 12 * $0, anchorDay: fields.date.day), time: Self.endOfDay)
            }
        }
    }

    func instant(_ due: LocalDateTime, _ zone: TimeZoneRules) -> Int64 { zone.resolve(due).instant }

    /// The occurrence due next, done or not: the one Done means.
    func currentPeriod(now: Int64, zone: TimeZoneRules) -> LocalDateTime? {
        dues(near: now, zone: zone).first { instant($0, zone) > now }
    }

    /// The first occurrence still ahead that is not done: the one reminded and snoozed.
    func currentOccurrence(now: Int64, zone: TimeZoneRules) -> LocalDateTime? {
        dues(near: now, zone: zone).first { instant($0, zone) > now && !done.contains($0) }
    }

    /// The contract's statuses, folded to what the model tells apart (`expiring` is `open`).
    func status(now: Int64, zone: TimeZoneRules) -> String {
        guard let current = currentPeriod(now: now, zone: zone) else {
            if kind == .rebuy { return "overdue" }
            return done.isEmpty ? "expired" : "used"
        }
        return done.contains(current) ? "used" : "open"
    }

    /// A benefit's use counted for the current period: a use of an earlier period is over.
    func usedNow(now: Int64, zone: TimeZoneRules) -> Int? {
        guard let used = fields.used, fields.usedPeriod == currentPeriod(now: now, zone: zone) else { return nil }
        return used
    }

    /// CONTRACT §3, "What a Done belongs to": an edit of the dates carries what was done or
    /// snoozed of the occurrences still ahead to those at the same place in the new schedule (a
    /// coupon's one occurrence wherever it goes; a rebuy's Done is its purchase date). Returns
    /// the moves.
    @discardableResult
    mutating func carry(from old: ModelItem, now: Int64, zone: TimeZoneRules) -> [LocalDateTime: LocalDateTime] {
        var moves: [LocalDateTime: LocalDateTime] = [:]
        switch kind {
        case .rebuy: return [:]
        case .coupon: moves[old.fields.expires] = fields.expires
        default:
            let ahead = { (item: ModelItem) in item.dues(near: now, zone: zone).filter { item.instant($0, zone) > now } }
            for (from, to) in zip(ahead(old), ahead(self)) { moves[from] = to }
        }
        moves = moves.filter { $0.key != $0.value }
        guard !moves.isEmpty else { return [:] }
        done = Set(done.map { moves[$0] ?? $0 })
        snoozed = Dictionary(snoozed.map { (moves[$0.key] ?? $0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        undo = undo.map { (fields: $0.fields, due: $0.due.map { moves[$0] ?? $0 }) }
        return moves
    }

    /// Done (`amount` in cents, `early`): CONTRACT.md §2's "Done means" and §3's Done rules.
    mutating func markDone(amount: Int?, early: Bool, now: Int64, zone: TimeZoneRules) throws(Refusal) {
        if amount != nil, kind != .benefit { throw Refusal(description: "only a benefit records a partial use") }
        let before = fields
        if kind == .rebuy {
            let today = zone.localDateTime(at: now).date
            guard fields.date != today else { throw Refusal(description: "already rebought today") }
            let runsOut = dues(near: now, zone: zone)[0]
            done.insert(runsOut)
            fields.date = today
            undo.append((before, runsOut))
            return
        }
        guard let current = currentPeriod(now: now, zone: zone) else { throw Refusal(description: "nothing is due") }
        var target = current
        if done.contains(current) {
            guard early else { throw Refusal(description: "already done") }
            guard let next = currentOccurrence(now: now, zone: zone) else {
                throw Refusal(description: "every occurrence ahead is done already")
            }
            target = next
        }
        if kind == .benefit, let amount {
            guard target == current else { throw Refusal(description: "a partial use counts for the current period") }
            let total = (usedNow(now: now, zone: zone) ?? 0) + amount
            if let full = fields.amount, total < full {
                fields.used = total
                fields.usedPeriod = current
                undo.append((before, nil))
                return
            }
        }
        if kind == .benefit {
            fields.used = nil
            fields.usedPeriod = nil
        }
        done.insert(target)
        undo.append((before, target))
    }

    /// Undo: the item as before its latest Done, that Done's occurrence no longer done. "An edit
    /// made in between is undone with it": what it carried to the edited dates is carried back to
    /// the restored ones first.
    mutating func undoLatest(now: Int64, zone: TimeZoneRules) throws(Refusal) {
        guard let step = undo.popLast() else { throw Refusal(description: "nothing to undo") }
        let current = self
        fields = step.fields
        let moves = carry(from: current, now: now, zone: zone)
        if let due = step.due { done.remove(moves[due] ?? due) }
    }

    /// Snooze by `seconds` of elapsed time: clamped to a minute before the due time, then out of
    /// quiet hours; refused when nothing is due or the end is not in the future.
    mutating func snooze(
        seconds: Int64, lastMinute: Bool = false, now: Int64, settings: ModelSettings
    ) throws(Refusal) -> Int64 {
        guard let occurrence = currentOccurrence(now: now, zone: settings.zone) else {
            throw Refusal(description: "nothing is due")
        }
        let due = instant(occurrence, settings.zone)
        var end = lastMinute ? due - 60 : now + seconds
        if !lastMinute {
            if end >= due { end = due - 60 }
            if let window = settings.quietWindow(holding: end) { end = window.end < due ? window.end : window.start - 60 }
        }
        guard end > now, end < due else { throw Refusal(description: "too soon to snooze") }
        snoozed[occurrence] = (end, settings.generation)
        return end
    }

    /// When the current occurrence is snoozed to, if that is still ahead.
    func snoozedUntil(now: Int64, settings: ModelSettings) -> Int64? {
        guard let occurrence = currentOccurrence(now: now, zone: settings.zone),
            let end = snoozeEnd(of: occurrence, settings: settings), end > now
        else { return nil }
        return end
    }

    /// Where the snooze of `occurrence` ends: "a snooze never lands at or after D", so one an edit
    /// or a new zone carried there ends as a snooze given then would, a minute before D and out
    /// of quiet hours.
    func snoozeEnd(of occurrence: LocalDateTime, settings: ModelSettings) -> Int64? {
        guard var end = snoozed[occurrence]?.end else { return nil }
        let due = instant(occurrence, settings.zone)
        guard end >= due else { return end }
        end = due - 60
        if let window = settings.quietWindow(holding: end) { end = window.end < due ? window.end : window.start - 60 }
        return end
    }
}

/// The settings the model needs: the zone and the quiet window, and a generation that changes
/// with either (a snooze's end was moved out of the quiet hours of its generation).
struct ModelSettings {
    var zone: TimeZoneRules
    var quiet: (start: LocalTime, end: LocalTime)?
    var reminderTime: LocalTime
    var generation = 0

    /// The quiet window `[start, end)` holding `instant`, as instants, if any.
    func quietWindow(holding instant: Int64) -> (start: Int64, end: Int64)? {
        guard let quiet else { return nil }
        let local = zone.localSeconds(at: instant)
        let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let wraps = quiet.start > quiet.end
        for startDay in (day - 1)...day {
            let start = zone.resolve(localSeconds: startDay * 86_400 + Int64(quiet.start.secondsOfDay)).instant
            let end = zone.resolve(
                localSeconds: (startDay + (wraps ? 1 : 0)) * 86_400 + Int64(quiet.end.secondsOfDay)
            ).instant
            if start <= instant, instant < end { return (start, end) }
        }
        return nil
    }
}
