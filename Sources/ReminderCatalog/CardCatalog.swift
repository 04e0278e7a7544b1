import CivilTime
import ReminderCore
import ReminderJSON
import ReminderPlatform

/// Popular premium cards with their annual fee and recurring credits, and common subscriptions
/// with their usual price: what `reminderctl cards`, `add card`, `add subscription --template`
/// and `setup` offer.
///
/// The bundled data is `Resources/cards.json` (versioned, with its source), built into the code;
/// a user catalog in `~/.config/reminderd/cards.json` adds cards and templates or replaces
/// bundled ones by id.
///
/// Dated by its own data: each card says when its fee and credits were checked against the
/// issuer's terms (`checked`), a credit checked later says so itself, with the page it was
/// checked on (`source`); the catalog is as old as its oldest entry (`checked`). No hand-set date
/// for the whole file, which drifted from what its entries said.
public struct CardCatalog: Sendable, Equatable {
    public var version: Int
    public var source: String
    public var cards: [Card]
    public var subscriptions: [SubscriptionTemplate]

    /// The oldest and the newest date any card or credit was checked on; nil when none says
    /// (a user's own cards need not).
    public var checked: ClosedRange<LocalDate>? {
        let dates = cards.flatMap(\.checkedDates)
        guard let oldest = dates.min(), let newest = dates.max() else { return nil }
        return oldest...newest
    }

    public struct Card: Sendable, Equatable {
        public var id: String
        public var issuer: String
        public var name: String
        public var annualFee: Money
        public var credits: [Credit]
        /// When its fee and credits were checked against the issuer's terms (required in the
        /// bundled catalog; a user's own card may leave it out).
        public var checked: LocalDate?
        /// Where they were checked, when one page says (an address).
        public var source: String?

        /// The credits' yearly total.
        public var annualValue: Money { credits.reduce(Money.zero) { $0 + $1.annualValue } }

        /// When this card's oldest term was checked: its own date, or an older credit's.
        public var oldestChecked: LocalDate? { checkedDates.min() }

        /// The card's date and each credit's own.
        var checkedDates: [LocalDate] { ([checked] + credits.map(\.checked)).compactMap { $0 } }

        /// When `credit`'s terms were checked: its own date, else the card's.
        public func checked(_ credit: Credit) -> LocalDate? { credit.checked ?? checked }
    }

    public struct Credit: Sendable, Equatable {
        public var id: String
        public var title: String
        public var amount: Money
        public var period: Benefit.Period
        /// Whether the credit's periods are calendar ones or counted from the card's anniversary.
        public var resets: Resets
        /// Amounts that differ by month, as an item's `amountIn` (Uber Cash: $35 in December).
        public var amountIn: [Int: Money]
        /// The yearly total when it is not the periods' amounts added up.
        public var annualAmount: Money?
        public var notes: String?
        /// When its terms were checked, when later than its card's (`Card.checked(_:)`).
        public var checked: LocalDate?
        /// The page they were checked on (an address).
        public var source: String?

        /// `annualAmount`, else each calendar period's amount (its month's when `amountIn` has it)
        /// added up.
        public var annualValue: Money {
            annualAmount
                ?? stride(from: period.months, through: 12, by: period.months).reduce(Money.zero) {
                    $0 + (amountIn[$1] ?? amount)
                }
        }

        /// When a credit's periods start: `calendar` (January, April, July, October for
        /// quarterly; the default) or `anniversary` (the card's account anniversary: the day its
        /// card year starts, which `add card` takes from `--anniversary` or the fee date).
        public enum Resets: String, Sendable, CaseIterable {
            case calendar, anniversary
        }
    }

    public struct SubscriptionTemplate: Sendable, Equatable {
        public var id: String
        public var title: String
        public var amount: Money
        public var every: CalendarDuration
        /// The usual free trial in days, when the service offers one (`add --template ID --trial`).
        public var trialDays: Int?
    }

    /// The catalog built into reminderctl: `Resources/cards.json`, embedded in the code at build
    /// time (`.embedInCode`), so no installed file can be missing or stale and no Foundation
    /// `Bundle` (with ICU behind it) is linked to find one. `$REMINDERD_CATALOG` names a file read
    /// instead (the tests' aged catalog).
    public static func bundled() throws(ReminderCoreError) -> CardCatalog {
        if let override = environmentVariable("REMINDERD_CATALOG"), !override.isEmpty {
            let bytes: [UInt8]
            do { bytes = try FileReader.read(override) } catch {
                throw .invalidValue(field: "REMINDERD_CATALOG", reason: error.description)
            }
            return try CardCatalog(json: JSONValue.parse(bytes, source: override), path: "")
        }
        return try CardCatalog(json: JSONValue.parse(PackageResources.cards_json, source: "the bundled catalog"), path: "")
    }

    /// `other`'s cards and templates added to these, replacing those with the same id.
    public func overridden(by other: CardCatalog) -> CardCatalog {
        var merged = self
        for card in other.cards {
            if let index = merged.cards.firstIndex(where: { $0.id == card.id }) {
                merged.cards[index] = card
            } else {
                merged.cards.append(card)
            }
        }
        for template in other.subscriptions {
            if let index = merged.subscriptions.firstIndex(where: { $0.id == template.id }) {
                merged.subscriptions[index] = template
            } else {
                merged.subscriptions.append(template)
            }
        }
        return merged
    }

    /// Cards whose id, name or issuer contains every word of `search` (case-insensitive), by issuer.
    public func cards(matching search: String) -> [Card] {
        let words = search.lowercased().split(separator: " ").map(String.init)
        return cards.filter { card in
            let text = "\(card.id) \(card.name) \(card.issuer)".lowercased()
            return words.allSatisfy { text.contains($0) }
        }.sorted { ($0.issuer, $0.name) < ($1.issuer, $1.name) }
    }

    public func card(id: String) -> Card? { cards.first { $0.id == id } }

    public func subscription(id: String) -> SubscriptionTemplate? { subscriptions.first { $0.id == id } }
}
