import ReminderCore

/// Never twice by accident (CONTRACT §4, `Add`): what `Add` refuses unless told otherwise,
/// answered from the index in memory, in the same queue turn as the add itself, so no other
/// client's change slips between the check and the insert.
extension ItemIndex {
    /// `item` with its card spelt as the items already on that card spell it ("amex platinum"
    /// is "Amex Platinum"), so a card is one card in `wallet`, `report` and `list --card`. A
    /// card no item has yet, a few letters from one that some have, is most likely a typo:
    /// refused (`nearCard`) with the names it is near.
    /// `besides`: the item being edited, whose own card is no other card to be near.
    func spellingCard(of item: Item, besides: String? = nil) throws(EngineError) -> Item {
        guard let card = item.cardName else { return item }
        let folded = NameFolding.fold(card)
        var near: [String] = []
        for name in cardNames(besides: besides) {
            let known = NameFolding.fold(name)
            if known == folded {
                var respelt = item
                respelt.cardName = name
                return respelt
            }
            if NameFolding.isNear(folded, known) { near.append(name) }
        }
        if !near.isEmpty { throw EngineError.nearCard(card, known: near) }
        return item
    }

    /// Refuses (`duplicate`) an item tracked already: one of the same kind and title on the
    /// same card (case, accents and spacing aside); a benefit on the same card whose title
    /// starts with this one's or the other way round ("Resy" beside "Resy dining credit", as the
    /// card's catalog entry adds it); a fee on a card whose fee is tracked ("Platinum fee"
    /// beside "Amex Platinum annual fee").
    func refuseDuplicate(of item: Item) throws(EngineError) {
        let title = NameFolding.fold(item.title)
        let card = item.cardName.map(NameFolding.fold)
        // Only the items that can match are read: those of the card, or — with no card — those
        // whose key is the same (a hash seen twice; then the scan finds which).
        let candidates: [String]
        if let card, !card.isEmpty {
            candidates = names.byCard[card]?.ids ?? []
        } else if names.keys[NameKeys.key(item)] != nil {
            candidates = order
        } else {
            return
        }
        var matches: [String] = []
        var feeOfCard = false
        for id in candidates {
            guard let other = items[id], other.kind == item.kind, other.cardName.map(NameFolding.fold) == card else {
                continue
            }
            let otherTitle = NameFolding.fold(other.title)
            if otherTitle == title
                || (item.kind == .benefit && card != nil && ItemIndex.startsWithWords(otherTitle, title))
            {
                matches.append(id)
            } else if item.kind == .fee, card != nil {
                matches.append(id)
                feeOfCard = true
            }
        }
        guard !matches.isEmpty else { return }
        // The kind stays its English word, as `list` writes it in every language.
        let (kind, named) = (Wording.Argument.text(item.kind.rawValue), Wording.Argument.text(item.title))
        let what = Wording.Argument.wording(
            item.cardName.map { Wording(N_("%1$s \"%2$s\" on %3$s"), kind, named, .text($0)) }
                ?? Wording(N_("%1$s \"%2$s\""), kind, named))
        let reason =
            feeOfCard
            ? Wording(
                N_("%1$s has its fee tracked already; %2$s would be a second one"), .text(item.cardName ?? ""), what)
            : Wording(N_("%1$s is tracked already"), what)
        throw EngineError.duplicate(reason, matches: matches)
    }

    /// Whether one of two folded titles is the other's first words ("resy" and "resy dining credit").
    static func startsWithWords(_ a: String, _ b: String) -> Bool {
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        return !short.isEmpty && long.hasPrefix(short + " ")
    }

    /// The card names the items carry, each once, as its first item spells it.
    func cardNames(besides id: String? = nil) -> [String] {
        names.byCard.values.filter { card in id.map { card.ids != [$0] } ?? true }.map(\.name)
    }
}

/// What `refuseDuplicate` and `spellingCard` look up: how many items have each kind-card-title
/// key (by hash: ~16 bytes an item, where the folded strings would be ~100), and the ids of the
/// items on each card (folded name), with the name as first spelt.
struct NameKeys: Equatable, Sendable {
    struct Card: Equatable, Sendable {
        var name: String
        var ids: [String]
    }
    private(set) var keys: [Int: Int] = [:]
    private(set) var byCard: [String: Card] = [:]

    static func key(_ item: Item) -> Int {
        var hasher = Hasher()
        hasher.combine(item.kind)
        hasher.combine(NameFolding.fold(item.cardName ?? ""))
        hasher.combine(NameFolding.fold(item.title))
        return hasher.finalize()
    }

    mutating func insert(_ item: Item, id: String) {
        keys[NameKeys.key(item), default: 0] += 1
        guard let name = item.cardName, !name.isEmpty else { return }
        byCard[NameFolding.fold(name), default: Card(name: name, ids: [])].ids.append(id)
    }

    mutating func remove(_ item: Item, id: String) {
        let key = NameKeys.key(item)
        keys[key] = (keys[key] ?? 1) > 1 ? keys[key]! - 1 : nil
        guard let name = item.cardName, !name.isEmpty else { return }
        let card = NameFolding.fold(name)
        byCard[card]?.ids.removeAll { $0 == id }
        if byCard[card]?.ids.isEmpty == true { byCard[card] = nil }
    }

    /// Equal as content: the ids of a card in any order (an update moves one to the end).
    static func == (a: NameKeys, b: NameKeys) -> Bool {
        a.keys == b.keys && a.byCard.mapValues { Set($0.ids) } == b.byCard.mapValues { Set($0.ids) }
    }
}

extension Item {
    /// The card a benefit, a subscription or a fee is on; coupons and rebuys have none.
    var cardName: String? {
        get {
            switch schedule {
            case .benefit(let benefit): return benefit.card
            case .subscription(let subscription): return subscription.card
            case .fee(let fee): return fee.card
            case .coupon, .rebuy: return nil
            }
        }
        set {
            switch schedule {
            case .benefit(var benefit):
                benefit.card = newValue
                schedule = .benefit(benefit)
            case .subscription(var subscription):
                subscription.card = newValue
                schedule = .subscription(subscription)
            case .fee(var fee):
                fee.card = newValue
                schedule = .fee(fee)
            case .coupon, .rebuy: break
            }
        }
    }
}
