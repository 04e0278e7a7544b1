import ArgumentParser
import CivilTime
import ReminderCore
import ReminderPlatform

/// `reminderctl plan`: every fire time in a range, computed offline from files, no daemon.
struct Plan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Print every fire time in [--from, --to) for the items in a file, without a daemon.",
        discussion: """
            Items without createdAt count as created at --from. No Done is assumed, so a coupon or \
            rebuy item contributes its current occurrence only. Times accept RFC 3339 \
            (2026-11-21T09:00:00-05:00), a local date-time (2026-11-21T09:00) or a date (local \
            midnight), read in the configured time zone.
            """)

    @Option(help: "Config file (JSON); the built-in defaults when omitted.")
    var config: String?

    @Option(help: "Items file: a JSON array of items in the export format.")
    var items: String

    @Option(help: "Start of the range (inclusive).")
    var from: String

    @Option(help: "End of the range (exclusive).")
    var to: String

    @Flag(help: "Print JSON: an array of {item, occurrenceDue, lead, fireAt, adjusted}.")
    var json = false

    func run() throws {
        let configuration = try config.map(ConfigFile.refusing) ?? .defaults
        let zone: TimeZoneRules
        do { zone = try ZoneDatabase.shared.zone(configured: configuration.timeZone) } catch {
            throw Refusal(message: "\(config ?? "config"): timeZone: \(error)")
        }
        let start = try Plan.instant(from, option: "--from", zone: zone)
        let end = try Plan.instant(to, option: "--to", zone: zone)
        guard start < end else { throw Refusal.usage(_t("--to must be later than --from")) }
        let list = try ItemsFile.load(path: items, zone: zone, defaultCreatedAt: start)
        let planner = Planner(configuration: configuration, zone: zone)
        let entries = planner.plan(items: list, from: start, to: end)
        if json {
            print(Output.json(text: planner.json(entries, items: list)))
        } else {
            print(Plan.table(entries, items: list, zone: zone, configuration: configuration), terminator: "")
        }
    }

    static func instant(_ text: String, option: String, zone: TimeZoneRules) throws -> Int64 {
        switch Timestamp.parseFlexible(text, in: zone) {
        case .success(let instant): return instant
        case .failure(let error): throw Refusal.usage("\(option) \"\(text)\": \(error.reason)")
        }
    }

    static func table(
        _ entries: [Planner.Entry], items: [Item], zone: TimeZoneRules, configuration: Configuration
    ) -> String {
        if entries.isEmpty { return _t("No reminders in this range.") + "\n" }
        var table = TextTable(headers: [_t("FIRES"), _t("ITEM"), _t("TITLE"), _t("LEAD"), _t("DUE"), _t("NOTE")])
        // Left alone, each reminder comes back: said beside it (the repeats depend on when it is shown).
        func repeats(_ item: Item) -> String? {
            RepeatRule.of(item, configuration).map {
                _n("then every %1$s, %2$d time unless acknowledged", "then every %1$s, %2$d times unless acknowledged", $0.times)
                    .filled($0.every.description, String($0.times))
            }
        }
        // A subscription's free trial: its last day is due before the renewals (CONTRACT §2).
        func trialEnd(_ item: Item, _ occurrence: Occurrence) -> String? {
            guard case .subscription(let subscription) = item.schedule, occurrence.dueDate == subscription.trialEnds
            else { return nil }
            return _t("free trial ends")
        }
        // Why a time moved: the JSON's mark (`workday`) in English, said in the language here.
        func note(_ adjusted: FireAdjustment) -> String {
            switch adjusted {
            case .dstGap: return _p("plan note: a fire time moved", "dst-gap")
            case .quietHoursEnd: return _p("plan note: a fire time moved", "quiet-hours-end")
            case .quietHoursStart: return _p("plan note: a fire time moved", "quiet-hours-start")
            case .workday: return _p("plan note: a fire time moved", "workday")
            }
        }
        for entry in entries {
            let item = items[entry.itemIndex]
            let fire = entry.fire
            table.add([
                HumanTime.format(fire.fireAt, in: zone),
                item.id.map(shown) ?? String(entry.itemIndex + 1),
                shown(item.title),
                fire.lead.description,
                HumanTime.format(fire.occurrence.due, in: zone),
                [fire.adjusted.map(note), trialEnd(item, fire.occurrence), repeats(item)].compactMap { $0 }
                    .joined(separator: "; "),
            ])
        }
        return table.render()
    }
}
