import CivilTime
import ReminderCore
import ReminderJSON

/// An items file: a JSON array of items in the §2 format, or a backup (`reminderctl export`):
/// an object with that array as `items` and their `state`. All valid or none taken.
enum ItemsFile {
    /// The items and the state (nil for a plain array) of a file's JSON.
    static func parts(_ document: JSONValue, path: String) throws -> (items: [JSONValue], state: JSONValue?) {
        switch document {
        case .array(let items): return (items, nil)
        case .object(let fields):
            guard case .array(let items)? = fields["items"] else {
                throw Refusal(message: "\(path): expected a JSON array of items, or a backup with an \"items\" array")
            }
            return (items, fields["state"])
        default: throw Refusal(message: "\(path): expected a JSON array of items, or a backup with an \"items\" array")
        }
    }

    static func load(path: String, zone: TimeZoneRules, defaultCreatedAt: Int64?) throws -> [Item] {
        let elements = try parts(readJSON(path), path: path).items
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
