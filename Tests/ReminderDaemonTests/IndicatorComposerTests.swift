import CivilTime
import ReminderCore
import Testing

@testable import ReminderDaemon

/// The panel indicator's content alone, from plain values: its status, tooltip and menu, and
/// which action each menu id stands for.
@Suite struct IndicatorComposerTests {
    func entry(
        _ id: String, _ title: String, days: Int64, value: Int64? = nil, currency: String = "USD", expires: Bool = true
    )
        -> IndicatorComposer.Entry
    {
        IndicatorComposer.Entry(
            itemId: id, due: 1_795_000_000 + days * 86_400, title: title, daysLeft: days,
            value: value.map { Money(tenThousandths: Int128($0) * 10_000) },
            currency: currency, expires: expires)
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
            [entry("a", "Gas credit", days: 0, value: 10), entry("b", "Netflix", days: 3, value: 15, expires: false)],
            wallet: 135)
        #expect(
            outline(view) == [
                "Due today", "Gas credit — $10 left, today > Done | Snooze 1 hour | Snooze 1 day", "---",
                "This week", "Netflix — $15, in 3 days > Done | Snooze 1 hour | Snooze 1 day", "---",
                "Wallet: $135 left", "---", "Pause 1 hour",
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
        let view = compose([entry("a", "Gas", days: 0), entry("b", "Dining", days: 1)])
        let all = IndicatorVariants.all(view.menu)
        #expect(Set(all.map(\.id)).count == all.count)
        #expect(!all.contains { $0.id == 0 })
        let dining = view.menu.first { $0.label.hasPrefix("Dining") }!
        // Each names the occurrence its entry showed (a day after the test's instant).
        let due: Int64 = 1_795_000_000 + 86_400
        #expect(view.action(for: dining.children[0].id) == .done(itemId: "b", due: due))
        #expect(view.action(for: dining.children[1].id) == .snooze(itemId: "b", due: due, CalendarDuration(1, .hours)))
        #expect(view.action(for: dining.children[2].id) == .snooze(itemId: "b", due: due, CalendarDuration(1, .days)))
        #expect(view.action(for: view.menu.last!.id) == .pause(CalendarDuration(1, .hours)))
        #expect(view.action(for: dining.id) == nil)
        #expect(view.item(0)?.children == view.menu)
        #expect(compose([], paused: true).menu.last?.action == .resume)
    }

    @Test func theToolTipSaysWhatIsDueAndTheValueExpiring() {
        let view = compose([
            entry("a", "Gas credit", days: 0, value: 10), entry("c", "Coupon", days: 5, value: 7),
            entry("b", "Netflix", days: 3, value: 15, expires: false),
            entry("e", "Euro deal", days: 2, value: 9, currency: "EUR"),
        ])
        #expect(view.toolTipTitle == "reminderd: 4 due this week, 1 today")
        // The renewal's price and the other currency's value are not counted as expiring.
        #expect(view.toolTipBody.hasSuffix("\n$17 expiring this week"))
        #expect(view.toolTipBody.hasPrefix("Gas credit — $10 left, today\nCoupon — $7 left, in 5 days\n"))
        #expect(compose([], paused: true).toolTipTitle == "reminderd: nothing due this week (paused)")
        #expect(compose([]).toolTipBody == "")
    }

    @Test func theNextMidnightIsLocal() {
        // 2026-11-18 11:06:40 UTC; in a zone 5 h ahead it is 16:06, so midnight is 19:00 UTC.
        let zone = TimeZoneRules.fixed(identifier: "X", offset: 5 * 3600)
        #expect(IndicatorComposer.nextMidnight(after: Parts.now, zone: .utc) == 1_795_046_400)
        #expect(IndicatorComposer.nextMidnight(after: Parts.now, zone: zone) == 1_795_046_400 - 5 * 3600)
        #expect(IndicatorComposer.nextMidnight(after: 1_795_046_400, zone: .utc) == 1_795_046_400 + 86_400)
    }
}
