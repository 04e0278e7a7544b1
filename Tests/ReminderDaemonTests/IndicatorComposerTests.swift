import CivilTime
import ReminderCore
import Testing

@testable import ReminderDaemon

/// The panel indicator's content alone, from plain values: its status, tooltip and menu, and
/// which action each menu id stands for.
@Suite struct IndicatorComposerTests {
    static let hourAndDay = [
        IndicatorComposer.Snooze(action: .snooze(CalendarDuration(1, .hours)), label: "Snooze 1h"),
        IndicatorComposer.Snooze(action: .snooze(CalendarDuration(1, .days)), label: "Snooze 1d"),
    ]

    func entry(
        _ id: String, _ title: String, days: Int64, value: Int64? = nil, currency: String = "USD", expires: Bool = true,
        card: String? = nil, doneLabel: String = "Mark as used", snoozes: [IndicatorComposer.Snooze] = hourAndDay,
        coupon: Bool = false
    )
        -> IndicatorComposer.Entry
    {
        IndicatorComposer.Entry(
            itemId: id, due: 1_795_000_000 + days * 86_400, title: title, daysLeft: days,
            value: value.map { Money(tenThousandths: Int128($0) * 10_000) },
            currency: currency, expires: expires, card: card, doneLabel: doneLabel, snoozes: snoozes, isCoupon: coupon)
    }

    func compose(_ entries: [IndicatorComposer.Entry], wallet: Int64 = 0, paused: Bool = false) -> IndicatorView {
        IndicatorComposer(
            entries: entries, walletLeft: Money(tenThousandths: Int128(wallet) * 10_000), currency: "USD", paused: paused
        ).view
    }

    /// The labels of the top level, with a submenu's labels after `>`.
    func outline(_ view: IndicatorView) -> [String] {
        view.menu.map { item in
            item.isSeparator
                ? "---"
                : item.children.isEmpty
                    ? item.label : "\(item.label) > \(item.children.map(\.label).joined(separator: " | "))"
        }
    }

    @Test func somethingDueTodayAsksForAttention() {
        #expect(compose([entry("a", "Gas", days: 0)]).status == "NeedsAttention")
        #expect(compose([entry("a", "Gas", days: 3)]).status == "Active")
        #expect(compose([]).status == "Passive")
        // An overdue rebuy counts as today.
        #expect(compose([entry("r", "Milk", days: -2, expires: false)]).status == "NeedsAttention")
    }

    @Test func theMenuListsTodayThenThisWeekThenTheWalletThenPause() {
        let view = compose(
            [
                entry("a", "Gas credit", days: 0, value: 10),
                entry("b", "Netflix", days: 3, value: 15, expires: false, doneLabel: "Mark as paid"),
            ],
            wallet: 135)
        #expect(
            outline(view) == [
                "Due today", "Gas credit — $10 left, today > Mark as used | Snooze 1h | Snooze 1d", "---",
                "This week", "Netflix — $15, in 3 days > Mark as paid | Snooze 1h | Snooze 1d", "---",
                "Wallet: $135 left", "---", "Pause all pop-ups 1 hour",
            ])
        #expect(view.menu[0].enabled == false)
        #expect(
            outline(compose([], paused: true)) == [
                "Nothing due this week", "---", "Wallet: $0 left", "---", "Resume reminders",
            ])
    }

    /// A title from a sync server is no control sequence, no access key and no markup on the panel.
    @Test func aTitlesUnderscoresControlsAndMarkupStayText() {
        let view = compose([entry("a", "Gas_credit <b>\u{1B}[2J", days: 0)])
        let label = view.menu.first { $0.label.hasPrefix("Gas") }?.label
        #expect(label == #"Gas__credit <b>\u{1B}[2J, today"#)
        #expect(view.toolTipBody == #"Gas_credit &lt;b&gt;\u{1B}[2J, today"#)
    }

    @Test func everyIdIsUniqueAndNamesItsAction() {
        var ids = IndicatorMenuIds()
        let menu = ids.assign(compose([entry("a", "Gas", days: 0), entry("b", "Dining", days: 1)]).menu)
        let all = IndicatorVariants.all(menu)
        #expect(Set(all.map(\.id)).count == all.count)
        #expect(!all.contains { $0.id == 0 })
        let dining = menu.first { $0.label.hasPrefix("Dining") }!
        // Each names the occurrence its entry showed (a day after the test's instant).
        let due: Int64 = 1_795_000_000 + 86_400
        #expect(ids.click(dining.children[0].id).action == .done(itemId: "b", due: due))
        #expect(ids.click(dining.children[1].id).action == .snooze(itemId: "b", due: due, CalendarDuration(1, .hours)))
        #expect(ids.click(dining.children[2].id).action == .snooze(itemId: "b", due: due, CalendarDuration(1, .days)))
        #expect(ids.click(menu.last!.id).action == .pause(CalendarDuration(1, .hours)))
        #expect(ids.click(dining.id) == (true, nil))
        #expect(ids.live[0]?.children == menu)
        #expect(compose([], paused: true).menu.last?.action == .resume)
    }

    /// Issue 27 case 3: ids were positions, so an item due sooner moved Alpha's Done to another
    /// id, and a host holding the older layout marked the new item used. An id names its entry.
    @Test func anIdStaysWithItsEntryAndALeftEntrysIdIsRefusedNeverReused() {
        var ids = IndicatorMenuIds()
        let alpha = entry("alpha", "Alpha", days: 1)
        let first = ids.assign(compose([alpha]).menu)
        let alphaDone = first.first { $0.label.hasPrefix("Alpha") }!.children[0].id
        let second = ids.assign(compose([entry("beta", "Beta", days: 0), alpha]).menu)
        #expect(second.first { $0.label.hasPrefix("Alpha") }!.children[0].id == alphaDone)
        #expect(ids.click(alphaDone).action == .done(itemId: "alpha", due: alpha.due))
        let betaIds = IndicatorVariants.all(second.filter { $0.label.hasPrefix("Beta") }).map(\.id)
        #expect(Set(betaIds).isDisjoint(with: IndicatorVariants.all(first).map(\.id)))
        // Alpha done elsewhere: its entries leave; a click on its old Done is refused in words.
        let third = ids.assign(compose([entry("beta", "Beta", days: 0)]).menu)
        #expect(ids.click(alphaDone) == (true, .withdrawn("“Mark as used” for Alpha")))
        #expect(!IndicatorVariants.all(third).map(\.id).contains(alphaDone))
        // Alpha back (an Undo): new ids, the old one stays refused.
        let fourth = ids.assign(compose([alpha]).menu)
        #expect(fourth.first { $0.label.hasPrefix("Alpha") }!.children[0].id != alphaDone)
        #expect(ids.click(Int32.max).known == false)
    }

    /// Issue 27 case 8: the menu offered Done, 1 hour and 1 day for every item. It offers what
    /// the item's pop-up offers, in its words, and names the item's card.
    @Test func anEntryOffersItsPopUpsButtonsInItsWordsAndNamesItsCard() {
        let lastMinute = [IndicatorComposer.Snooze(action: .snoozeToLastMinute, label: "Remind 1 min before")]
        let view = compose([
            entry("a", "Gas credit", days: 0, value: 10, card: "Amex Gold", snoozes: lastMinute),
            entry("r", "Milk", days: -1, expires: false, doneLabel: "Rebought", snoozes: []),
        ])
        let gas = view.menu.first { $0.label.hasPrefix("Gas") }!
        #expect(gas.label == "Gas credit on Amex Gold — $10 left, today")
        #expect(gas.children.map(\.label) == ["Mark as used", "Remind 1 min before"])
        #expect(gas.children[1].action == .snoozeToLastMinute(itemId: "a", due: 1_795_000_000))
        #expect(view.menu.first { $0.label.hasPrefix("Milk") }!.children.map(\.label) == ["Rebought"])
    }

    @Test func anEntryThatRepeatsUntilAcknowledgedSaysSoUnderItsOffers() {
        var repeating = entry("c", "Pizza", days: 0, value: 7, coupon: true)
        repeating.repeats = RepeatRule(every: CalendarDuration(15, .minutes), times: 3)
        let item = compose([repeating]).menu[1]
        #expect(item.children.map(\.label) == ["Mark as used", "Snooze 1h", "Snooze 1d", "Repeats every 15m until acknowledged"])
        #expect(item.children.last?.enabled == false && item.children.last?.action == nil)
    }

    @Test func theToolTipSaysWhatIsDueAndTheValueExpiring() {
        let view = compose([
            entry("a", "Gas credit", days: 0, value: 10), entry("c", "Coupon", days: 5, value: 7, coupon: true),
            entry("b", "Netflix", days: 3, value: 15, expires: false),
            entry("e", "Euro deal", days: 2, value: 9, currency: "EUR"),
        ])
        #expect(view.toolTipTitle == "reminderd: 4 due this week, 1 today")
        // The renewal's price and the other currency's value are not counted as expiring.
        #expect(view.toolTipBody.hasSuffix("\n$17 expiring this week"))
        #expect(view.toolTipBody.hasPrefix("Gas credit — $10 left, today\nCoupon — worth $7, in 5 days\n"))
        #expect(compose([], paused: true).toolTipTitle == "reminderd: nothing due this week (paused: pop-ups held)")
        #expect(compose([]).toolTipBody == "")
    }

    @Test func theNextMidnightIsLocal() {
        // 2026-11-18 11:06:40 UTC; in a zone 5 h ahead it is 16:06, so midnight is 19:00 UTC.
        let zone = TimeZoneRules.fixed(identifier: "X", offset: 5 * 3600)
        #expect(IndicatorComposer.nextMidnight(after: Parts.now, zone: .utc) == 1_795_046_400)
        #expect(IndicatorComposer.nextMidnight(after: Parts.now, zone: zone) == 1_795_046_400 - 5 * 3600)
        #expect(IndicatorComposer.nextMidnight(after: 1_795_046_400, zone: .utc) == 1_795_046_400 + 86_400)
    }

    /// A free trial's entry offers its pop-up's two answers, Keep it and I cancelled (issue #30).
    @Test func aFreeTrialsEntryOffersKeepItAndICancelled() {
        var trial = entry("h", "Hulu", days: 1, doneLabel: "Keep it", snoozes: [])
        trial.cancelLabel = "I cancelled"
        let children = compose([trial]).menu.flatMap(\.children)
        #expect(children.map(\.label) == ["Keep it", "I cancelled"])
        #expect(children.last?.action == .cancelled(itemId: "h", due: trial.due))
    }
}
