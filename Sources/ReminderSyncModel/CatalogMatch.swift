import CivilTime
import ReminderCore

/// A second device's first join: both devices ran `add card amex-gold`, so the same catalog
/// credits exist twice, under different UIDs. Matching them on what a catalog item is — kind,
/// card, credit (its title) and period — merges each pair instead of doubling every card.
public enum CatalogMatch {
    /// What makes two catalog items the same, case aside; nil for items no catalog makes
    /// (coupons, rebuys, subscriptions) or without a card.
    public struct Key: Hashable, Sendable {
        let kind: ItemKind
        let card: String
        let title: String
        let period: String
    }

    public static func key(_ item: Item) -> Key? {
        switch item.schedule {
        case .benefit(let benefit):
            guard let card = benefit.card else { return nil }
            return Key(
                kind: .benefit, card: card.lowercased(), title: item.title.lowercased(), period: benefit.period.rawValue
            )
        case .fee(let fee):
            guard let card = fee.card else { return nil }
            return Key(kind: .fee, card: card.lowercased(), title: item.title.lowercased(), period: "annual")
        case .subscription, .coupon, .rebuy:
            return nil
        }
    }

    /// Pairs each local item (by index) with the server item (by index) it is the same catalog
    /// entry as; each server item is used once, in order.
    public static func pairs(local: [Item], remote: [Item]) -> [(local: Int, remote: Int)] {
        var available: [Key: [Int]] = [:]
        for (index, item) in remote.enumerated() {
            if let key = key(item) { available[key, default: []].append(index) }
        }
        var result: [(Int, Int)] = []
        for (index, item) in local.enumerated() {
            guard let key = key(item), var candidates = available[key], !candidates.isEmpty else { continue }
            result.append((index, candidates.removeFirst()))
            available[key] = candidates
        }
        return result
    }
}
