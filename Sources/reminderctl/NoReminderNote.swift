import CivilTime
import ReminderCore
import ReminderProtocol

/// What `add` and `edit` say when the item's current occurrence will get no reminder at all: each
/// lead's time and why it does not fire, as `explain` gives it, then what to do. Without it an
/// evening coupon that expires before quiet hours end got "next reminder none pending" and no
/// word of why (issue #22); so did a coupon added at noon that expires at 08:30 the next day.
enum NoReminderNote {
    /// The lines to print, or none when a reminder is still to come (or was shown already), or
    /// the item has no leads (no reminder was asked for). A step `explain` keeps whose time is
    /// not after `now` was passed over by the change just made: the daemon never shows a
    /// reminder whose time came before an edit.
    static func lines(_ steps: [ExplainReply.Step], id: String, now: Int64) -> [String] {
        func passed(_ step: ExplainReply.Step) -> Bool {
            guard step.result == "kept", let fireAt = step.fireAt, case .success(let at) = Timestamp.parse(fireAt)
            else { return false }
            return at <= now
        }
        guard let first = steps.first, steps.allSatisfy({ $0.result.hasPrefix("dropped") || passed($0) }) else {
            return []
        }
        var lines = [_t("No reminder will come before it is due, %1$s:").filled(Output.sentence(first.due))]
        let width = steps.map(\.lead.count).max() ?? 0
        for step in steps {
            let lead = step.lead.padding(width)
            var why = step.translatedResult
            if passed(step) {
                why = _t("its time had passed when the item or the settings changed")
            } else if step.result.hasPrefix("dropped: ") {
                // The why alone, in the terminal's language when the daemon sent its template.
                let english = String(step.result.dropFirst(9))
                why = step.resultTemplate?.nested(0)?.translated(saying: english) ?? english
            }
            let time = Output.when(step.fireAt ?? step.computed)
            lines.append("  \(lead)  \(time)  \(HumanTime.inText(why))")
        }
        if steps.contains(where: { $0.result.contains("quiet hours") }) {
            lines.append(
                _t(
                    "Quiet hours hold pop-ups until they end. To be reminded during them, change or turn them off: reminderctl setup --quiet-hours START-END (or none)"
                ))
        } else if steps.contains(where: { $0.result.hasSuffix("at or after the due time") }) {
            lines.append(_t("To be reminded, give a lead in hours or minutes: reminderctl edit %1$s --lead 1h").filled(id))
        } else {
            lines.append(_t("To be reminded, give a lead that is still ahead: reminderctl edit %1$s --lead 10m").filled(id))
        }
        return lines
    }
}
