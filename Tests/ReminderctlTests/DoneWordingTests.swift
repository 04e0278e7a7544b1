import ReminderJSON
import ReminderProtocol
import Testing

@testable import reminderctl

/// `done` and `undo` in the kind's word (issue #22): a subscription is paid, a rebuy rebought; a
/// Done of a subscription said "is available" and its Undo "is available again"; and what each
/// recorded or restored (issue 28).
@Suite struct DoneWordingTests {
    func item(_ kind: String, _ title: String, status: String, due: String?, next: String?) -> ItemView {
        var fields: [String: JSONValue] = [
            "id": .string("k4s8"), "kind": .string(kind), "title": .string(title), "status": .string(status),
        ]
        if let due { fields["due"] = .string(due) }
        if let next { fields["nextReminder"] = .string(next) }
        return ItemView.reply(fields)
    }

    @Test func aSubscriptionIsPaidAndARebuyRebought() {
        let netflix = item(
            "subscription", "Netflix", status: "available", due: "2030-04-05T23:59:00Z", next: "2030-03-29T09:00:00Z")
        #expect(DoneWording.done(netflix) == "Paid: Netflix (due 2030-04-05), next reminder Fri 2030-03-29 09:00")
        #expect(DoneWording.done(netflix, early: true) == "Paid early: Netflix, next reminder Fri 2030-03-29 09:00")
        let coffee = item("rebuy", "Coffee", status: "available", due: "2030-04-04T23:59:00Z", next: nil)
        #expect(DoneWording.done(coffee) == "Rebought: Coffee; next due 2030-04-04")
        let fee = item("fee", "Gold fee", status: "available", due: "2031-01-15T23:59:00Z", next: nil)
        #expect(DoneWording.done(fee) == "Paid: Gold fee (due 2031-01-15)")
    }

    @Test func aCouponIsStillUsed() {
        let pizza = item("coupon", "Pizza", status: "used", due: "2030-04-05T23:59:00Z", next: nil)
        #expect(DoneWording.done(pizza) == "Done: Pizza is used")
    }

    /// Undo says what it restored (issue 28): the item due again, a partial use taken back with
    /// what is left, or that an earlier Done still stands — never "no longer marked used; it is
    /// used again".
    @Test func undoSaysWhatItRestored() {
        var netflix = item(
            "subscription", "Netflix", status: "available", due: "2030-03-05T23:59:00Z", next: "2030-03-04T09:00:00Z")
        netflix = with(netflix, ["daysLeft": .integer(4)])
        #expect(
            DoneWording.undone(netflix)
                == "Undone: Netflix is due again on 2030-03-05 (in 4 days), next reminder Mon 2030-03-04 09:00")
        let coffee = with(
            item("rebuy", "Coffee", status: "overdue", due: "2030-03-01T23:59:00Z", next: nil), ["daysLeft": .integer(-13)])
        #expect(DoneWording.undone(coffee) == "Undone: Coffee is due again on 2030-03-01 (13 days ago)")
        let pizza = item("coupon", "Pizza", status: "available", due: "2030-04-05T23:59:00Z", next: nil)
        #expect(DoneWording.undone(pizza) == "Undone: Pizza is available again until 2030-04-05")
        let uber = ["currency": JSONValue.string("USD"), "amount": .string("25")]
        let before = with(item("benefit", "Uber Cash", status: "available", due: nil, next: nil), uber.merging(
            ["amountUsed": .string("15"), "amountLeft": .string("10")]) { $1 })
        let after = with(item("benefit", "Uber Cash", status: "available", due: nil, next: nil), uber.merging(
            ["amountUsed": .string("7.5"), "amountLeft": .string("17.5")]) { $1 })
        #expect(DoneWording.undone(after, before: before) == "Undone: the $7.50 use of Uber Cash is removed: $17.50 left")
        let stillUsed = item("benefit", "Uber Cash", status: "used", due: "2030-03-31T23:59:00Z", next: nil)
        let text = DoneWording.undone(stillUsed, before: stillUsed)
        #expect(text.hasPrefix("Undone: the latest Done of Uber Cash is removed; it is still used for the occurrence due 2030-03-31"))
        #expect(!text.contains("no longer marked"))
    }

    /// `done --amount 20` with $10 left says it recorded the $10, and a Done after a partial use
    /// says what was left.
    @Test func doneSaysWhatItRecorded() {
        let fields: [String: JSONValue] = ["currency": .string("USD"), "amount": .string("25")]
        let before = with(
            item("benefit", "Uber Cash", status: "available", due: nil, next: nil),
            fields.merging(["amountUsed": .string("15"), "amountLeft": .string("10")]) { $1 })
        let used = with(item("benefit", "Uber Cash", status: "used", due: nil, next: nil), fields)
        #expect(
            DoneWording.recorded(before: before, after: used, asked: "20")
                == "Recorded $10, all that was left of $25 (not the $20 given): Uber Cash is used")
        #expect(
            DoneWording.recorded(before: before, after: used, asked: nil)
                == "Recorded $10, all that was left of $25: Uber Cash is used")
        let partly = with(used, ["status": .string("available"), "amountUsed": .string("20")])
        #expect(
            DoneWording.recorded(before: before, after: partly, asked: "5")
                == "Recorded $5 more: $20 of $25 Uber Cash used; reminders go on for the remaining $5")
        let whole = with(before, ["amountUsed": .null, "amountLeft": .string("25")])
        #expect(DoneWording.recorded(before: whole, after: used, asked: nil) == nil)
        #expect(DoneWording.recorded(before: nil, after: netflixPaid, asked: nil) == nil)
    }

    var netflixPaid: ItemView { item("subscription", "Netflix", status: "used", due: nil, next: nil) }

    func with(_ view: ItemView, _ more: [String: JSONValue]) -> ItemView {
        view.with(more)
    }
}
