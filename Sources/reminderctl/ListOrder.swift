import CivilTime
import ReminderCore
import ReminderProtocol

extension List {
    /// What is due first comes first: by due time (an overdue rebuy at the top), then the items
    /// without one (an unreadable item); those due at one time in the daemon's order.
    static func dueFirst(_ items: [ItemView]) -> [ItemView] {
        let instants = items.map { item in item.due?.instant }
        return items.indices.sorted { a, b in
            switch (instants[a], instants[b]) {
            case (let x?, let y?): return x != y ? x < y : a < b
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a < b
            }
        }.map { items[$0] }
    }
}
