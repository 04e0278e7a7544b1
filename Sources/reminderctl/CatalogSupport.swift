import CivilTime
import ReminderCatalog
import ReminderCore
import ReminderJSON
import ReminderPlatform
import ReminderProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The card catalog as reminderctl sees it: the bundled one, with the user's
/// `$XDG_CONFIG_HOME/reminderd/cards.json` laid over it by id.
enum Catalog {
    static var userPath: String {
        let configFile = ConfigFile.defaultPath()
        return String(configFile[..<configFile.lastIndex(of: "/")!]) + "/cards.json"
    }

    static func load() throws -> CardCatalog {
        let bundled: CardCatalog
        do { bundled = try CardCatalog.bundled() } catch { throw Refusal(message: error.description) }
        guard access(userPath, F_OK) == 0 else { return bundled }
        let document = try readJSON(userPath)
        do { return bundled.overridden(by: try CardCatalog(json: document, path: "", requireHeader: false)) } catch {
            throw Refusal(message: "\(userPath): \(error)")
        }
    }

    static func card(_ id: String, in catalog: CardCatalog) throws -> CardCatalog.Card {
        if let card = catalog.card(id: id) { return card }
        let suggestions = catalog.cards(matching: id.split(separator: "-").joined(separator: " ")).prefix(5).map(\.id)
        let hint =
            suggestions.isEmpty
            ? _t("see reminderctl cards") : _t("did you mean %1$s?").filled(suggestions.joined(separator: ", "))
        throw Refusal.usage(_t("no card \"%1$s\" in the catalog; %2$s").filled(id, hint))
    }

    /// The card name the items carry: the catalog's, with a nickname beside it ("Amex Platinum
    /// (Work)"), so two of one card are told apart and each still says which card it is (a
    /// nickname alone, "Work", named no card in `wallet`, `list` or a pop-up).
    static func cardName(_ card: CardCatalog.Card, nickname: String?) -> String {
        guard let nickname = nickname?.trimmingCharacters(), !nickname.isEmpty,
            nickname.lowercased() != card.name.lowercased()
        else { return card.name }
        return "\(card.name) (\(nickname))"
    }

    /// The benefit items for `card`'s credits (less `skip`), and its fee item when `feeDue` is given.
    /// Credits that reset on the card's anniversary count their periods from `anniversary`
    /// (YYYY-MM-DD), else from `feeDue` — the fee posts on the anniversary — else, with neither
    /// known, per calendar year (`anniversaryUnknown` says which credits).
    static func items(
        for card: CardCatalog.Card, nickname: String?, feeDue: String?, anniversary: String? = nil, skip: [String]
    ) throws -> [JSONValue] {
        let unknown = skip.filter { id in !card.credits.contains { $0.id == id } }
        if !unknown.isEmpty {
            throw Refusal.usage(
                _t("--skip %1$s: %2$s has the credits %3$s").filled(
                    unknown.joined(separator: ", "), card.name, card.credits.map(\.id).joined(separator: ", ")))
        }
        let name = cardName(card, nickname: nickname)
        var items: [JSONValue] = card.credits.filter { !skip.contains($0.id) }.map { credit in
            var fields: [String: JSONValue] = [
                "kind": .string("benefit"), "title": .string(String(credit.title.prefix(100))), "card": .string(name),
                "amount": .string(credit.amount.description), "period": .string(credit.period.rawValue),
                "currency": .string("USD"),
            ]
            if let notes = credit.notes { fields["notes"] = .string(String(notes.prefix(500))) }
            if !credit.amountIn.isEmpty { fields["amountIn"] = Benefit.amountInJSON(credit.amountIn) }
            if credit.resets == .anniversary, let start = anniversary ?? feeDue {
                fields["periodStart"] = .string(start)
            }
            return .object(fields)
        }
        if let feeDue {
            items.append(
                .object([
                    "kind": .string("fee"), "title": .string("\(name) annual fee"), "card": .string(name),
                    "amount": .string(card.annualFee.description), "due": .string(feeDue), "currency": .string("USD"),
                ]))
        }
        return items
    }

    /// The titles of `card`'s credits (less `skip`) that reset on the anniversary, when no date
    /// was given to count them from: they are tracked per calendar year, and the user is told.
    static func anniversaryUnknown(
        _ card: CardCatalog.Card, feeDue: String?, anniversary: String?, skip: [String]
    ) -> [String] {
        guard anniversary == nil, feeDue == nil else { return [] }
        return card.credits.filter { $0.resets == .anniversary && !skip.contains($0.id) }.map(\.title)
    }

    /// Splits a card's `items` into those not tracked yet and those already tracked — an item of
    /// the same kind and title on the same card name (case aside) — so adding a card again, or
    /// running setup again, never duplicates a credit or a fee.
    static func untracked(_ items: [JSONValue], existing: [ItemView]) -> (new: [JSONValue], tracked: [JSONValue]) {
        func key(_ item: JSONValue) -> [String] {
            ["kind", "card", "title"].map { field in
                if case .object(let fields) = item, case .string(let text)? = fields[field] { return text.lowercased() }
                return ""
            }
        }
        let known = Set(existing.map { [$0.kindName, $0.card ?? "", $0.title].map { $0.lowercased() } })
        var result: (new: [JSONValue], tracked: [JSONValue]) = ([], [])
        for item in items {
            if known.contains(key(item)) { result.tracked.append(item) } else { result.new.append(item) }
        }
        return result
    }

    /// Every item the daemon tracks, for `untracked`.
    static func trackedItems() throws -> [ItemView] {
        try DaemonClient.call(.list(.init(kind: nil, all: true)), as: ListReply.self).items
    }

    /// The yearly value of `card`'s credits less `skip`.
    static func trackedValue(_ card: CardCatalog.Card, skip: [String]) -> Money {
        card.credits.filter { !skip.contains($0.id) }.reduce(Money.zero) { $0 + $1.annualValue }
    }
}

/// Asks a yes/no question on the terminal; false when stdin is not one.
func confirm(_ question: String) -> Bool {
    guard isatty(STDIN_FILENO) == 1 else { return false }
    print("\(question) [y/N] ", terminator: "")
    fflush(nil)
    guard let answer = readLine() else { return false }
    return ["y", "yes"].contains(answer.lowercased())
}

extension Catalog {
    /// Issuers change credits every few months; past this age a card's amounts may be wrong.
    static let staleAfterMonths = 6

    /// Whole months from `date` to `today`.
    static func months(from date: LocalDate, to today: LocalDate) -> Int {
        date.months(until: today) - (today.day < date.day ? 1 : 0)
    }

    /// Whether terms checked on `date` are past `staleAfterMonths` on `today`.
    static func isOld(_ date: LocalDate, today: LocalDate) -> Bool {
        months(from: date, to: today) >= staleAfterMonths
    }

    /// What a card's check date means, said where its amounts are shown or just added (`cards
    /// show`, `add card`, `setup`) rather than as a warning on any command: nil while its terms
    /// are recent, or for a user's own card, which names no date.
    static func checkedNote(_ card: CardCatalog.Card, today: LocalDate) -> String? {
        guard let date = card.oldestChecked, isOld(date, today: today) else { return nil }
        let count = months(from: date, to: today)
        return _n(
            "%1$s's terms were checked %2$s, %3$d month ago: issuers change credits often, so compare its amounts with the issuer's before relying on them; correct an item with reminderctl edit ID, or the card in %4$s (same format, by id).",
            "%1$s's terms were checked %2$s, %3$d months ago: issuers change credits often, so compare its amounts with the issuer's before relying on them; correct an item with reminderctl edit ID, or the card in %4$s (same format, by id).",
            count
        ).filled(card.name, date.description, String(count), userPath)
    }

    /// The same for several cards added by one command (`setup`): said once, naming each old
    /// card with its date, rather than the whole note once per card.
    static func checkedNote(_ cards: [CardCatalog.Card], today: LocalDate) -> String? {
        let old = cards.filter { card in card.oldestChecked.map { isOld($0, today: today) } ?? false }
        guard old.count > 1 else { return old.first.flatMap { checkedNote($0, today: today) } }
        let named = old.map { card in
            let date = card.oldestChecked!
            let count = months(from: date, to: today)
            return _n("%1$s (checked %2$s, %3$d month ago)", "%1$s (checked %2$s, %3$d months ago)", count)
                .filled(card.name, date.description, String(count))
        }
        let list = _t("%1$s and %2$s").filled(named.dropLast().joined(separator: ", "), named.last!)
        return _t(
            "The terms of %1$s were checked over %2$d months ago: issuers change credits often, so compare their amounts with the issuers' before relying on them; correct an item with reminderctl edit ID, or a card in %3$s (same format, by id)."
        ).filled(list, String(staleAfterMonths), userPath)
    }

    /// The line under the `cards` table: each row's CHECKED date is when its terms were checked,
    /// and how many are older than `staleAfterMonths`, with what that means and what to do.
    static func listingNote(_ cards: [CardCatalog.Card], today: LocalDate) -> String {
        let old = cards.filter { card in card.oldestChecked.map { isOld($0, today: today) } ?? false }
        guard !old.isEmpty else {
            return _t("CHECKED: when each card's terms were checked. Details: reminderctl cards show ID")
        }
        return _n(
            "CHECKED: when each card's terms were checked, over %1$d months ago for %2$d of these %3$d: issuers change credits often, so check a card's amounts before relying on them (reminderctl cards show ID names the source).",
            "CHECKED: when each card's terms were checked, over %1$d months ago for %2$d of these %3$d: issuers change credits often, so check a card's amounts before relying on them (reminderctl cards show ID names the source).",
            cards.count
        ).filled(String(staleAfterMonths), String(old.count), String(cards.count))
    }
}
