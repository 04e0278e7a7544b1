import ReminderCore
import ReminderStore

/// The items in memory: each by id, their ids in creation order (for listing) and sorted (for
/// prefixes), each one's stored occurrence records and accepted fires, and the stored items that
/// cannot be read. It changes only through its methods, after the store has the change.
///
/// Invariant: `order` holds every id of `items` once, and `sortedIds` the same ids; an id is never
/// both readable and quarantined; every occurrence record is filed under its own item and due
/// instant; records and accepted fires belong to items it knows (readable or quarantined), so
/// removing an item leaves nothing of it behind.
struct ItemIndex: Sendable {
    private(set) var items = ItemTable()
    private(set) var order: [String] = []
    private(set) var sortedIds = SortedIds()
    /// Stored occurrence state by item, then due instant.
    private(set) var occurrences: [String: [Int64: OccurrenceRecord]] = [:]
    /// Fires the server accepted: (item, due, fireAt).
    private(set) var fired = FiredSet()
    /// Per item, its newest reminder the server accepted: where its next repeat starts from
    /// (`RepeatRule`).
    private(set) var lastShown: [String: LastShown] = [:]
    /// Per item, the newest acknowledgement of one of its pop-ups (a Done, snooze or dismiss,
    /// here or on another device): a repeat of a reminder shown by then stops at it.
    private(set) var acknowledged: [String: Int64] = [:]
    /// Stored items that cannot be read, by id: listed and removable, nothing else.
    private(set) var quarantined: [String: QuarantinedItem] = [:]
    /// The items' kind-card-title keys and cards, for refusing a duplicate without a scan.
    private(set) var names = NameKeys()
    /// The items added, changed or removed, or whose records changed, since `takeChanges` (nil:
    /// all of them, as after loading): what the panel indicator works out again (`IndicatorCache`).
    private var changed: Set<String>?

    /// What the store holds at start.
    init(
        items loaded: [Item], quarantined unreadable: [QuarantinedItem], records: [OccurrenceRecord],
        fires: [FireRecord], acknowledged: [String: Int64] = [:]
    ) {
        self.acknowledged = acknowledged
        for item in unreadable { quarantined[item.id] = item }
        items.reserveCapacity(loaded.count)
        order.reserveCapacity(loaded.count)
        for item in loaded {
            guard let id = item.id else { continue }
            items[id] = item
            order.append(id)
            names.insert(item, id: id)
        }
        sortedIds = SortedIds(order)
        for record in records { occurrences[record.itemId, default: [:]][record.due] = record }
        for record in fires {
            fired.insert(FireKey(itemId: record.itemId, due: record.due, fireAt: record.fireAt), lead: record.lead)
            noteLastShown(
                record.itemId,
                LastShown(due: record.due, fireAt: record.fireAt, lead: record.lead ?? "", at: record.shownAt))
        }
    }

    init() {}

    /// Adds new items (their ids are new), at the end of the order.
    mutating func add(_ added: [Item]) {
        if added.count == 1 {
            sortedIds.insert(added[0].id!)
        } else {
            sortedIds.insert(contentsOf: added.map { $0.id! })
        }
        for item in added {
            items[item.id!] = item
            order.append(item.id!)
            names.insert(item, id: item.id!)
            changed?.insert(item.id!)
        }
    }

    /// Replaces an item by a changed one of the same id.
    mutating func update(_ item: Item) {
        guard let id = item.id, let old = items[id] else { return }
        names.remove(old, id: id)
        items[id] = item
        names.insert(item, id: id)
        changed?.insert(id)
    }

    /// Forgets an item, readable or not, with its records and fires.
    mutating func remove(_ id: String) {
        if let old = items[id] { names.remove(old, id: id) }
        if items.remove(id) {
            if let at = order.firstIndex(of: id) { order.remove(at: at) }
            sortedIds.remove(id)
        }
        quarantined[id] = nil
        occurrences[id] = nil
        fired.removeAll(of: id)
        lastShown[id] = nil
        acknowledged[id] = nil
        changed?.insert(id)
    }

    /// Stores an occurrence's record in memory (after the store has it).
    mutating func record(_ record: OccurrenceRecord) {
        occurrences[record.itemId, default: [:]][record.due] = record
        changed?.insert(record.itemId)
    }

    /// Moves what is kept of an item's occurrences (records and fires) to other due instants,
    /// after the store did (`ReminderStore.recordEdit`'s moves).
    mutating func move(_ id: String, _ moves: [(from: Int64, to: Int64)]) {
        guard !moves.isEmpty else { return }
        let map = Dictionary(moves.map { ($0.from, $0.to) }, uniquingKeysWith: { first, _ in first })
        if let records = occurrences[id] {
            var moved: [Int64: OccurrenceRecord] = [:]
            for var record in records.values {
                record.due = map[record.due] ?? record.due
                moved[record.due] = record
            }
            occurrences[id] = moved
        }
        fired.move(id, map)
        if let shown = lastShown[id], let to = map[shown.due] { lastShown[id]?.due = to }
        changed?.insert(id)
    }

    /// The items changed since the last call (nil: all), and starts counting afresh.
    mutating func takeChanges() -> Set<String>? {
        defer { changed = [] }
        return changed
    }

    /// The occurrence's record, if it has one.
    func record(of id: String, due: Int64) -> OccurrenceRecord? { occurrences[id]?[due] }

    /// Notes the fires of a reminder the server accepted at `now`. One shown again on a new
    /// server (`reshown`) is no new showing: its repeats go on counting from the first.
    mutating func recordShown(_ reminder: ShownReminder, at now: Int64) {
        for fire in reminder.fires {
            fired.insert(FireKey(itemId: reminder.itemId, due: reminder.due, fireAt: fire.at), lead: fire.lead)
        }
        if reminder.event != .reshown, let last = reminder.fires.max(by: { $0.at < $1.at }) {
            noteLastShown(reminder.itemId, LastShown(due: reminder.due, fireAt: last.at, lead: last.lead, at: now))
        }
    }

    /// Notes an acknowledgement of the item's pop-ups at `instant` — a Done, snooze or dismiss
    /// here or on another device — once the store has it (`syncObject.acknowledgedAt`).
    mutating func acknowledge(_ id: String, at instant: Int64) {
        acknowledged[id] = max(acknowledged[id] ?? instant, instant)
    }

    /// Keeps the newer showing; of fires shown on one pop-up (a late one stands for several), the
    /// latest, whatever order the store lists them in.
    private mutating func noteLastShown(_ id: String, _ shown: LastShown) {
        if let known = lastShown[id], (known.at, known.fireAt) > (shown.at, shown.fireAt) { return }
        lastShown[id] = shown
    }

    /// The occurrence the schedule, Done and Snooze act on: the first one still ahead that is
    /// not done.
    func currentOccurrence(of item: Item, rules: FireTimeRules, now: Int64) -> Occurrence? {
        guard let id = item.id else { return nil }
        return rules.firstOccurrence(of: item, dueAfter: now) { occurrences[id]?[$0.due]?.doneAt == nil }
    }

    /// An id, a unique id prefix, or an item's title or unique start of it (case and accents
    /// aside: `NameFolding`), in that order, so an id typed in full always wins. An item set
    /// aside as unreadable is found by its full id, for the commands that can act on it
    /// (`quarantinedToo`: Get, Remove); the others refuse. Several titles that fit refuse with
    /// their ids (`ambiguousName`), several ids that start so with theirs (`ambiguousId`).
    func resolve(_ text: String, quarantinedToo: Bool = false) throws(EngineError) -> String {
        if items[text] != nil { return text }
        if quarantined[text] != nil {
            guard quarantinedToo else {
                throw EngineError.notApplicable(
                    text, Wording(N_("its stored data is unreadable; it can only be removed")))
            }
            return text
        }
        let matches = text.isEmpty ? [] : sortedIds.starting(with: text)
        if matches.count == 1 { return matches[0] }
        let named = text.isEmpty ? [] : titled(text)
        if named.count == 1 { return named[0] }
        if !named.isEmpty { throw EngineError.ambiguousName(text, matches: named) }
        if matches.isEmpty || text.isEmpty { throw EngineError.noSuchItem(text) }
        throw EngineError.ambiguousId(text, matches: matches)
    }

    /// The items whose title is `name` (folded), in creation order; when none is, those whose
    /// title starts with it. O(items), only for a text that is no id: a few milliseconds at
    /// 10k items, once per command.
    func titled(_ name: String) -> [String] {
        let wanted = NameFolding.fold(name)
        guard !wanted.isEmpty else { return [] }
        var exact: [String] = []
        var starting: [String] = []
        for id in order {
            guard let title = items.title(of: id) else { continue }
            let folded = NameFolding.fold(title)
            if folded == wanted {
                exact.append(id)
            } else if folded.hasPrefix(wanted) {
                starting.append(id)
            }
        }
        return exact.isEmpty ? starting : exact
    }

    /// How the invariant is broken: empty when it holds. O(items); for tests and debugging.
    func checkInvariant() -> [String] {
        var broken: [String] = []
        if order.count != items.count || Set(order).count != order.count || !order.allSatisfy({ items.contains($0) }) {
            broken.append("the order (\(order.count) ids) is not the items' ids (\(items.count)) once each")
        }
        if sortedIds.all != order.sorted() { broken.append("the sorted ids are not the items' ids") }
        var rebuilt = NameKeys()
        for id in order { if let item = items[id] { rebuilt.insert(item, id: id) } }
        if rebuilt != names { broken.append("the name keys are not the items' kinds, cards and titles") }
        for id in quarantined.keys where items.contains(id) { broken.append("\(id) is both readable and unreadable") }
        for (id, records) in occurrences {
            if !items.contains(id) && quarantined[id] == nil { broken.append("records of \(id), which is not there") }
            for (due, record) in records where record.itemId != id || record.due != due {
                broken.append("a record of \(record.itemId) at \(record.due) filed under \(id) at \(due)")
            }
        }
        for id in fired.itemIds where !items.contains(id) && quarantined[id] == nil {
            broken.append("fires of \(id), which is not there")
        }
        return broken
    }
}

/// An item's newest reminder shown: of which occurrence, its fire time and lead (`3d`, `snooze`,
/// `repeat 2`), when the server accepted it.
struct LastShown: Hashable {
    var due: Int64
    let fireAt: Int64
    let lead: String
    let at: Int64
}

/// A fire: which reminder of which occurrence.
struct FireKey: Hashable {
    let itemId: String
    let due: Int64
    let fireAt: Int64
}

/// Accepted fires grouped by item, so removing an item does not touch everyone else's. A fire is
/// known by its instant and, when its lead tells which reminder it is (`ReminderFire.tellsLead`),
/// by its occurrence and lead too: a reminder time or zone that moved a shown lead's instant does
/// not make it new.
struct FiredSet {
    fileprivate struct Instants: Hashable {
        let due: Int64
        let fireAt: Int64
    }
    fileprivate struct Lead: Hashable {
        let due: Int64
        let lead: String
    }
    fileprivate struct OfItem {
        var instants: Set<Instants> = []
        var leads: Set<Lead> = []
    }
    private var byItem: [String: OfItem] = [:]

    func contains(_ key: FireKey) -> Bool {
        byItem[key.itemId]?.instants.contains(Instants(due: key.due, fireAt: key.fireAt)) ?? false
    }

    /// One item's accepted fires, looked up once for many questions.
    func of(_ itemId: String) -> Shown { Shown(fires: byItem[itemId]) }

    /// The items with accepted fires.
    var itemIds: [String] { Array(byItem.keys) }

    struct Shown {
        fileprivate let fires: OfItem?

        /// Whether `fire` of the occurrence due at `due` was shown: at its instant, or — a lead
        /// that tells which reminder it is — at any instant.
        func contains(due: Int64, _ fire: ReminderFire) -> Bool {
            guard let fires else { return false }
            return fires.instants.contains(Instants(due: due, fireAt: fire.at))
                || (fire.tellsLead && fires.leads.contains(Lead(due: due, lead: fire.lead)))
        }

        /// Whether any reminder of the occurrence due at `due` was shown.
        func containsAny(due: Int64) -> Bool { fires?.instants.contains { $0.due == due } ?? false }

        /// The occurrences with a reminder shown.
        var dues: Set<Int64> { Set(fires?.instants.map(\.due) ?? []) }
    }

    /// Moves one item's fires from one occurrence to another (`ItemIndex.move`).
    mutating func move(_ itemId: String, _ moves: [Int64: Int64]) {
        guard var fires = byItem[itemId] else { return }
        fires.instants = Set(fires.instants.map { Instants(due: moves[$0.due] ?? $0.due, fireAt: $0.fireAt) })
        fires.leads = Set(fires.leads.map { Lead(due: moves[$0.due] ?? $0.due, lead: $0.lead) })
        byItem[itemId] = fires
    }

    /// Notes a fire; `lead` nil for one stored before leads were (v8).
    mutating func insert(_ key: FireKey, lead: String?) {
        byItem[key.itemId, default: OfItem()].instants.insert(Instants(due: key.due, fireAt: key.fireAt))
        if let lead, ReminderFire(at: key.fireAt, lead: lead).tellsLead {
            byItem[key.itemId, default: OfItem()].leads.insert(Lead(due: key.due, lead: lead))
        }
    }

    mutating func removeAll(of itemId: String) { byItem[itemId] = nil }
}
