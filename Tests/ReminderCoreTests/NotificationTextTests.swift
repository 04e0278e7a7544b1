import ReminderCore
import ReminderTestSupport
import Testing

@Suite struct NotificationTextTests {
    let ny = Fixture.zone("America/New_York")

    func text(_ json: String, dueOn due: String, now: String) throws -> NotificationText {
        let item = try Fixture.item(json, zone: ny)
        let rules = FireTimeRules(zone: ny, configuration: .defaults)
        let occurrence: Occurrence
        if due.count > 10 {
            occurrence = rules.occurrence(dueAt: Fixture.local(due))
        } else {
            occurrence = rules.occurrence(dueOn: Fixture.date(due))
        }
        return NotificationText(
            item: item, occurrence: occurrence, now: Fixture.instant(now), zone: ny, defaultCurrency: "USD", moneyLocale: nil)
    }

    /// The text without its bidi isolates, to compare the words.
    func plain(_ text: String) -> String { text.filter { $0 != "\u{2068}" && $0 != "\u{2069}" } }

    @Test func theSummaryNamesTheItemAndUserTextIsIsolated() throws {
        let coupon = try text(
            #"{"kind":"coupon","title":"קופון פיצה","expires":"2026-11-21","code":"ABC1"}"#, dueOn: "2026-11-21",
            now: "2026-11-21T09:00:00-05:00")
        #expect(coupon.summary == "\u{2068}קופון פיצה\u{2069}")
        #expect(
            coupon.body
                == "Coupon Expiring · \u{2068}קופון פיצה\u{2069} expires today at 11:59 PM · code \u{2068}ABC1\u{2069}")
        let benefit = try text(
            #"{"kind":"benefit","title":"Uber Cash","card":"بطاقة","amount":"15","period":"monthly"}"#,
            dueOn: "2026-11-30", now: "2026-11-27T09:00:00-05:00")
        #expect(benefit.body.hasPrefix("Reward Expiring Soon · \u{2068}بطاقة\u{2069} · "))
    }

    /// A title with an override left open, or with a stray PDI, stays inside its isolate: the
    /// isolate's end is the only PDI that closes it, and nothing is left open after it.
    @Test func aTitlesBidiControlsStayInsideItsIsolate() {
        for title in ["Deal \u{202E}gnol", "Deal\u{2069} \u{202E}spill", "\u{2067}a\u{2069}\u{2069}b"] {
            let shown = Array(isolated(title).unicodeScalars)
            var depth = 0
            for (at, scalar) in shown.enumerated() {
                if scalar == "\u{2066}" || scalar == "\u{2067}" || scalar == "\u{2068}" { depth += 1 }
                if scalar == "\u{2069}" {
                    depth -= 1
                    #expect(depth > 0 || at == shown.count - 1, "the isolate closed early in \(title.debugDescription)")
                }
            }
            #expect(depth == 0)
            #expect(!shown.dropLast().contains { $0 == "\u{202E}" } || shown.dropLast().contains("\u{202C}"))
        }
    }

    @Test func theSpecsExamplesReadAsWritten() throws {
        let benefit = try text(
            #"{"kind":"benefit","title":"Uber Cash","card":"Amex Platinum","amount":"15","period":"monthly"}"#,
            dueOn: "2026-11-30", now: "2026-11-27T09:00:00-05:00")
        #expect(benefit.summary == "\u{2068}Uber Cash\u{2069}")
        #expect(plain(benefit.body) == "Reward Expiring Soon · Amex Platinum · Your $15 Uber Cash expires in 3 days")
        #expect(benefit.urgency == .normal)
        #expect(benefit.category == "x-reminderd.benefit")
        #expect(benefit.doneLabel == "Mark as used")

        let netflix = try text(
            #"{"kind":"subscription","title":"Netflix","amount":"15.99","every":"1mo","next":"2026-12-01","card":"Sapphire Reserve"}"#,
            dueOn: "2026-12-01", now: "2026-11-30T09:00:00-05:00")
        #expect(plain(netflix.summary) == "Netflix")
        #expect(
            plain(netflix.body) == "Subscription Renews Soon · Netflix renews tomorrow · $15.99/mo on Sapphire Reserve")
        #expect(netflix.doneLabel == "Mark as paid")  // `reminderctl done` says "Paid" too

        let coupon = try text(
            #"{"kind":"coupon","title":"McDonald's BOGO","expires":"2026-11-21","code":"BOGO2026"}"#,
            dueOn: "2026-11-21", now: "2026-11-21T09:00:00-05:00")
        #expect(plain(coupon.summary) == "McDonald's BOGO")
        #expect(plain(coupon.body) == "Coupon Expiring · McDonald's BOGO expires today at 11:59 PM · code BOGO2026")
        #expect(coupon.urgency == .critical)

        let fee = try text(
            #"{"kind":"fee","title":"Platinum fee","card":"Amex Platinum","amount":"695","due":"2026-11-28"}"#,
            dueOn: "2026-11-28", now: "2026-11-21T09:00:00-05:00")
        #expect(plain(fee.summary) == "Platinum fee")
        #expect(plain(fee.body) == "Annual Fee Due · Amex Platinum $695 annual fee due in 7 days")
        #expect(fee.doneLabel == "Mark as paid")

        let coffee = try text(
            #"{"kind":"rebuy","title":"Coffee","everyDays":30,"lastPurchased":"2026-10-31","category":"Pantry"}"#,
            dueOn: "2026-11-30", now: "2026-11-25T09:00:00-05:00")
        #expect(plain(coffee.summary) == "Coffee")
        #expect(plain(coffee.body) == "Time to Rebuy · Coffee (Pantry) runs out in 5 days")
        #expect(coffee.doneLabel == "Rebought")
        let vitamins = try text(
            #"{"kind":"rebuy","title":"Vitamins","everyDays":30,"lastPurchased":"2026-10-22"}"#, dueOn: "2026-11-21",
            now: "2026-11-21T09:00:00-05:00")
        #expect(plain(vitamins.body) == "Time to Rebuy · Vitamins: time to rebuy!")
    }

    @Test func urgencyFollowsCalendarDaysLeft() {
        #expect(NotificationText.urgency(daysLeft: 30) == .low)
        #expect(NotificationText.urgency(daysLeft: 8) == .low)
        #expect(NotificationText.urgency(daysLeft: 7) == .normal)
        #expect(NotificationText.urgency(daysLeft: 1) == .normal)
        #expect(NotificationText.urgency(daysLeft: 0) == .critical)
        #expect(NotificationText.urgency(daysLeft: -3) == .critical)
    }

    @Test func aDueTimeUnderADayAwayReadsInHoursAndMinutes() throws {
        let coupon = try text(
            #"{"kind":"coupon","title":"Pizza","expires":"2026-11-21T14:30"}"#, dueOn: "2026-11-21T14:30",
            now: "2026-11-21T09:00:00-05:00")
        #expect(plain(coupon.body) == "Coupon Expiring · Pizza expires in 5 h 30 min")
        let whole = try text(
            #"{"kind":"coupon","title":"Pizza","expires":"2026-11-21T14:30"}"#, dueOn: "2026-11-21T14:30",
            now: "2026-11-21T12:30:00-05:00")
        #expect(plain(whole.body) == "Coupon Expiring · Pizza expires in 2 h")
        let soon = try text(
            #"{"kind":"coupon","title":"Pizza","expires":"2026-11-21T14:30"}"#, dueOn: "2026-11-21T14:30",
            now: "2026-11-21T14:10:00-05:00")
        #expect(plain(soon.body) == "Coupon Expiring · Pizza expires in 20 min")
        let gone = try text(
            #"{"kind":"coupon","title":"Pizza","expires":"2026-11-21T14:30"}"#, dueOn: "2026-11-21T14:30",
            now: "2026-11-21T15:00:00-05:00")
        #expect(plain(gone.body) == "Coupon Expiring · Pizza has expired")
        #expect(gone.urgency == .critical)
    }

    @Test func partialUseShowsWhatIsLeft() throws {
        let uber =
            #"{"kind":"benefit","title":"Uber Cash","amount":"15","amountUsed":"7.50","amountUsedPeriod":"2026-11-30","period":"monthly"}"#
        let benefit = try text(uber, dueOn: "2026-11-30", now: "2026-11-20T09:00:00-05:00")
        #expect(
            plain(benefit.body) == "Reward Expiring Soon · Your remaining $7.50 of $15 Uber Cash expires in 10 days")
        #expect(benefit.urgency == .low)
        // November's use is over with November: December's pop-up says the whole credit.
        let december = try text(uber, dueOn: "2026-12-31", now: "2026-12-20T09:00:00-05:00")
        #expect(plain(december.body) == "Reward Expiring Soon · Your $15 Uber Cash expires in 11 days")
    }

    @Test func markupIsEscaped() {
        #expect(markupEscaped("Tom & Jerry <b>") == "Tom &amp; Jerry &lt;b&gt;")
        #expect(markupEscaped("\"a\"\r\n\t") == "\"a\"\r\n\t")
        #expect(markupEscaped("<\"a\"\r\n\t>", attributeValue: true) == "&lt;&quot;a&quot;&#13;&#10;&#9;&gt;")
    }
}
