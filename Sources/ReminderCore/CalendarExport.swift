import CivilTime
import ICalendar

/// Items as an RFC 5545 calendar. A repeating item is one event with an `RRULE` and one relative
/// alarm per lead; an occurrence in the exported range whose reminders differ from what those
/// triggers give (quiet hours moved one, a DST gap, one fell before the item was created, two
/// collapsed) gets an override (`RECURRENCE-ID`) with absolute alarms at exactly the instants
/// `plan` gives. A coupon or a rebuy is one event with absolute alarms. A free trial's last day
/// is no renewal: it is an event of its own ("Hulu free trial ends", UID `ID-trial`), and the
/// subscription's series starts at the first charge after it, so a calendar shows no charge on
/// or before the trial's end (a series starting on that day would count it as one, and a weekly
/// or 30-day rule would step from it onto days that are never charged).
public enum CalendarExport {
    /// The calendar of `items` with the reminders `planner` gives in `[from, to)`, stamped at `from`.
    /// An item with a sync UID in `syncUIDs` (by item id) has it on each of its events as
    /// `X-REMINDERD-UID`: the event mirror names its events by it, the same on every device.
    public static func ics(items: [Item], planner: Planner, from: Int64, to: Int64, syncUIDs: [String: String] = [:])
        -> String
    {
        var alarms: [OccurrenceKey: [Int64]] = [:]
        for entry in planner.plan(items: items, from: from, to: to) {
            alarms[OccurrenceKey(item: entry.itemIndex, due: entry.fire.occurrence.due), default: []].append(
                entry.fire.fireAt)
        }
        let zone = planner.rules.zone
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//reminderd//reminderctl export//EN", "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH",
        ]
        // Floating times are meant in this zone; calendar programs that read the (widespread,
        // non-standard) property show them there.
        if zone.identifier.contains("/") || zone.identifier == "UTC" {
            lines.append("X-WR-TIMEZONE:\(zone.identifier)")
        }
        for (index, item) in items.enumerated() {
            var uid = ["UID:\(item.id ?? String(index + 1))@reminderd"]
            if let id = item.id, let synced = syncUIDs[id] { uid.append("X-REMINDERD-UID:\(TextValue.escape(synced))") }
            let trial = trialEnd(of: item, rules: planner.rules)
            var occurrences: [Occurrence] = []
            planner.rules.forEachOccurrence(of: item, dueAfter: from, before: to) {
                occurrences.append($0)
                return true
            }
            let planned = { (occurrence: Occurrence) in
                (alarms[OccurrenceKey(item: index, due: occurrence.due)] ?? []).sorted()
            }
            if let trial, occurrences.contains(trial) {
                occurrences.removeAll { $0 == trial }
                lines += ["BEGIN:VEVENT", "UID:\(item.id ?? String(index + 1))-trial@reminderd"] + uid.dropFirst()
                lines += ["DTSTAMP:\(utc(from))", "DTSTART:\(utc(trial.due))"]
                lines += details(item, trial: true) + absoluteAlarms(planned(trial), item: item, trial: true)
                lines.append("END:VEVENT")
            }
            guard let first = planner.rules.firstOccurrence(of: item, dueAfter: from, where: { $0 != trial }),
                let rule = CalendarRecurrence.rule(for: item, first: first.dueDate)
            else {
                for occurrence in occurrences {
                    lines += ["BEGIN:VEVENT"] + uid + ["DTSTAMP:\(utc(from))", "DTSTART:\(utc(occurrence.due))"]
                    lines += details(item) + absoluteAlarms(planned(occurrence), item: item) + ["END:VEVENT"]
                }
                continue
            }
            var triggers: [CalendarRecurrence.Trigger] = []
            for lead in planner.leads(for: item) {
                let trigger = CalendarRecurrence.trigger(lead: lead, reminderTime: planner.rules.reminderTime)
                if !triggers.contains(trigger) { triggers.append(trigger) }
            }
            lines += ["BEGIN:VEVENT"] + uid + [
                "DTSTAMP:\(utc(from))", "DTSTART:\(floating(first.dueDate))", "RRULE:\(rule)",
            ]
            lines += details(item)
            for trigger in triggers {
                lines += [
                    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(TextValue.escape(summary(item)))",
                    "TRIGGER:\(trigger.text)",
                    "END:VALARM",
                ]
            }
            lines.append("END:VEVENT")
            for occurrence in occurrences {
                let start = LocalDateTime(date: occurrence.dueDate, time: FireTimeRules.endOfDay).localSeconds
                let fromTriggers = Set(triggers.map { $0.instant(beforeLocal: start, in: zone) }).sorted()
                guard fromTriggers != planned(occurrence) else { continue }
                let local = floating(occurrence.dueDate)
                lines += ["BEGIN:VEVENT"] + uid + ["DTSTAMP:\(utc(from))", "RECURRENCE-ID:\(local)", "DTSTART:\(local)"]
                lines += details(item) + absoluteAlarms(planned(occurrence), item: item) + ["END:VEVENT"]
            }
        }
        lines.append("END:VCALENDAR")
        return lines.map(LineFolding.fold).joined(separator: "\r\n") + "\r\n"
    }

    private struct OccurrenceKey: Hashable {
        let item: Int
        let due: Int64
    }

    /// "Hulu renews"; `trial`: "Hulu free trial ends".
    private static func summary(_ item: Item, trial: Bool = false) -> String {
        "\(item.title) \(trial ? "free trial ends" : verb(item))"
    }

    /// The occurrence of a subscription's free trial's last day, while it has a trial.
    private static func trialEnd(of item: Item, rules: FireTimeRules) -> Occurrence? {
        guard case .subscription(let subscription) = item.schedule, let trialEnds = subscription.trialEnds else {
            return nil
        }
        return rules.occurrence(dueOn: trialEnds)
    }

    /// The properties every event of `item` carries after its start.
    private static func details(_ item: Item, trial: Bool = false) -> [String] {
        var lines = [
            "DURATION:PT1M", "SUMMARY:\(TextValue.escape(summary(item, trial: trial)))",
            "CATEGORIES:\(item.kind.rawValue.uppercased())",
        ]
        if let description = description(item) { lines.append("DESCRIPTION:\(TextValue.escape(description))") }
        return lines
    }

    private static func absoluteAlarms(_ instants: [Int64], item: Item, trial: Bool = false) -> [String] {
        instants.flatMap { instant in
            [
                "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(TextValue.escape(summary(item, trial: trial)))",
                "TRIGGER;VALUE=DATE-TIME:\(utc(instant))", "END:VALARM",
            ]
        }
    }

    static func verb(_ item: Item) -> String {
        switch item.schedule {
        case .benefit, .coupon: return "expires"
        case .subscription: return "renews"
        case .fee: return "annual fee due"
        case .rebuy: return "runs out"
        }
    }

    static func description(_ item: Item) -> String? {
        var parts: [String] = []
        let currency = item.currency ?? "USD"
        switch item.schedule {
        case .benefit(let b):
            if let card = b.card { parts.append(card) }
            if let amount = b.amount { parts.append(amount.formatted(currency: currency)) }
        case .subscription(let s):
            if let amount = s.amount {
                parts.append(amount.formatted(currency: currency) + NotificationText.per(s.every))
            }
            if let card = s.card { parts.append("on \(card)") }
        case .coupon(let c):
            if let code = c.code { parts.append("code \(code)") }
        case .fee(let f):
            if let card = f.card { parts.append(card) }
            if let amount = f.amount { parts.append(amount.formatted(currency: currency)) }
        case .rebuy(let r):
            if let category = r.category { parts.append(category) }
        }
        if let notes = item.notes { parts.append(notes) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// `20261124T140000Z`.
    static func utc(_ instant: Int64) -> String { DateTimeValue.utc(instant).description }

    /// `20261130T235900`: 23:59 on `date`, on whatever wall clock the calendar shows.
    static func floating(_ date: LocalDate) -> String {
        DateTimeValue(local: LocalDateTime(date: date, time: FireTimeRules.endOfDay), zoneID: nil).description
    }
}
