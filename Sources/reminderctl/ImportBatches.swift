import ReminderCore
import ReminderPlatform
import ReminderProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// An import too large for one request (the daemon takes 1 MiB) goes as several `Import` calls
/// of consecutive items. Each call is all or none, but the whole is not: so every item is first
/// checked here, as the daemon would, and when a batch is still refused (an id already in use, a
/// full disk) the user is told exactly which items were imported and that nothing of the failing
/// batch was applied.
enum ImportBatches {
    /// Room left in a request for everything but the items.
    static let envelope = 256

    /// Consecutive ranges of `items` whose `Import` request fits in one message.
    static func ranges(_ items: [JSONValue], limit: Int = VarlinkFraming.maximumMessageSize) throws -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        var size = 0
        for (index, item) in items.enumerated() {
            let itemSize = item.serialized().count + 1  // and its comma
            guard itemSize + envelope <= limit else {
                throw Refusal(
                    message: "items[\(index)] is \(itemSize) bytes, over the daemon's request limit of \(limit)")
            }
            if size + itemSize + envelope > limit {
                ranges.append(start..<index)
                start = index
                size = 0
            }
            size += itemSize
        }
        if start < items.count || items.isEmpty { ranges.append(start..<items.count) }
        return ranges
    }

    /// Imports `items` (read from `file`) and returns their ids; on a refused batch, prints what
    /// was imported and throws what was not.
    static func run(_ items: [JSONValue], file: String) throws -> [String] {
        let ranges = try ranges(items)
        if ranges.count > 1 { try validate(file: file) }
        var ids: [String] = []
        for range in ranges {
            let reply = try DaemonClient.reply("Import", ["items": .array(Array(items[range]))])
            switch reply {
            case .success(let parameters):
                ids += parameters["ids"]?.elements.map { Output.string($0) } ?? []
            case .failure(let error):
                let reason = shifted(ErrorWording.message(error), by: range.lowerBound)
                guard range.lowerBound > 0 else { throw Refusal(message: reason) }
                print(
                    "Imported \(ids.count) items (items[0] to items[\(range.lowerBound - 1)]): \(ids.joined(separator: " "))"
                )
                let rest = "items[\(range.lowerBound)] to items[\(items.count - 1)]"
                if error.name == ReminderInterface.ErrorName.notDurable {
                    throw Refusal(
                        message:
                            "items[\(range.lowerBound)] to items[\(range.upperBound - 1)]: \(reason)\nThe items after them were not imported."
                    )
                }
                throw Refusal(
                    message: "\(rest) were not imported: \(reason); nothing of that batch was applied")
            }
        }
        return ids
    }

    /// Checks every item as the daemon will, so that bad input refuses the whole import before
    /// any batch is sent.
    static func validate(file: String) throws {
        let configuration = try ConfigLoader.load(path: ConfigFile.defaultPathIfPresent())
        let zone: TimeZoneRules
        do { zone = try ZoneDatabase.shared.zone(configured: configuration.timeZone) } catch {
            throw Refusal(message: "timeZone: \(error)")
        }
        _ = try ItemsFile.load(path: file, zone: zone, defaultCreatedAt: Int64(time(nil)))
    }

    /// The daemon names items within its batch (`items[3].id: …`); the user's file counts from
    /// the first item.
    static func shifted(_ message: String, by offset: Int) -> String {
        guard message.hasPrefix("items["), let close = message.firstIndex(of: "]"),
            let index = Int(message[message.index(message.startIndex, offsetBy: 6)..<close])
        else { return message }
        return "items[\(index + offset)]" + message[close...].dropFirst()
    }
}
