/// The dbusmenu ids of the indicator's menu entries. dbusmenu leaves ids to the application, and
/// several hosts (a second tray, a bar on another output) may each hold a layout fetched at a
/// different time: so an id names one entry — an item's occurrence and one action on it, a
/// header, the pause — not a position. It stays the entry's while the menu holds that entry and
/// is never given to another, so a click means what its person saw: the entry's action while the
/// menu holds it, a refusal in words once it left (`retired`), never another item's action.
struct IndicatorMenuIds {
    /// The entries the menu holds, by id, their children numbered too; id 0 is the root.
    private(set) var live: [Int32: IndicatorMenuItem] = [0: IndicatorMenuItem(key: "root", label: "")]
    private var byKey: [String: Int32] = [:]
    /// Entries the menu held before, by id, in the words a late click on one is refused with;
    /// the latest `retiredKept` (older ones are unknown ids, as never given).
    private var retired: [Int32: String] = [:]
    private var retiredOrder: [Int32] = []
    private var lastId: Int32 = 0
    static let retiredKept = 4096

    /// What a click on `id` means: the live entry's action (nil for one without), the refusal of
    /// an entry that left the menu, or nil for an id never given (`known` false).
    func click(_ id: Int32) -> (known: Bool, action: IndicatorAction?) {
        if let item = live[id] { return (true, item.action) }
        if let words = retired[id] { return (true, .withdrawn(words)) }
        return (false, nil)
    }

    /// `menu` with every entry's id: the one its key had if the menu held it before, else a new
    /// one. Entries of the old menu that `menu` lacks are retired.
    mutating func assign(_ menu: [IndicatorMenuItem]) -> [IndicatorMenuItem] {
        var newByKey: [String: Int32] = [:]
        var newLive: [Int32: IndicatorMenuItem] = [:]
        func number(_ items: [IndicatorMenuItem]) -> [IndicatorMenuItem] {
            items.map { entry in
                var entry = entry
                let id = byKey[entry.key].flatMap { newByKey[entry.key] == nil ? $0 : nil } ?? newId()
                newByKey[entry.key] = id
                entry.id = id
                entry.children = number(entry.children)
                newLive[id] = entry
                return entry
            }
        }
        let numbered = number(menu)
        newLive[0] = IndicatorMenuItem(key: "root", label: "", children: numbered)
        for (id, entry) in live where newLive[id] == nil { retire(id, entry) }
        live = newLive
        byKey = newByKey
        return numbered
    }

    /// Ids count up and are not given twice; past Int32's last one (2^31 entries shown) they
    /// start again at 1, skipping those in use.
    private mutating func newId() -> Int32 {
        repeat { lastId = lastId == .max ? 1 : lastId + 1 } while live[lastId] != nil || retired[lastId] != nil
        return lastId
    }

    private mutating func retire(_ id: Int32, _ entry: IndicatorMenuItem) {
        guard entry.action != nil else { return }
        let label = entry.label.replacing("__", with: "_")
        retired[id] = entry.about.map { "“\(label)” for \($0)" } ?? "“\(label)”"
        retiredOrder.append(id)
        if retiredOrder.count > IndicatorMenuIds.retiredKept {
            retired[retiredOrder.removeFirst()] = nil
        }
    }
}
