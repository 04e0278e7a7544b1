import FoundationEssentials
import ICalendar
import ReminderCore
import ReminderJSON
import ReminderPlatform
import ReminderProtocol
import ReminderSyncModel

/// What the fuzzers feed arbitrary bytes to: the parsers that read input from outside the
/// process. Each returns normally on any input — a refusal is an answer — and stops the process
/// (a finding) only when a parser crashes or an invariant below breaks.
public enum FuzzTargets {
    public static let names = ["json", "varlink", "config", "item", "ical", "xml"]

    public static func run(_ name: String, _ bytes: [UInt8]) {
        switch name {
        case "json": json(bytes)
        case "varlink": varlink(bytes)
        case "config": config(bytes)
        case "item": item(bytes)
        case "ical": ical(bytes)
        case "xml": xml(bytes)
        default: preconditionFailure("unknown fuzz target \(name)")
        }
    }

    /// The hand-written JSON reader against Foundation's `JSONDecoder`: what it accepts,
    /// Foundation accepts too, as the same value (it is stricter: no trailing commas, no
    /// duplicate names); and what it reads, `serialized` writes so that it reads back the same.
    public static func json(_ bytes: [UInt8]) {
        guard let value = try? JSONValue.parse(bytes, source: "fuzz") else { return }
        let foundation = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        precondition(
            foundation.map { same($0, value) } == true,
            "JSONDecoder reads \(String(describing: foundation)), parse reads \(value)")
        for pretty in [false, true] {
            precondition(
                (try? JSONValue.parse(value.serialized(pretty: pretty), source: "again")) == value,
                "\(value) does not survive serialized(pretty: \(pretty))")
        }
    }

    /// Equal, numbers compared by value — within 1 beyond 2^53, because `JSONDecoder` truncates
    /// a large fraction such as 9224407370955161.1 to an integer, where `parse` takes the
    /// nearest double.
    private static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.integer, .integer), (.integer, .number), (.number, .integer), (.number, .number):
            guard a != b, let x = a.double, let y = b.double else { return a == b }
            return max(abs(x), abs(y)) >= 0x1p53 ? abs(x - y) <= max(1, x.ulp) : x == y
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
        default: return a == b
        }
    }

    /// The socket's byte stream: framing must not depend on how reads split it, and a call that
    /// decodes must survive its own encoding.
    public static func varlink(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let stream = Array(bytes.dropFirst())
        let whole = messages(of: [stream])
        let chunk = Int(first % 16) + 1
        let pieces = stride(from: 0, to: stream.count, by: chunk).map {
            Array(stream[$0..<min($0 + chunk, stream.count)])
        }
        precondition(messages(of: pieces) == whole, "framing depends on read boundaries")
        for message in whole {
            guard let call = try? VarlinkCall(bytes: message) else { continue }
            let reframed = messages(of: [call.bytes])
            precondition(reframed.count == 1, "an encoded call is not one message")
            precondition((try? VarlinkCall(bytes: reframed[0])) == call, "a call does not survive its encoding")
        }
    }

    private static func messages(of reads: [[UInt8]]) -> [[UInt8]] {
        var framing = VarlinkFraming()
        var found: [[UInt8]] = []
        for read in reads {
            framing.append(read)
            while let message = try? framing.nextMessage() { found.append(message) }
        }
        return found
    }

    /// A config file's contents.
    public static func config(_ bytes: [UInt8]) {
        do {
            _ = try Configuration(json: try JSONValue.parse(bytes, source: "config.json"))
        } catch {
            precondition(!"\(error)".isEmpty, "a refusal without a reason")
        }
    }

    /// An item as `add`, `import` or the store hands it over: one that validates survives its own
    /// JSON form unchanged, and planning it gives only reminders before their due instant.
    public static func item(_ bytes: [UInt8]) {
        let zone = (try? ZoneDatabase.shared.zone(named: "America/New_York")) ?? .utc
        let item: Item
        do {
            item = try Item(json: try JSONValue.parse(bytes, source: "item"), context: .init(zone: zone))
        } catch {
            precondition(!"\(error)".isEmpty, "a refusal without a reason")
            return
        }
        precondition((try? Item(json: item.json, context: .init(zone: zone))) == item, "an item changes on re-reading")
        let from: Int64 = 1_795_000_000  // 2026-11-18
        let entries = Planner(configuration: .defaults, zone: zone).plan(
            items: [item], from: from, to: from + 400 * 86_400)
        for entry in entries {
            precondition(entry.fire.fireAt < entry.fire.occurrence.due, "a reminder at or after its due instant")
            precondition(entry.fire.fireAt >= from, "a reminder before the planned range")
        }
    }
}

extension FuzzTargets {
    /// A CalDAV resource as a server hands it over: what parses serialises to folded lines of at
    /// most 75 octets that parse back to the same tree; what reads as an item is written back
    /// into the same resource and reads as the same record.
    public static func ical(_ bytes: [UInt8]) {
        let calendar: Component
        do {
            calendar = try Component.parse(bytes)
        } catch {
            precondition(error.line >= 1 && !error.reason.isEmpty, "a refusal without a line or a reason")
            return
        }
        let text = calendar.serialized()
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: false).dropLast() {
            precondition(line.utf8.count <= 75, "a line of \(line.utf8.count) octets")
        }
        precondition((try? Component.parse(text)) == calendar, "a calendar changes on re-reading")
        let zone = (try? ZoneDatabase.shared.zone(named: "America/New_York")) ?? .utc
        let context = SyncContext(planner: Planner(configuration: .defaults, zone: zone), now: 1_795_000_000)
        guard let reading = try? VTodoReader.read(calendar, name: "fuzz.ics", context: context) else { return }
        let written = VTodoWriter.write(reading.record, uid: reading.uid, into: calendar, context: context)
        let again = try? VTodoReader.read(written, name: "fuzz.ics", context: context)
        precondition(again?.record == reading.record, "a record changes on writing it back")
    }
}

extension JSONValue {
    fileprivate var double: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .number(let d): return d
        default: return nil
        }
    }
}
