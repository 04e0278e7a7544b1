import CivilTime
import ReminderCore
import ReminderJSON
import ReminderPlatform

/// An items file: a JSON array of items in the §2 format, or a backup (`reminderctl export`):
/// an object with that array as `items` and their `state`. All valid or none taken.
enum ItemsFile {
    /// The items and the state (nil for a plain array) of a file's JSON.
    static func parts(_ document: JSONValue, path: String) throws -> (items: [JSONValue], state: JSONValue?) {
        switch document {
        case .array(let items): return (items, nil)
        case .object(let fields):
            guard case .array(let items)? = fields["items"] else {
                throw Refusal(message: _t("%1$s: expected a JSON array of items, or a backup with an \"items\" array").filled(path))
            }
            return (items, fields["state"])
        default: throw Refusal(message: _t("%1$s: expected a JSON array of items, or a backup with an \"items\" array").filled(path))
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
                            message: _t("%1$s: items[%2$d].id: \"%3$s\" is already used by items[%4$d]")
                                .filled(path, String(index), id, String(first)))
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

/// Reads and parses a JSON file, refusing with the path and the reason.
func readJSON(_ path: String) throws -> JSONValue {
    do {
        return try JSONValue.parse(try FileReader.read(path), source: path)
    } catch let error as ReminderPlatformError {
        throw Refusal(message: error.description)
    } catch let error as ReminderCoreError {
        throw Refusal(message: error.description)
    }
}

extension ConfigFile {
    /// The config file at `path`, read and checked by the loader the daemon uses (`plan --config`,
    /// `setup`); refused with the file, the key and the reason.
    static func refusing(_ path: String) throws -> Configuration {
        switch load(explicitPath: path) {
        case .success(let configuration): return configuration
        case .failure(let error): throw Refusal(message: error.message)
        }
    }
}

/// Reading the JSON of files and catalog items, which have no reply type (the daemon's replies
/// are read through theirs, with typed fields).
extension JSONValue {
    subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    var elements: [JSONValue] {
        if case .array(let values) = self { return values }
        return []
    }
}
