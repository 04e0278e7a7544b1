/// Item ids in sorted order, for what asks about prefixes — resolving `reminderctl done ab`, and
/// picking a new id that is no other id's prefix — in O(log n) instead of a scan of every item.
struct SortedIds {
    private var ids: [String]

    /// Where `id` is or would go.
    private func position(of id: String) -> Int {
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// From ids that are all different (the store's primary key).
    init(_ ids: some Sequence<String> = []) {
        self.ids = ids.sorted()
    }

    /// Adds many new ids at once: one sort instead of a memmove per id.
    mutating func insert(contentsOf added: some Sequence<String>) {
        ids = (ids + added).sorted()
    }

    mutating func insert(_ id: String) {
        let at = position(of: id)
        if at == ids.count || ids[at] != id { ids.insert(id, at: at) }
    }

    mutating func remove(_ id: String) {
        let at = position(of: id)
        if at < ids.count, ids[at] == id { ids.remove(at: at) }
    }

    /// The ids that start with `prefix`, in order (ids sharing a prefix are adjacent).
    func starting(with prefix: String) -> [String] {
        var found: [String] = []
        var at = position(of: prefix)
        while at < ids.count, ids[at].hasPrefix(prefix) {
            found.append(ids[at])
            at += 1
        }
        return found
    }

    /// Every id, in order.
    var all: [String] { ids }

    func contains(_ id: String) -> Bool {
        let at = position(of: id)
        return at < ids.count && ids[at] == id
    }

    /// Whether `candidate` starts some id, or some id starts it.
    func overlaps(_ candidate: String) -> Bool {
        let at = position(of: candidate)
        if at < ids.count, ids[at].hasPrefix(candidate) { return true }
        var prefix = Substring(candidate)
        while prefix.count > 1 {
            prefix = prefix.dropLast()
            if contains(String(prefix)) { return true }
        }
        return false
    }
}
