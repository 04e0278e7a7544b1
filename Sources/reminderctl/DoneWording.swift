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
        case "subscription", "fee": _t("paid")
        case "rebuy": _t("rebought")
        default: _t("used")
        }
    }

    /// `done`'s line: "Paid: Netflix (due 2026-12-05), next reminder …", "Rebought: Coffee; next
    /// due 2027-01-04", "Done: Pizza is used". A paid occurrence stays the item's due one until it
    /// passes, so its date is the one paid; a rebuy's Done starts its next cycle, so its date is
    /// the next one. `early` paid the occurrence after the due one, so that date is left out.
    static func done(_ item: ItemView, early: Bool = false) -> String {
        let title = shown(item.title)
        if item.taskList { return "Done: \(title) (completed in its task list)" }
        switch item.kind {
        case .subscription, .fee:
            if early { return _t("Paid early: %1$s%2$s").filled(title, nextText(item)) }
            if item.due == nil { return _t("Paid: %1$s%2$s").filled(title, nextText(item)) }
            return _t("Paid: %1$s (due %2$s)%3$s").filled(title, Output.day(item.due), nextText(item))
        case .rebuy:
            return _t("Rebought: %1$s%2$s").filled(title, nextDue(item, next: true))
        default:
            return _t("Done: %1$s is %2$s%3$s").filled(title, Output.status(item), nextText(item))
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
            if usedBefore > .zero {
                return _t("Recorded %1$s more: %2$s of %3$s %4$s used; reminders go on for the remaining %5$s").filled(
                    text(usedNow - usedBefore), text(usedNow), text(total), title, text(total - usedNow))
            }
            return _t("Recorded %1$s of %2$s %3$s used; reminders go on for the remaining %4$s").filled(
                text(usedNow), text(total), title, text(total - usedNow))
        }
        let given = money(asked)
        guard usedBefore > .zero || (given.map { $0 != leftBefore } ?? false) else { return nil }
        let beyond = given.map { $0 > leftBefore ? _t(" (not the %1$s given)").filled(text($0)) : "" } ?? ""
        return _t("Recorded %1$s, all that was left of %2$s%3$s: %4$s is used%5$s").filled(
            text(leftBefore), text(total), beyond, title, nextText(after))
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
            let left =
                item.amountLeft.map { _t(": %1$s left").filled($0.formatted(currency: currency, in: TerminalLocale.money)) }
                ?? ""
            let amount = removed.formatted(currency: currency, in: TerminalLocale.money)
            return _t("Undone: the %1$s use of %2$s is removed%3$s%4$s").filled(amount, title, left, nextText(item))
        }
        if item.status == .used {
            return _t(
                "Undone: the latest Done of %1$s is removed; it is still %2$s for the occurrence due %3$s (reminderctl undo again restores that too)"
            ).filled(title, verb(item.kindName), Output.day(item.due))
        }
        switch item.kind {
        case .subscription, .fee, .rebuy:
            return _t("Undone: %1$s is due again%2$s%3$s").filled(title, dueWords(item, until: false), nextText(item))
        default:
            if item.status == .expired {
                return _t("Undone: %1$s is not used; it expired%2$s").filled(title, dueWords(item, until: false))
            }
            let left = item.amountLeft.map { _t(": %1$s left").filled(Output.amount($0, currency: item.currency)) }
            return _t("Undone: %1$s is available again%2$s%3$s%4$s").filled(
                title, left ?? "", dueWords(item, until: true), nextText(item))
        }
    }

    /// " on 2026-11-15 (13 days ago)", " until 2026-12-31 (in 3 days)", or "" without a due date.
    private static func dueWords(_ item: ItemView, until: Bool) -> String {
        guard item.due != nil else { return "" }
        let day = Output.day(item.due)
        guard let days = item.daysLeft.map({ Output.days($0) }) else {
            // " on %1$s" with a card is another message (NotificationText): a context of its own.
            return (until ? _t(" until %1$s") : _p("a due date", " on %1$s")).filled(day)
        }
        return (until ? _t(" until %1$s (%2$s)") : _t(" on %1$s (%2$s)")).filled(day, days)
    }

    private static func money(_ text: String?) -> Money? {
        guard let text, case .success(let amount) = Money.parse(text) else { return nil }
        return amount
    }

    /// "; next due 2026-12-05, next reminder Sat 2026-11-28 09:00", or as much of it as is known.
    private static func nextDue(_ item: ItemView, next: Bool) -> String {
        guard item.due != nil else { return nextText(item) }
        return (next ? _t("; next due %1$s%2$s") : _t("; due %1$s%2$s")).filled(Output.day(item.due), nextText(item))
    }
}
