import ReminderCore
import ReminderJSON
import ReminderPlatform
import ReminderProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// An import too large for one request (the daemon takes 1 MiB) goes as several `Import` calls
/// of consecutive items. Each call is all or none, but the whole is not: so every item is first
/// checked here, as the daemon would, and when a batch is still refused (an id already in use, a
/// full disk) the user is told exactly which items were imported and that nothing of the failing
/// batch was applied. A backup's state travels with its items: each entry in the batch of the
/// item it names (history of items no longer there, in the first), so an item and its state are
/// always written in one transaction.
enum ImportBatches {
    /// Room left in a request for everything but the items and their state.
    static let envelope = 512

    /// Consecutive ranges of `items` whose `Import` request fits in one message; `extra[i]` is
    /// the size of item i's state.
    static func ranges(_ items: [JSONValue], extra: [Int] = [], limit: Int = VarlinkFraming.maximumMessageSize) throws
        -> [Range<Int>]
    {
        var ranges: [Range<Int>] = []
        var start = 0
        var size = 0
        for (index, item) in items.enumerated() {
            let itemSize = item.serialized().count + 1 + (index < extra.count ? extra[index] : 0)  // and its comma
            guard itemSize + envelope <= limit else {
                throw Refusal(
                    message: _t("items[%1$d] is %2$d bytes, over the daemon's request limit of %3$d")
                        .filled(String(index), String(itemSize), String(limit)))
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

    static let sections = ["occurrences", "redemptions", "undo", "history"]

    /// Which item (index) each state entry goes with: the one it names, else the first.
    static func owners(_ items: [JSONValue], state: JSONValue?) -> [String: [Int]] {
        var index: [String: Int] = [:]
        for (position, item) in items.enumerated() { index[Output.string(item["id"])] = position }
        var owners: [String: [Int]] = [:]
        for section in sections {
            owners[section] = (state?[section]?.elements ?? []).map { index[Output.string($0["item"])] ?? 0 }
        }
        return owners
    }

    /// The part of `state` for the items in `range`.
    static func slice(_ state: JSONValue?, owners: [String: [Int]], range: Range<Int>) -> JSONValue? {
        guard let state, state != .null else { return nil }
        var fields: [String: JSONValue] = [:]
        for section in sections {
            let entries = state[section]?.elements ?? []
            let owner = owners[section] ?? []
            fields[section] = .array(entries.indices.filter { range.contains(owner[$0]) }.map { entries[$0] })
        }
        return .object(fields)
    }

    /// Imports `items` with `state` (read from `file`) and returns their ids; on a refused batch,
    /// prints what was imported and throws what was not.
    static func run(_ items: [JSONValue], state: JSONValue? = nil, replace: Bool = false, file: String) throws
        -> [String]
    {
        let owners = owners(items, state: state)
        var extra = [Int](repeating: 0, count: items.count)
        for section in sections {
            for (entry, owner) in zip(state?[section]?.elements ?? [], owners[section] ?? []) {
                extra[owner] += entry.serialized().count + 1
            }
        }
        let ranges = try ranges(items, extra: extra)
        if ranges.count > 1 { try validate(file: file) }
        var ids: [String] = []
        for range in ranges {
            let reply = try DaemonClient.reply(
                .importItems(
                    .init(items: Array(items[range]), state: slice(state, owners: owners, range: range), replace: replace)))
            switch reply {
            case .success(let parameters):
                ids += try Output.read { try ImportReply(parameters: parameters) }.ids
            case .failure(let error):
                let reason = shifted(ErrorWording.message(error), by: range.lowerBound)
                guard range.lowerBound > 0 else { throw Refusal(message: reason) }
                print(
                    _t("Imported %1$d items (items[0] to items[%2$d]): %3$s")
                        .filled(String(ids.count), String(range.lowerBound - 1), ids.joined(separator: " ")))
                if error.name == ReminderInterface.ErrorName.notDurable {
                    throw Refusal(
                        message: _t("items[%1$d] to items[%2$d]: %3$s\nThe items after them were not imported.")
                            .filled(String(range.lowerBound), String(range.upperBound - 1), reason))
                }
                throw Refusal(
                    message: _t("items[%1$d] to items[%2$d] were not imported: %3$s; nothing of that batch was applied")
                        .filled(String(range.lowerBound), String(items.count - 1), reason))
            case .streamed: preconditionFailure("a reply read from the socket is never a streamed one")
            }
        }
        return ids
    }

    /// Checks every item as the daemon will, so that bad input refuses the whole import before
    /// any batch is sent.
    static func validate(file: String) throws {
        _ = try ItemsFile.load(path: file, zone: DaemonClient.zone(), defaultCreatedAt: TestClock.process.now())
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
