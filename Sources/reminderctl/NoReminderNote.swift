import ReminderProtocol

/// What `add` and `edit` say when the item's current occurrence will get no reminder at all: each
/// lead's reason as `explain` gives it, and what to do. Without it an evening coupon that expires
/// before quiet hours end got "next reminder none pending" and no word of why (issue #22).
enum NoReminderNote {
    /// The lines to print, or none when a reminder is kept (or shown already), or the item has no
    /// leads (no reminder was asked for).
    static func lines(_ steps: [ExplainReply.Step], id: String) -> [String] {
        guard !steps.isEmpty, steps.allSatisfy({ $0.fireAt == nil }) else { return [] }
        let reasons = steps.map { step in
            let reason = step.result.hasPrefix("dropped: ") ? String(step.result.dropFirst(9)) : step.result
            return "\(step.lead) lead: \(HumanTime.inText(reason))"
        }
        var lines = ["No reminder will come for it. " + reasons.joined(separator: "; ") + "."]
        if steps.contains(where: { $0.result.contains("quiet hours") }) {
            lines.append(
                "Quiet hours hold pop-ups until they end. To be reminded during them, change or turn them off: "
                    + "reminderctl setup --quiet-hours START-END (or none)")
        } else if steps.contains(where: { $0.result.hasSuffix("before the item was added") }) {
            lines.append("To be reminded, give a lead that is still ahead: reminderctl edit \(id) --lead 10m")
        } else {
            lines.append("To be reminded, give a lead in hours or minutes: reminderctl edit \(id) --lead 1h")
        }
        return lines
    }
}
