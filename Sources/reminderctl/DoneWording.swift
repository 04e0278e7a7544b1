import ReminderProtocol

/// What `done` and `undo` say, in the word of the kind: a subscription or a fee is paid, a rebuy
/// rebought, a coupon or a benefit used (the pop-up's "Mark as used" and "Rebought"). A Done
/// of a subscription said "is available", which reads as if nothing had been paid; its Undo
/// then "is available again", which fits nothing the user saw.
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
        switch item.kind {
        case "subscription", "fee":
            if early || item.due == nil { return "Paid\(early ? " early" : ""): \(title)\(nextText(item))" }
            return "Paid: \(title) (due \(Output.day(item.due)))\(nextText(item))"
        case "rebuy":
            return "Rebought: \(title)\(nextDue(item, next: true))"
        default:
            return "Done: \(title) is \(item.status)\(nextText(item))"
        }
    }

    /// `undo`'s line: "Undone: Netflix is no longer marked paid; due 2026-12-05, next reminder …".
    static func undone(_ item: ItemView) -> String {
        let line = "Undone: \(shown(item.title)) is no longer marked \(verb(item.kind))"
        switch item.kind {
        case "subscription", "fee", "rebuy": return line + nextDue(item, next: false)
        default: return line + "; it is \(item.status) again\(nextText(item))"
        }
    }

    /// "; next due 2026-12-05, next reminder Sat 2026-11-28 09:00", or as much of it as is known.
    private static func nextDue(_ item: ItemView, next: Bool) -> String {
        guard item.due != nil else { return nextText(item) }
        return "; \(next ? "next due" : "due") \(Output.day(item.due))\(nextText(item))"
    }
}
