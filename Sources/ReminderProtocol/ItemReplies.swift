import CivilTime
import ReminderCore
import ReminderJSON

/// An item as the replies of Add, List, Get, Edit, Done and Undo describe it: its §2 fields, plus
/// what the daemon works out — `status`, the current occurrence's `due` and `daysLeft`,
/// `nextReminder`, what is used and left of a benefit's period, and `currency`: the item's own
/// or, when it has none, the daemon's configured one, so a client never guesses it from a config
/// file the daemon may not be using. What a client reads is a typed field, written and read by
/// `wireFields` alone; the §2 fields it only shows (`every`, `notes`, …), and any this version
/// does not know yet, travel whole in `more` (`show` and `--json` print them).
public struct ItemView: Sendable, Equatable {
    public var id = ""
    /// Nil for an item whose stored data cannot be read (`"?"` on the wire).
    public var kind: ItemKind?
    public var title = ""
    /// True for another app's task from the synced task list (`sync.otherTasks`), not an item of
    /// reminderd's; nil (left out on the wire) for the rest.
    public var taskList: Bool?
    public var status = ItemStatus.available
    public var card: String?
    public var amount: Money?
    /// A coupon's value (the others have an amount).
    public var value: Money?
    /// What is used of a benefit's current period: nothing once that period is over.
    public var amountUsed: Money?
    /// What is left of a benefit's current period (`Benefit.amountLeft`): nothing once it is done.
    public var amountLeft: Money?
    /// A benefit's current period's amount when its amount varies by month (`amountIn`).
    public var amountThisPeriod: Money?
    public var period: Benefit.Period?
    /// The day a benefit's periods are counted from (a card anniversary); nil for calendar periods.
    public var periodStart: LocalDate?
    public var currency: String?
    /// The current occurrence's due time, in the daemon's zone.
    public var due: OffsetDateTime?
    public var daysLeft: Int64?
    public var nextReminder: OffsetDateTime?
    /// Why an unreadable item cannot be read, and the way out (`reminderctl remove ID`).
    public var reason, hint: String?
    /// The item's other fields, as they are: shown, never read.
    public var more: [String: JSONValue] = [:]

    public init(
        id: String, kind: ItemKind?, title: String, status: ItemStatus, card: String? = nil, amount: Money? = nil,
        value: Money? = nil, amountUsed: Money? = nil, amountLeft: Money? = nil, amountThisPeriod: Money? = nil,
        period: Benefit.Period? = nil, periodStart: LocalDate? = nil, currency: String? = nil,
        due: OffsetDateTime? = nil, daysLeft: Int64? = nil, nextReminder: OffsetDateTime? = nil,
        reason: String? = nil, hint: String? = nil, more: [String: JSONValue] = [:]
    ) {
        (self.id, self.kind, self.title, self.status, self.card) = (id, kind, title, status, card)
        (self.amount, self.value, self.amountUsed, self.amountLeft) = (amount, value, amountUsed, amountLeft)
        (self.amountThisPeriod, self.period, self.periodStart) = (amountThisPeriod, period, periodStart)
        (self.currency, self.due, self.daysLeft, self.nextReminder) = (currency, due, daysLeft, nextReminder)
        (self.reason, self.hint, self.more) = (reason, hint, more)
    }

    /// The kind as the wire says it: `"?"` for an unreadable item.
    public var kindName: String { kind?.rawValue ?? "?" }

    /// Reads an item of a reply at `path`, refusing one whose fields have the wrong types.
    public init(json: JSONValue?, path: String) throws(ReminderProtocolError) {
        try self.init(wire: json, path: path)
        more = json.map(ItemView.untypedFields) ?? [:]
    }

    /// The fields of an item's §2 JSON that `wireFields` does not type: its `more`.
    public static func untypedFields(of json: JSONValue) -> [String: JSONValue] {
        guard case .object(var object) = json else { return [:] }
        for field in wireFields { object[field.key] = nil }
        return object
    }

    /// The item as the wire carries it (the key order is the writer's: sorted).
    public var json: JSONValue {
        var object = more
        for field in ItemView.wireFields { field.write(self, &object) }
        return .object(object)
    }
}

extension ItemView: WireObject {
    public init(unread: Void) {}

    /// Every typed field, once. An unreadable item has only `id`, `kind`, `title`, `status`,
    /// `reason` and `hint`; a readable one always says its `nextReminder`, null when none.
    public static let wireFields: [WireField<ItemView>] = [
        .required("id", \.id),
        WireField(key: "kind") { view, object in object["kind"] = .string(view.kindName) } read: { view, json in
            guard case .string(let name)? = json else { return String.expected }
            view.kind = ItemKind(rawValue: name)
            return nil
        },
        .required("title", \.title),
        .optional("taskList", \.taskList),
        .required("status", \.status),
        .optional("card", \.card),
        .optional("amount", \.amount),
        .optional("value", \.value),
        .optional("amountUsed", \.amountUsed),
        .optional("amountLeft", \.amountLeft),
        .optional("amountThisPeriod", \.amountThisPeriod),
        .optional("period", \.period),
        .optional("periodStart", \.periodStart),
        .optional("currency", \.currency),
        .optional("due", \.due),
        .optional("daysLeft", \.daysLeft),
        .nullable("nextReminder", \.nextReminder) { $0.kind != nil },
        .optional("reason", \.reason),
        .optional("hint", \.hint),
    ]
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
