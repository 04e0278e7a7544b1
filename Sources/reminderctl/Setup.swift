import ArgumentParser
import CivilTime
import FoundationEssentials
import ReminderCatalog
import ReminderCore
import ReminderJSON
import ReminderPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// `reminderctl setup`: the first run. On a terminal it asks for the reminder time, lead times
/// and quiet hours (Enter keeps the value shown), then the cards held and their fee dates; with
/// flags, or when not on a terminal, it asks nothing. It writes the config (keeping keys it does
/// not ask about, and never replacing an existing file without asking or `--yes`), adds the
/// cards' items through the daemon, and says how to enable the service.
struct Setup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "First-run setup: settings, the cards you hold and their fee dates.",
        discussion: """
            Examples:
              reminderctl setup
              reminderctl setup --reminder-time 08:30 --quiet-hours 22:00-07:00 \\
                  --card amex-platinum --fee-due amex-platinum=2027-03-15 --card chase-sapphire-reserve --yes
            """)

    @Option(name: .customLong("reminder-time"), help: "When day reminders fire, HH:MM.") var reminderTime: String?
    @Option(name: .customLong("lead-times"), help: "Default lead times, e.g. 7d,1d,0d.") var leadTimes: String?
    @Option(name: .customLong("quiet-hours"), help: "START-END (22:00-08:00) or none.") var quietHours: String?
    @Option(help: "A card you hold, by catalog id (repeatable).", completion: .custom(Completions.cardIds))
    var card: [String] = []
    @Option(name: .customLong("fee-due"), help: "A --card's next annual fee date, ID=DATE (as for add; repeatable).")
    var feeDue: [String] = []
    @Option(
        help: "A --card's account anniversary, ID=DATE, for its anniversary credits (the fee date by default).")
    var anniversary: [String] = []
    @Option(help: "Config file to write (default ~/.config/reminderd/config.json).") var config: String?
    @Flag(help: "Update an existing config file without asking.") var yes = false
    @Flag(name: .customLong("no-input"), help: "Ask nothing, even on a terminal.") var noInput = false

    func run() throws {
        let interactive = !noInput && isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        // A setting given as a flag is the answer: on a terminal too, setup sets just what was given
        // (`setup --quiet-hours none`), as without one, and asks nothing but to replace the file.
        let givenFlags =
            reminderTime != nil || leadTimes != nil || quietHours != nil || !card.isEmpty || !feeDue.isEmpty
            || !anniversary.isEmpty
        let path = config ?? ConfigFile.defaultPath()
        let existing = try readConfigDocument(path)
        let exists = existing != nil
        var document = existing ?? [:]
        // The settings in force, read by the daemon's own loader: the file's, or the defaults.
        let current = exists ? try ConfigFile.refusing(path) : .defaults
        let catalog = try Catalog.load()
        var settings = Answers(
            reminderTime: current.reminderTime.description,
            leadTimes: current.leadTimes.map(\.description).joined(separator: ","),
            quietHours: current.quietHours.map { "\($0.start)-\($0.end)" } ?? "none")
        if let reminderTime { settings.reminderTime = reminderTime }
        if let leadTimes { settings.leadTimes = leadTimes }
        if let quietHours { settings.quietHours = quietHours }
        var cards = try card.map { try Catalog.card($0, in: catalog) }
        var dueDates = try Setup.cardDates(feeDue, option: "--fee-due")
        var anniversaries = try Setup.cardDates(anniversary, option: "--anniversary")
        if interactive && !givenFlags {
            print(_t("reminderd setup — press Enter to keep the value in brackets."))
            settings.reminderTime = ask(_t("Reminder time"), settings.reminderTime) { LocalTime.parse($0).map { _ in () } }
            settings.leadTimes = ask(_t("Lead times"), settings.leadTimes) { Setup.leads($0).map { _ in () } }
            settings.quietHours = ask(_t("Quiet hours (START-END or none)"), settings.quietHours) {
                Setup.quiet($0).map { _ in () }
            }
            pickCards(catalog, into: &cards, dueDates: &dueDates, anniversaries: &anniversaries)
        }
        // A fee date or an anniversary is for a card you hold: it never adds a card by itself.
        for (option, dates) in [("--fee-due", dueDates), ("--anniversary", anniversaries)] {
            if let stray = dates.keys.sorted().first(where: { id in !cards.contains { $0.id == id } }) {
                throw Refusal.usage(
                    "\(option) \(stray)=\(dates[stray]!): \(stray) is not among your cards; name it with --card \(stray)"
                )
            }
        }
        document["reminderTime"] = .string(settings.reminderTime)
        guard case .success(let leads) = Setup.leads(settings.leadTimes) else {
            throw Refusal.usage(_t("--lead-times \"%1$s\": expected e.g. 7d,1d,0d").filled(settings.leadTimes))
        }
        document["leadTimes"] = .array(leads.map { .string($0.description) })
        guard case .success(let quiet) = Setup.quiet(settings.quietHours) else {
            throw Refusal.usage(_t("--quiet-hours \"%1$s\": expected 22:00-08:00 or none").filled(settings.quietHours))
        }
        document["quietHours"] =
            quiet.map { .object(["start": .string($0.start.description), "end": .string($0.end.description)]) } ?? .null
        do { _ = try Configuration(json: .object(document)) } catch { throw Refusal.usage("\(error)") }
        try writeConfig(document, to: path, exists: exists, interactive: interactive)
        try addCards(cards, dueDates: dueDates, anniversaries: anniversaries)
    }

    struct Answers {
        var reminderTime: String
        var leadTimes: String
        var quietHours: String
    }

    /// `ID=DATE` pairs of `option` (`--fee-due`, `--anniversary`); the date as for `add`
    /// (`2027-03-15`, `+3mo`, `mar 15`), echoed back when it was not given as YYYY-MM-DD.
    static func cardDates(_ entries: [String], option: String) throws -> [String: String] {
        var result: [String: String] = [:]
        guard !entries.isEmpty else { return result }
        // The daemon's today when it runs; before its first start, the system zone's, where it would start.
        let today = (try? DaemonClient.today()) ?? SystemClock.today()
        for entry in entries {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw Refusal.usage(_t("%1$s \"%2$s\": expected CARD-ID=YYYY-MM-DD").filled(option, entry)) }
            switch NaturalDate.resolve(parts[1], today: today) {
            case .success(let date?):
                print("\(option) \(entry): \(ResolvedDate.full(date, thisYear: today.year))")
                result[parts[0]] = date.description
            case .success(nil):
                guard case .success = LocalDate.parse(parts[1]) else {
                    throw Refusal.usage(_t("%1$s \"%2$s\": expected CARD-ID=YYYY-MM-DD").filled(option, entry))
                }
                result[parts[0]] = parts[1]
            case .failure(let error): throw Refusal.usage("\(option) \(parts[0])=\(error.reason)")
            }
        }
        return result
    }

    static func leads(_ text: String) -> Result<[CalendarDuration], DateParseError> {
        var result: [CalendarDuration] = []
        for part in text.split(separator: ",") {
            switch CalendarDuration.parse(part.trimmingCharacters(), rules: .lead) {
            case .success(let lead): result.append(lead)
            case .failure(let error): return .failure(error)
            }
        }
        return .success(result)
    }

    static func quiet(_ text: String) -> Result<QuietHours?, DateParseError> {
        if text == "none" || text.isEmpty { return .success(nil) }
        let parts = text.split(separator: "-").map(String.init)
        guard parts.count == 2, case .success(let start) = LocalTime.parse(parts[0]),
            case .success(let end) = LocalTime.parse(parts[1])
        else {
            return .failure(.malformed("expected START-END like 22:00-08:00, or none"))
        }
        return .success(start == end ? nil : QuietHours(start: start, end: end))
    }

    /// Asks until the answer is valid; Enter keeps `current`.
    func ask(_ question: String, _ current: String, valid: (String) -> Result<Void, DateParseError>) -> String {
        while true {
            print("\(question) [\(current)]: ", terminator: "")
            fflush(nil)
            guard let line = readLine() else { return current }
            let answer = line.trimmingCharacters()
            if answer.isEmpty { return current }
            switch valid(answer) {
            case .success: return answer
            case .failure(let error): print("  \(error.reason)")
            }
        }
    }

    /// Search-and-pick loop for the cards held, with each one's fee date (and anniversary, for a
    /// card with credits that reset on it).
    func pickCards(
        _ catalog: CardCatalog, into cards: inout [CardCatalog.Card], dueDates: inout [String: String],
        anniversaries: inout [String: String]
    ) {
        while true {
            print(_t("Search for a card you hold (Enter when done): "), terminator: "")
            fflush(nil)
            guard let line = readLine() else { return }
            let search = line.trimmingCharacters()
            if search.isEmpty { return }
            let matches = Array(catalog.cards(matching: search).prefix(9))
            if matches.isEmpty {
                print("  " + _t("No card matches \"%1$s\".").filled(search))
                continue
            }
            for (index, card) in matches.enumerated() {
                print(
                    "  \(index + 1). "
                        + _t("%1$s (%2$s) — %3$s fee, %4$s in credits").filled(
                            card.name, card.issuer, usd(card.annualFee), usd(card.annualValue))
                )
            }
            print(_t("Pick a number (Enter to search again): "), terminator: "")
            fflush(nil)
            guard let pick = readLine().map({ Substring($0).trimmingCharacters() }), let number = Int(pick),
                (1...matches.count).contains(number)
            else {
                continue
            }
            let card = matches[number - 1]
            if !cards.contains(where: { $0.id == card.id }) { cards.append(card) }
            let due = ask(_t("Next annual fee date for %1$s (YYYY-MM-DD, or none)").filled(card.name), dueDates[card.id] ?? "none") {
                text in
                text == "none" ? .success(()) : LocalDate.parse(text).map { _ in () }
            }
            dueDates[card.id] = due == "none" ? nil : due
            if card.credits.contains(where: { $0.resets == .anniversary }) {
                // The fee posts on the anniversary, so its date is the usual answer.
                let shown = anniversaries[card.id] ?? dueDates[card.id] ?? "none"
                let answer = ask(
                    _t("Account anniversary for %1$s, the day its anniversary credits reset (YYYY-MM-DD)").filled(card.name),
                    shown
                ) { text in
                    text == "none" ? .success(()) : LocalDate.parse(text).map { _ in () }
                }
                anniversaries[card.id] = answer == "none" ? nil : answer
            }
            print("  " + _t("Added %1$s.").filled(card.name))
        }
    }

    /// Says once, naming the cards added whose terms were checked long ago, what that means.
    func noteOldTerms(_ cards: [CardCatalog.Card]) {
        if let note = Catalog.checkedNote(cards, today: SystemClock.today()) { print(note) }
    }

    func writeConfig(_ document: [String: JSONValue], to path: String, exists: Bool, interactive: Bool) throws {
        let data = JSONValue.object(document).serialized(pretty: true)
        if exists {
            let old = (try? FileReader.read(path)) ?? []
            if old != Array(data) + [0x0A] && !yes {
                guard interactive, confirm(_t("Update %1$s with these settings?").filled(path)) else {
                    throw Refusal(message: _t("%1$s exists; nothing changed (run with --yes to update it)").filled(path))
                }
            }
        }
        try writeConfigFile(document, to: path)
        print(_t("Config written to %1$s.").filled(path))
    }

    func addCards(_ cards: [CardCatalog.Card], dueDates: [String: String], anniversaries: [String: String]) throws {
        var items: [JSONValue] = []
        var value = Money.zero
        for card in cards {
            items += try Catalog.items(
                for: card, nickname: nil, feeDue: dueDates[card.id], anniversary: anniversaries[card.id], skip: [])
            value = value + card.annualValue
        }
        let reachable = (try? DaemonClient.call(.status)) != nil
        if reachable {
            _ = try? DaemonClient.call(.reload)
            // Setup run again adds only what is not tracked yet.
            let (fresh, tracked) = Catalog.untracked(items, existing: try Catalog.trackedItems())
            if !fresh.isEmpty { _ = try DaemonClient.call(.importItems(.init(items: fresh, state: nil, replace: false))) }
            let fees = fresh.filter { $0["kind"] == .string("fee") }.count
            if tracked.isEmpty, !fresh.isEmpty {
                let onCards = _n(
                    "Tracking %1$d benefits worth %2$s/year on %3$d card", "Tracking %1$d benefits worth %2$s/year on %3$d cards",
                    cards.count
                ).filled(String(fresh.count - fees), usd(value), String(cards.count))
                let andFees = _n(" and %1$d annual fee", " and %1$d annual fees", fees).filled(String(fees))
                print(onCards + (fees == 0 ? "" : andFees) + ".")
            } else if !tracked.isEmpty {
                let added = _n("Added %1$d new item", "Added %1$d new items", fresh.count).filled(String(fresh.count))
                let skipped = _n(
                    "; %1$d of your cards' items were tracked already and were skipped.",
                    "; %1$d of your cards' items were tracked already and were skipped.", tracked.count
                ).filled(String(tracked.count))
                print(added + skipped)
            }
            noteOldTerms(cards)
            print(_t("reminderd is running; see what needs attention with: reminderctl summary"))
            return
        }
        if !items.isEmpty {
            let path = Catalog.userPath.replacingSuffix("cards.json", with: "setup-items.json")
            _ = FileWriter.write(JSONValue.array(items).serialized(pretty: true), to: path)
            print(
                _n(
                    "reminderd is not running, so the %1$d items of your cards were saved to %2$s.",
                    "reminderd is not running, so the %1$d items of your cards were saved to %2$s.", items.count
                ).filled(String(items.count), path))
            print(_t("After starting it, add them with: reminderctl import %1$s").filled(path))
            noteOldTerms(cards)
        }
        print(_t("Start reminderd: %1$s").filled(StartHint.reminderd))
    }
}

extension String {
    func replacingSuffix(_ suffix: String, with replacement: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self
    }
}
