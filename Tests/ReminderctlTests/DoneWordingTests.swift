import ReminderJSON
import ReminderProtocol
import Testing

@testable import reminderctl

/// `done` and `undo` in the kind's word (issue #22): a subscription is paid, a rebuy rebought; a
/// Done of a subscription said "is available" and its Undo "is available again".
@Suite struct DoneWordingTests {
    func item(_ kind: String, _ title: String, status: String, due: String?, next: String?) -> ItemView {
        var fields: [String: JSONValue] = [
            "id": .string("k4s8"), "kind": .string(kind), "title": .string(title), "status": .string(status),
        ]
        if let due { fields["due"] = .string(due) }
        if let next { fields["nextReminder"] = .string(next) }
        return ItemView(fields: fields)
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

    @Test func undoSaysWhatIsNoLongerSoInTheWordDoneSaid() {
        let netflix = item(
            "subscription", "Netflix", status: "available", due: "2030-03-05T23:59:00Z", next: "2030-03-04T09:00:00Z")
        #expect(
            DoneWording.undone(netflix)
                == "Undone: Netflix is no longer marked paid; due 2030-03-05, next reminder Mon 2030-03-04 09:00")
        let coffee = item("rebuy", "Coffee", status: "overdue", due: "2030-03-01T23:59:00Z", next: nil)
        #expect(DoneWording.undone(coffee) == "Undone: Coffee is no longer marked rebought; due 2030-03-01")
        let pizza = item("coupon", "Pizza", status: "available", due: "2030-04-05T23:59:00Z", next: nil)
        #expect(DoneWording.undone(pizza) == "Undone: Pizza is no longer marked used; it is available again")
    }
}
