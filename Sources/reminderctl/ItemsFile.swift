import ReminderCore

/// An items file: a JSON array of items in the §2 format, all valid or none taken.
enum ItemsFile {
    static func load(path: String, zone: TimeZoneRules, defaultCreatedAt: Int64?) throws -> [Item] {
        guard case .array(let elements) = try readJSON(path) else {
            throw Refusal(message: "\(path): expected a JSON array of items")
        }
        let context = Item.DecodingContext(zone: zone, defaultCreatedAt: defaultCreatedAt)
        var items: [Item] = []
        var seen: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            do {
                let item = try Item(json: element, path: "items[\(index)]", context: context)
                if let id = item.id {
                    if let first = seen[id] {
                        throw Refusal(
                            message: "\(path): items[\(index)].id: \"\(id)\" is already used by items[\(first)]")
                    }
                    seen[id] = index
                }
                items.append(item)
            } catch let error as ReminderCoreError {
                throw Refusal(message: "\(path): \(error)")
            }
        }
        return items
    }
}
