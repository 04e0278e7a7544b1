import CivilTime
import HeapModule
import ReminderCore

/// The panel indicator's parts by item (`IndicatorPart`), kept between publishes while a panel
/// is present, so that composing the indicator costs what it shows and what changed: an item's
/// part is worked out again only when the item or its records change (`ItemIndex.takeChanges`)
/// or its time comes (its occurrence passes, or comes within a week), not on every command,
/// button and timer run (with 100k items the walk over all of them took ~1 s per snooze).
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
    private(set) var parts: [String: IndicatorPart] = [:]
    /// The items whose occurrence was within a week when their part was worked out: those the
    /// menu may show (an item enters by its `validUntil`, and leaves when it passes).
    private(set) var soon: Set<String> = []
    /// The wallet's total left, summed exactly (one part's value taken back out when it changes).
    private var wallet: Int128 = 0
    private var expiries = Heap<Expiry>()
    /// How many parts were worked out since it was made: what the changes cost.
    private(set) var worked = 0

    /// Every item's part.
    init(context: Context, _ snapshot: QuerySnapshot) {
        self.context = context
        parts.reserveCapacity(snapshot.order.count)
        for id in snapshot.order { refresh(id, snapshot) }
    }

    var walletLeft: Money { Money(tenThousandths: Int64(clamping: wallet)) }

    /// When a part is next due to be worked out again.
    var nextExpiry: Int64? { expiries.min?.at }

    /// Works out again the parts of the items that changed and of those whose time came by
    /// `snapshot.now`.
    mutating func update(changed: Set<String>, _ snapshot: QuerySnapshot) {
        var due = changed
        while let first = expiries.min, first.at <= snapshot.now {
            expiries.removeMin()
            if parts[first.id]?.validUntil == first.at { due.insert(first.id) }
        }
        for id in due { refresh(id, snapshot) }
        // The earliest left is one that holds, so `nextExpiry` wakes the timer for nothing stale.
        while let first = expiries.min, parts[first.id]?.validUntil != first.at { expiries.removeMin() }
        // Each refresh leaves its item's earlier expiry behind: drop them when they outnumber
        // the items, so the heap stays in proportion to the store.
        if expiries.count > 2 * parts.count + 1024 {
            expiries = Heap(
                parts.compactMap { id, part in part.validUntil == .max ? nil : Expiry(at: part.validUntil, id: id) })
        }
    }

    private mutating func refresh(_ id: String, _ snapshot: QuerySnapshot) {
        if let old = parts.removeValue(forKey: id) { wallet -= Int128(old.walletLeft) }
        soon.remove(id)
        worked += 1
        guard let part = snapshot.indicatorPart(of: id) else { return }
        parts[id] = part
        wallet += Int128(part.walletLeft)
        if let due = part.due, NotificationText.daysLeft(due, now: snapshot.now, zone: snapshot.zone) <= 7 {
            soon.insert(id)
        }
        if part.validUntil != .max { expiries.insert(Expiry(at: part.validUntil, id: id)) }
    }
}
