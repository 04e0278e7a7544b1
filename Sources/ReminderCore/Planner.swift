import CivilTime
import ReminderJSON

/// Every fire time of a set of items in a time range — what `reminderctl plan` prints and what
/// the daemon schedules.
public struct Planner: Sendable {
    public let rules: FireTimeRules
    public let configuration: Configuration

    public init(configuration: Configuration, zone: TimeZoneRules) {
        self.configuration = configuration
        self.rules = FireTimeRules(zone: zone, configuration: configuration)
    }

    /// One line of a plan.
    public struct Entry: Hashable, Sendable {
        /// Index into the `items` given to `plan`.
        public let itemIndex: Int
        public let fire: FireTime
    }

    /// The leads that apply to `item`.
    public func leads(for item: Item) -> [CalendarDuration] {
        item.lead ?? configuration.leadTimes
    }

    /// Every fire time in `[from, to)`, sorted by fire time, then item id, then due instant.
    /// Items without `createdAt` count as created at `from`.
    public func plan(items: [Item], from: Int64, to: Int64) -> [Entry] {
        var entries: [Entry] = []
        var scratch: [FireTime] = []
        for (index, item) in items.enumerated() {
            let leads = leads(for: item)
            // A fire time is never after its due instant, nor earlier than the longest lead plus
            // two days (the reminder time's day, a quiet-hours move back) and a move off days off
            // before it.
            let lookahead =
                (leads.map(\.nominalSeconds).max() ?? 0) + 3 * 86_400
                + (configuration.workdays == nil ? 0 : Workdays.longestMove)
            let createdAt = item.createdAt ?? from
            rules.forEachOccurrence(of: item, dueAfter: from, before: to + lookahead) { occurrence in
                scratch.removeAll(keepingCapacity: true)
                rules.fireTimes(of: occurrence, leads: leads, createdAt: createdAt, into: &scratch)
                for fire in scratch where fire.fireAt >= from && fire.fireAt < to {
                    entries.append(Entry(itemIndex: index, fire: fire))
                }
                return true
            }
        }
        let ids = items.enumerated().map { $0.element.id ?? String($0.offset + 1) }
        entries.sort { a, b in
            if a.fire.fireAt != b.fire.fireAt { return a.fire.fireAt < b.fire.fireAt }
            if a.itemIndex != b.itemIndex { return ids[a.itemIndex] < ids[b.itemIndex] }
            if a.fire.occurrence.due != b.fire.occurrence.due { return a.fire.occurrence.due < b.fire.occurrence.due }
            return a.fire.lead.nominalSeconds > b.fire.lead.nominalSeconds
        }
        return entries
    }

    /// The plan as CONTRACT §5's JSON array, one object per line, keys in the documented order.
    /// Items without an id are named by their 1-based position in the file.
    public func json(_ entries: [Entry], items: [Item]) -> String {
        var lines: [String] = []
        lines.reserveCapacity(entries.count)
        for entry in entries {
            let id = items[entry.itemIndex].id ?? String(entry.itemIndex + 1)
            let fire = entry.fire
            let adjusted = fire.adjusted.map { "\"\($0.rawValue)\"" } ?? "null"
            lines.append(
                "  {\"item\": \(JSONValue.string(id).text()), \"occurrenceDue\": \"\(Timestamp.format(fire.occurrence.due, in: rules.zone))\", "
                    + "\"lead\": \"\(fire.lead)\", \"fireAt\": \"\(Timestamp.format(fire.fireAt, in: rules.zone))\", "
                    + "\"adjusted\": \(adjusted)}")
        }
        return lines.isEmpty ? "[]" : "[\n" + lines.joined(separator: ",\n") + "\n]"
    }
}
