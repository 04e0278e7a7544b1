import ReminderCore
import ReminderJSON

/// An item as the replies of Add, List, Get, Edit, Done and Undo describe it: its §2 fields, kept
/// whole (`show` and `--json` print fields this version does not know yet), plus what the daemon
/// works out — `status`, the current occurrence's `due` and `daysLeft`, `nextReminder`, and
/// `currency`: the item's own or, when it has none, the daemon's configured one, so a client
/// never guesses it from a config file the daemon may not be using. What a client reads is typed
/// here, next to the writer, so a misspelt field does not compile.
public struct ItemView: Sendable, Equatable {
    public let fields: [String: JSONValue]

    /// The daemon's view of an item it holds (a valid one, so nothing is checked).
    public init(fields: [String: JSONValue]) { self.fields = fields }

    /// Reads an item of a reply at `path`, refusing one whose fields have the wrong types.
    public init(json: JSONValue?, path: String) throws(ReminderProtocolError) {
        let reader = try ReplyFields(json, path)
        for key in ["id", "kind", "title", "status"] { _ = try reader.string(key) }
        let optional = ["card", "amount", "value", "amountUsed", "amountLeft", "period", "currency", "due", "nextReminder"]
        for key in optional {
            _ = try reader.optionalString(key)
        }
        _ = try reader.optionalInteger("daysLeft")
        self.init(fields: reader.fields)
    }

    public var json: JSONValue { .object(fields) }

    public var id: String { text("id") ?? "" }
    public var kind: String { text("kind") ?? "" }
    /// Another app's task from the synced task list (`sync.otherTasks`), not an item of reminderd's.
    public var taskList: Bool { fields["taskList"] == .bool(true) }
    public var title: String { text("title") ?? "" }
    /// available, expiring, used, expired, overdue — or unreadable for an item set aside.
    public var status: String { text("status") ?? "" }
    public var card: String? { text("card") }
    public var amount: String? { text("amount") }
    /// A coupon's value (the others have an amount).
    public var value: String? { text("value") }
    public var amountUsed: String? { text("amountUsed") }
    /// What is left of a benefit's current period (`Benefit.amountLeft`): nothing once it is done.
    public var amountLeft: String? { text("amountLeft") }
    /// A benefit's current period's amount when its amount varies by month (`amountIn`).
    public var amountThisPeriod: String? { text("amountThisPeriod") }
    public var period: String? { text("period") }
    public var currency: String? { text("currency") }
    /// The current occurrence's due time (RFC 3339 in the daemon's zone).
    public var due: String? { text("due") }
    public var nextReminder: String? { text("nextReminder") }

    public var daysLeft: Int64? {
        if case .integer(let days)? = fields["daysLeft"] { return days }
        return nil
    }

    private func text(_ key: String) -> String? {
        if case .string(let text)? = fields[key] { return text }
        return nil
    }
}

/// `Add`: the new item's id, and the item.
public struct AddReply: ReminderReply {
    public var id: String
    public var item: ItemView

    public init(id: String, item: ItemView) { (self.id, self.item) = (id, item) }

    public var parameters: [String: JSONValue] { ["id": .string(id), "item": item.json] }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        self.init(
            id: try ReplyFields(.object(parameters), "reply").string("id"),
            item: try ItemView(json: parameters["item"], path: "item"))
    }
}

/// `Get`, `Edit`, `Done`, `Undo`: the item as it is now.
public struct ItemReply: ReminderReply {
    public var item: ItemView

    public init(item: ItemView) { self.item = item }

    public var parameters: [String: JSONValue] { ["item": item.json] }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        self.init(item: try ItemView(json: parameters["item"], path: "item"))
    }
}

/// `List`: items with their status.
public struct ListReply: ReminderReply {
    public var items: [ItemView]

    public init(items: [ItemView]) { self.items = items }

    public var parameters: [String: JSONValue] { ["items": .array(items.map(\.json))] }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        guard case .array(let elements)? = parameters["items"] else {
            throw .malformedMessage(reason: "items: expected an array")
        }
        var items: [ItemView] = []
        for (index, element) in elements.enumerated() {
            items.append(try ItemView(json: element, path: "items[\(index)]"))
        }
        self.init(items: items)
    }
}

/// `Remove`: the full id of the item removed.
public struct RemoveReply: ReminderReply {
    public var id: String
    /// The item as it was, so the client can say what went; nil for one whose stored data was
    /// unreadable (or from a daemon older than this field).
    public var item: ItemView?

    public init(id: String, item: ItemView? = nil) {
        self.id = id
        self.item = item
    }

    public var parameters: [String: JSONValue] {
        var parameters: [String: JSONValue] = ["id": .string(id)]
        if let item { parameters["item"] = item.json }
        return parameters
    }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        let id = try ReplyFields(.object(parameters), "reply").string("id")
        var item: ItemView?
        if let json = parameters["item"], json != .null { item = try ItemView(json: json, path: "item") }
        self.init(id: id, item: item)
    }
}

/// `Snooze`: until when, and why it is shorter than asked, when it is.
public struct SnoozeReply: ReminderReply {
    public var until: String
    public var shortened: String?

    public init(until: String, shortened: String? = nil) { (self.until, self.shortened) = (until, shortened) }

    public var parameters: [String: JSONValue] {
        var fields: [String: JSONValue] = ["until": .string(until)]
        fields.put("shortened", shortened)
        return fields
    }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        let reply = try ReplyFields(.object(parameters), "reply")
        self.init(until: try reply.string("until"), shortened: try reply.optionalString("shortened"))
    }
}

/// `Pause`: until when; null until `Resume`.
public struct PauseReply: ReminderReply {
    public var until: String?

    public init(until: String?) { self.until = until }

    public var parameters: [String: JSONValue] { ["until": .optional(until)] }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        self.init(until: try ReplyFields(.object(parameters), "reply").optionalString("until"))
    }
}

/// `Import`: the ids of the items added, in the order given.
public struct ImportReply: ReminderReply {
    public var ids: [String]

    public init(ids: [String]) { self.ids = ids }

    public var parameters: [String: JSONValue] { ["ids": .array(ids.map { .string($0) })] }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        self.init(ids: try ReplyFields(.object(parameters), "reply").strings("ids"))
    }
}

/// `Export`: a backup — every item in the §2 format and their state — which travels as it is, in
/// the format `Import` reads back.
public struct ExportReply: ReminderReply {
    public var items: [JSONValue]
    public var state: JSONValue

    public init(items: [JSONValue], state: JSONValue) { (self.items, self.state) = (items, state) }

    public var parameters: [String: JSONValue] { ["items": .array(items), "state": state] }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        guard case .array(let items)? = parameters["items"] else {
            throw .malformedMessage(reason: "items: expected an array")
        }
        _ = try ReplyFields(parameters["state"], "state")
        self.init(items: items, state: parameters["state"]!)
    }
}

/// `Calendar`: the items as RFC 5545 iCalendar, their alarms where the daemon — in its zone, with
/// its reminder time, lead times and quiet hours — would remind.
public struct CalendarReply: ReminderReply {
    public var ics: String

    public init(ics: String) { self.ics = ics }

    public var parameters: [String: JSONValue] { ["ics": .string(ics)] }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        self.init(ics: try ReplyFields(.object(parameters), "reply").string("ics"))
    }
}

/// `ShowSample`: what the sample pop-up on screen says, and its buttons' labels.
public struct SampleReply: ReminderReply {
    public var summary: String
    public var body: String
    public var buttons: [String]

    public init(summary: String, body: String, buttons: [String]) {
        self.summary = summary
        self.body = body
        self.buttons = buttons
    }

    public var parameters: [String: JSONValue] {
        ["summary": .string(summary), "body": .string(body), "buttons": .array(buttons.map { .string($0) })]
    }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        let fields = try ReplyFields(.object(parameters), "reply")
        self.init(
            summary: try fields.string("summary"), body: try fields.string("body"), buttons: try fields.strings("buttons"))
    }
}
