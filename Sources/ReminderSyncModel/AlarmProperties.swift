import CivilTime
import ICalendar
import ReminderCore

/// The phone's alarms and the acknowledgements every client shares.
///
/// One `VALARM` per lead, `TRIGGER;RELATED=END` relative to `DUE`, so it still fits after a
/// client rolls the master. They cannot follow quiet hours: reminderd's own pop-ups come from its
/// rules, never from these. An alarm is reminderd's when it carries `X-REMINDERD-LEAD`, or when
/// its trigger has the length of one of the item's leads (clients that drop X- properties in
/// alarms); any other alarm is the person's own and is left alone. (An alarm of a lead that was
/// removed goes only when it still carries `X-REMINDERD-LEAD`.)
enum AlarmProperties {
    static let leadProperty = ItemProperties.prefix + "LEAD"

    /// Puts one alarm per lead of `record` into `todo`, reusing the alarm already there for a
    /// lead (its UID, ACKNOWLEDGED and anything else a client added; a trigger the server
    /// rewrote to the same length is kept as the server wrote it), and writes the acknowledgements.
    static func write(_ record: SyncRecord, into todo: inout Component, summary: String, context: SyncContext) {
        let leads = context.planner.leads(for: record.item)
        var wanted: [(lead: CalendarDuration, trigger: DurationValue)] = []
        for lead in leads {
            let trigger = CalendarRecurrence.trigger(lead: lead, reminderTime: context.rules.reminderTime).duration
            if !wanted.contains(where: { $0.trigger.isSameLength(as: trigger) }) { wanted.append((lead, trigger)) }
        }
        var unclaimed = todo.components
        var alarms: [Component] = []
        for (lead, trigger) in wanted {
            var alarm =
                claim(from: &unclaimed) { sameTrigger($0, trigger) }
                ?? Component(
                    "VALARM",
                    properties: [
                        Property("ACTION", "DISPLAY"),
                        Property("TRIGGER", trigger.description, parameters: [Parameter("RELATED", ["END"])]),
                    ])
            if var triggerProperty = alarm.property("TRIGGER") {
                triggerProperty.setParameter("RELATED", "END")
                alarm.set(triggerProperty)
            }
            alarm.set("DESCRIPTION", TextValue.escape(summary))
            alarm.set(leadProperty, lead.description)
            writeRepeat(RepeatRule.of(record.item, context.planner.configuration), into: &alarm)
            if let acknowledged = record.alarms.lastAcknowledged {
                alarm.set("ACKNOWLEDGED", DateTimeValue.utc(acknowledged).description)
            } else {
                alarm.remove("ACKNOWLEDGED")
            }
            alarms.append(alarm)
        }
        // Ours that no lead wants any more go; everything else stays where it was.
        let kept = unclaimed.filter { !($0.name == "VALARM" && $0.property(leadProperty) != nil) }
        todo.components = kept + alarms
        writeAcknowledgements(record.alarms, into: &todo)
    }

    /// Repeat until acknowledged as RFC 5545 says an alarm repeats (§3.6.6, both or neither):
    /// `REPEAT` more times, `DURATION` apart — the rule this device follows, so a phone's alarm
    /// repeats as the pop-up here does. The item's own fields travel as `X-REMINDERD-REPEAT-*`.
    static func writeRepeat(_ rule: RepeatRule?, into alarm: inout Component) {
        guard let rule else {
            alarm.remove("REPEAT")
            alarm.remove("DURATION")
            return
        }
        alarm.set("REPEAT", String(rule.times))
        alarm.set("DURATION", DurationValue(isNegative: false, days: 0, seconds: rule.every.nominalSeconds).description)
    }

    private static func claim(from components: inout [Component], where match: (Component) -> Bool) -> Component? {
        guard let index = components.firstIndex(where: { $0.name == "VALARM" && match($0) }) else { return nil }
        return components.remove(at: index)
    }

    private static func sameTrigger(_ alarm: Component, _ trigger: DurationValue) -> Bool {
        guard let property = alarm.property("TRIGGER"), property.parameter("VALUE") != "DATE-TIME",
            let value = DurationValue(text: property.value)
        else { return false }
        return value.isSameLength(as: trigger)
    }

    static func writeAcknowledgements(_ state: AlarmState, into todo: inout Component) {
        if let acknowledged = state.lastAcknowledged {
            todo.set("X-MOZ-LASTACK", DateTimeValue.utc(acknowledged).description)
        } else {
            todo.remove("X-MOZ-LASTACK")
        }
        // Thunderbird's per-occurrence form (`X-MOZ-SNOOZE-TIME-<µs>`) is folded into the one.
        todo.properties.removeAll { $0.name.hasPrefix("X-MOZ-SNOOZE-TIME-") }
        if let until = state.snoozedUntil {
            todo.set("X-MOZ-SNOOZE-TIME", DateTimeValue.utc(until).description)
        } else {
            todo.remove("X-MOZ-SNOOZE-TIME")
        }
    }

    /// The newest acknowledgement and snooze any client wrote on `todo` or its alarms.
    static func read(_ todo: Component, context: SyncContext) -> AlarmState {
        func instant(_ property: Property) -> Int64? {
            DateTimeValue(text: property.value)?.instant(in: context)
        }
        var acknowledgements = todo.properties("X-MOZ-LASTACK").compactMap(instant)
        for alarm in todo.components("VALARM") {
            acknowledgements += alarm.properties("ACKNOWLEDGED").compactMap(instant)
        }
        let snoozes = todo.properties.filter { $0.name.hasPrefix("X-MOZ-SNOOZE-TIME") }.compactMap(instant)
        return AlarmState(lastAcknowledged: acknowledgements.max(), snoozedUntil: snoozes.max())
    }
}
