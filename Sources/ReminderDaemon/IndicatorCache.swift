import CivilTime
import HeapModule
import ReminderCore

/// The panel indicator's parts by item (`IndicatorPart`), kept between publishes while a panel
/// is present, so that composing the indicator costs what it shows and what changed: an item's
/// part is worked out again only when the item or its records change (`ItemIndex.takeChanges`)
/// or its time comes (its occurrence passes, or comes within a week), not on every command,
/// button and timer run (with 100k items the walk over all of them took ~1 s per snooze). What
/// it keeps is in proportion to what the indicator shows: the parts of the items due within the
/// week or counted in the wallet, and of every other item only its id, under the day it comes
/// within the week.
struct IndicatorCache {
    /// What every part depends on besides its item: a change of zone or settings starts over.
    struct Context: Equatable {
        var zone: String
        var configuration: Configuration
    }

    /// When `id`'s part is due to be worked out again (superseded entries are skipped).
    private struct Expiry: Comparable {
        var at: Int64
        var id: String
        static func < (a: Expiry, b: Expiry) -> Bool { (a.at, a.id) < (b.at, b.id) }
    }

    let context: Context
    /// The parts of the items within the week, with a wallet value, or settled until their
    /// occurrence passes and the next one follows: those with something to show or to count.
    private(set) var parts: [String: IndicatorPart] = [:]
    /// The items of `parts` due within the week: those the menu shows.
    private(set) var soon: Set<String> = []
    /// The other items with an occurrence due, by the local day (`CivilDate.dayNumber`) it comes
    /// within the week. An item that changed meanwhile may still be under its earlier day: it is
    /// then only worked out once more for nothing.
    private var entering: [Int64: Set<String>] = [:]
    /// When the parts' occurrences pass.
    private var expiries = Heap<Expiry>()
    /// The wallet's total left, summed exactly (one part's value taken back out when it changes).
    private var wallet: Int128 = 0
    /// How many parts were worked out since it was made: what the changes cost.
    private(set) var worked = 0

    /// Every item's part.
    init(context: Context, _ snapshot: QuerySnapshot) {
        self.context = context
        let today = snapshot.zone.localDateTime(at: snapshot.now).date.dayNumber
        for id in snapshot.order { refresh(id, snapshot, today: today) }
    }

    var walletLeft: Money { Money(tenThousandths: wallet) }

    /// When a part is next due to be worked out again before the next local midnight (the days
    /// items come within the week are midnights, a deadline of the indicator already).
    var nextExpiry: Int64? { expiries.min?.at }

    /// Works out again the parts of the items that changed and of those whose time came by
    /// `snapshot.now`.
    mutating func update(changed: Set<String>, _ snapshot: QuerySnapshot) {
        let today = snapshot.zone.localDateTime(at: snapshot.now).date.dayNumber
        var due = changed
        for day in entering.keys where day <= today { due.formUnion(entering.removeValue(forKey: day) ?? []) }
        while let first = expiries.min, first.at <= snapshot.now {
            expiries.removeMin()
            if parts[first.id]?.validUntil == first.at { due.insert(first.id) }
        }
        for id in due { refresh(id, snapshot, today: today) }
        // The earliest left is one that holds, so `nextExpiry` wakes the timer for nothing stale;
        // and the superseded ones are dropped when they outnumber the parts.
        while let first = expiries.min, parts[first.id]?.validUntil != first.at { expiries.removeMin() }
        if expiries.count > 2 * parts.count + 1024 {
            expiries = Heap(
                parts.filter { $0.value.validUntil != .max }.map { Expiry(at: $0.value.validUntil, id: $0.key) })
        }
    }

    private mutating func refresh(_ id: String, _ snapshot: QuerySnapshot, today: Int64) {
        if let old = parts.removeValue(forKey: id) { wallet -= Int128(old.walletLeft) }
        soon.remove(id)
        worked += 1
        guard let part = snapshot.indicatorPart(of: id) else { return }
        if let due = part.due, due.dueDate.dayNumber - today > 7 {
            entering[due.dueDate.dayNumber - 7, default: []].insert(id)
            guard part.walletLeft != 0 else { return }
        } else if part.due != nil {
            soon.insert(id)
        } else if part.validUntil == .max {
            return  // settled for good: nothing to show or count until it changes
        }
        parts[id] = part
        wallet += Int128(part.walletLeft)
        if part.validUntil != .max { expiries.insert(Expiry(at: part.validUntil, id: id)) }
    }
}
