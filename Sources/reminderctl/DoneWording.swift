import ReminderCore
import ReminderProtocol

/// What `done` and `undo` say, in the word of the kind: a subscription or a fee is paid, a rebuy
/// rebought, a coupon or a benefit used (the pop-up's "Mark as used" and "Rebought"). A Done
/// of a subscription said "is available", which reads as if nothing had been paid; its Undo
/// said "no longer marked used; it is used again" when an earlier Done still stood. Each says
/// what it recorded or restored, with amounts in their currency.
enum DoneWording {
    /// The word for a Done of `kind`.
    static func verb(_ kind: String) -> String {
        switch kind {
        case "subscription", "fee": "paid"
        case "rebuy": "rebought"
        default: "used"
        }
    }

    /// `done`'s line: "Paid: Netflix (due 2026-12-05), next reminder …", "Rebought: Coffee; next
    /// due 2027-01-04", "Done: Pizza is used". A paid occurrence stays the item's due one until it
    /// passes, so its date is the one paid; a rebuy's Done starts its next cycle, so its date is
    /// the next one. `early` paid the occurrence after the due one, so that date is left out.
    static func done(_ item: ItemView, early: Bool = false) -> String {
        let title = shown(item.title)
        if item.taskList == true { return "Done: \(title) (completed in its task list)" }
        switch item.kind {
        case .subscription, .fee:
            if early || item.due == nil { return "Paid\(early ? " early" : ""): \(title)\(nextText(item))" }
            return "Paid: \(title) (due \(Output.day(item.due)))\(nextText(item))"
        case .rebuy:
            return "Rebought: \(title)\(nextDue(item, next: true))"
        default:
            return "Done: \(title) is \(Output.status(item))\(nextText(item))"
        }
    }

    /// What a Done of a benefit recorded, from the item `before` it and `after`, when that is not
    /// simply its whole amount: "Recorded $5 of $15 Ride credit used; reminders go on for the
    /// remaining $10", "Recorded $3 more: …", "Recorded $6, all that was left of $10 (not the $20
    /// given): Uber Cash is used". Nil for the other kinds and a Done of a whole untouched period.
    /// Without `before` (it could not be read), nothing is taken as used before.
    static func recorded(before: ItemView?, after: ItemView, asked: String?) -> String? {
        guard after.kind == .benefit, let currency = after.currency, let total = after.amountThisPeriod ?? after.amount
        else { return nil }
        let leftBefore = before.flatMap { $0.status == .used ? nil : $0.amountLeft } ?? total
        func text(_ amount: Money) -> String { amount.formatted(currency: currency, in: TerminalLocale.money) }
        let usedBefore = total - leftBefore
        let title = shown(after.title)
        if let usedNow = after.amountUsed {
            let more = usedBefore > .zero ? "\(text(usedNow - usedBefore)) more: " : ""
            return "Recorded \(more)\(text(usedNow)) of \(text(total)) \(title) used; "
                + "reminders go on for the remaining \(text(total - usedNow))"
        }
        let given = money(asked)
        guard usedBefore > .zero || (given.map { $0 != leftBefore } ?? false) else { return nil }
        let beyond = given.map { $0 > leftBefore ? " (not the \(text($0)) given)" : "" } ?? ""
        return "Recorded \(text(leftBefore)), all that was left of \(text(total))\(beyond): "
            + "\(title) is used\(nextText(after))"
    }

    /// `undo`'s line, from the item `before` the Undo (nil when it could not be read) and
    /// `after`: what was restored. "Undone: the $7.50 use of Uber Cash is removed: $17.50 left",
    /// "Undone: Coffee is due again on 2026-11-15 (13 days ago)", "Undone: Pizza is available
    /// again until 2026-12-31 (in 3 days)"; when an earlier Done still stands, that it does.
    static func undone(_ item: ItemView, before: ItemView? = nil) -> String {
        let title = shown(item.title)
        if let before, before.status != .used, item.status != .used, let currency = item.currency,
            let removed = before.amountUsed.map({ $0 - (item.amountUsed ?? .zero) }), removed > .zero
        {
            let left = item.amountLeft.map { ": \($0.formatted(currency: currency, in: TerminalLocale.money)) left" } ?? ""
            let amount = removed.formatted(currency: currency, in: TerminalLocale.money)
            return "Undone: the \(amount) use of \(title) is removed\(left)\(nextText(item))"
        }
        if item.status == .used {
            return "Undone: the latest Done of \(title) is removed; it is still \(verb(item.kindName)) "
                + "for the occurrence due \(Output.day(item.due)) (reminderctl undo again restores that too)"
        }
        switch item.kind {
        case .subscription, .fee, .rebuy:
            return "Undone: \(title) is due again\(dueWords(item, "on"))\(nextText(item))"
        default:
            if item.status == .expired {
                return "Undone: \(title) is not used; it expired\(dueWords(item, "on"))"
            }
            let left = item.amountLeft.map { ": \(Output.amount($0, currency: item.currency)) left" }
            return "Undone: \(title) is available again\(left ?? "")\(dueWords(item, "until"))\(nextText(item))"
        }
    }

    /// " on 2026-11-15 (13 days ago)", or "" without a due date.
    private static func dueWords(_ item: ItemView, _ preposition: String) -> String {
        guard item.due != nil else { return "" }
        let days = item.daysLeft.map { " (\(Output.days($0)))" } ?? ""
        return " \(preposition) \(Output.day(item.due))\(days)"
    }

    private static func money(_ text: String?) -> Money? {
        guard let text, case .success(let amount) = Money.parse(text) else { return nil }
        return amount
    }

    /// "; next due 2026-12-05, next reminder Sat 2026-11-28 09:00", or as much of it as is known.
    private static func nextDue(_ item: ItemView, next: Bool) -> String {
        guard item.due != nil else { return nextText(item) }
        return "; \(next ? "next due" : "due") \(Output.day(item.due))\(nextText(item))"
    }
}
