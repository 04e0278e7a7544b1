import ReminderCore

/// The items by id, each kept as a `PackedItem` (~40 bytes in one small array) rather than an
/// `Item` (184 bytes, in a dictionary kept under three-quarters full): at 10k items the items
/// were 3.3 MiB of the daemon's 18 MiB (massif). Reading one decodes it — a few hundred
/// nanoseconds, which `list` at 10k items or start-up's planning pays once an item.
struct ItemTable: Sendable {
    private var packed: [String: PackedItem] = [:]

    var count: Int { packed.count }
    var isEmpty: Bool { packed.isEmpty }

    subscript(id: String) -> Item? {
        get { packed[id]?.item }
        set { packed[id] = newValue.map(PackedItem.init) }
    }

    func contains(_ id: String) -> Bool { packed[id] != nil }

    /// An item's title without decoding the rest of it.
    func title(of id: String) -> String? { packed[id]?.title }

    /// Every id, in no order.
    var ids: Dictionary<String, PackedItem>.Keys { packed.keys }

    /// Every item, in no order.
    var values: [Item] { packed.values.map(\.item) }

    mutating func reserveCapacity(_ count: Int) { packed.reserveCapacity(count) }

    /// Forgets an item; whether it was there.
    @discardableResult
    mutating func remove(_ id: String) -> Bool { packed.removeValue(forKey: id) != nil }
}
