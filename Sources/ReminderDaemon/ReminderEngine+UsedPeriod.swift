import ReminderCore
import ReminderStore

extension ReminderEngine {
    /// `item` with its used amount's period stamped where it has none: the period current at
    /// `now`. An amount arrives without one from `add` and `import` (a backup written before the
    /// field existed, or typed by hand), from an Undo step stored before it, and from an item
    /// stored before it — read once after the upgrade (`stampUsedPeriodsAtStart`) and so counted
    /// toward the period current then, as another device's copy without a period is (VTodoReader).
    func stampingUsedPeriod(_ item: Item, now: Int64) -> Item {
        guard case .benefit(var benefit) = item.schedule, benefit.amountUsed != nil, benefit.amountUsedPeriod == nil
        else { return item }
        var stamped = item
        benefit.amountUsedPeriod = currentPeriod(of: item, now: now)?.dueDate
        stamped.schedule = .benefit(benefit)
        return stamped
    }

    /// The loaded items with the used amounts stored before their period was recorded stamped,
    /// and those written back (without history: nothing changed for anyone), so that the period
    /// is fixed at the first start after the upgrade and not taken again at every start.
    func stampUsedPeriodsAtStart(_ loaded: [Item], now: Int64) throws(ReminderStoreError) -> [Item] {
        var stamped: [Item] = []
        let items = loaded.map { item in
            let after = stampingUsedPeriod(item, now: now)
            if after != item { stamped.append(after) }
            return after
        }
        if !stamped.isEmpty { try store.rewriteItems(stamped) }
        return items
    }

    /// What is used of the benefit's current period at `now` (nil for other kinds, or nothing).
    func usedThisPeriod(of item: Item, now: Int64) -> Money? {
        guard case .benefit(let benefit) = item.schedule, let current = currentPeriod(of: item, now: now) else {
            return nil
        }
        return benefit.amountUsed(inPeriodDueOn: current.dueDate)
    }
}
