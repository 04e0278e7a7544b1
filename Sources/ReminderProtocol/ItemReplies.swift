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
    /// Another app's task from the synced task list (`sync.otherTasks`), not an item of
    /// reminderd's (left out on the wire for the rest).
    public var taskList = false
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
}

extension ItemView: WireObject {
    public init(unread: Void) {}
    public static var otherFields: (WritableKeyPath<ItemView, [String: JSONValue]> & Sendable)? { \ItemView.more }

    /// Every typed field, once. An unreadable item has only `id`, `kind`, `title`, `status`,
    /// `reason` and `hint`; a readable one always says its `nextReminder`, null when none.
    public static let wireFields: [WireField<ItemView>] = [
        .required("id", \.id),
        WireField(key: "kind") { view, object in object["kind"] = .string(view.kindName) } read: {
            view, json, place throws(ReminderProtocolError) in
            guard case .string(let name)? = json else { throw .malformedMessage(reason: "\(place): expected a string") }
            view.kind = ItemKind(rawValue: name)
        },
        .required("title", \.title),
        .flag("taskList", \.taskList),
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
public struct AddReply: ReminderReply, WireObject {
    public var id = ""
    public var item = ItemView(unread: ())

    public init(id: String, item: ItemView) { (self.id, self.item) = (id, item) }
    public init(unread: Void) {}
    public static let wireFields: [WireField<AddReply>] = [.required("id", \.id), .object("item", \.item)]
}

/// `Get`, `Edit`, `Done`, `Undo`: the item as it is now.
public struct ItemReply: ReminderReply, WireObject {
    public var item = ItemView(unread: ())

    public init(item: ItemView) { self.item = item }
    public init(unread: Void) {}
    public static let wireFields: [WireField<ItemReply>] = [.object("item", \.item)]
}

/// `List`: items with their status.
public struct ListReply: ReminderReply, WireObject {
    public var items: [ItemView] = []

    public init(items: [ItemView]) { self.items = items }
    public init(unread: Void) {}
    public static let wireFields: [WireField<ListReply>] = [.objects("items", \.items)]
}

/// `Remove`: the full id of the item removed.
public struct RemoveReply: ReminderReply, WireObject {
    public var id = ""
    /// The item as it was, so the client can say what went; nil for one whose stored data was
    /// unreadable (or from a daemon older than this field).
    public var item: ItemView?

    public init(id: String, item: ItemView? = nil) { (self.id, self.item) = (id, item) }
    public init(unread: Void) {}
    public static let wireFields: [WireField<RemoveReply>] = [.required("id", \.id), .optionalObject("item", \.item)]
}

/// `Snooze`: until when, and why it is shorter than asked, when it is.
public struct SnoozeReply: ReminderReply, WireObject {
    public var until = ""
    public var shortened: String?
    /// `shortened` as a template, for a client to write it in its own language (`Wording`).
    public var shortenedTemplate: Wording?

    public init(until: String, shortened: Wording? = nil) {
        (self.until, self.shortened) = (until, shortened?.english)
        shortenedTemplate = shortened?.msgid == nil ? nil : shortened
    }
    public init(unread: Void) {}
    public static let wireFields: [WireField<SnoozeReply>] = [
        .required("until", \.until), .optional("shortened", \.shortened),
        .optional("shortenedTemplate", \.shortenedTemplate),
    ]

    /// `shortened` in the chosen language, as far as the daemon sent its template.
    public var translatedShortened: String? { shortened.map { shortenedTemplate?.translated(saying: $0) ?? $0 } }
}

/// `Pause`: until when; null until `Resume`.
public struct PauseReply: ReminderReply, WireObject {
    public var until: String?

    public init(until: String?) { self.until = until }
    public init(unread: Void) {}
    public static let wireFields: [WireField<PauseReply>] = [.nullable("until", \.until)]
}

/// `Import`: the ids of the items added, in the order given.
public struct ImportReply: ReminderReply, WireObject {
    public var ids: [String] = []

    public init(ids: [String]) { self.ids = ids }
    public init(unread: Void) {}
    public static let wireFields: [WireField<ImportReply>] = [.required("ids", \.ids)]
}

/// `Export`: a backup — every item in the §2 format and their state — which travels as it is, in
/// the format `Import` reads back.
public struct ExportReply: ReminderReply, WireObject {
    public var items: [JSONValue] = []
    public var state = JSONValue.object([:])

    public init(items: [JSONValue], state: JSONValue) { (self.items, self.state) = (items, state) }
    public init(unread: Void) {}
    public static let wireFields: [WireField<ExportReply>] = [.wholeArray("items", \.items), .wholeObject("state", \.state)]
}

/// `Calendar`: the items as RFC 5545 iCalendar, their alarms where the daemon — in its zone, with
/// its reminder time, lead times and quiet hours — would remind.
public struct CalendarReply: ReminderReply, WireObject {
    public var ics = ""

    public init(ics: String) { self.ics = ics }
    public init(unread: Void) {}
    public static let wireFields: [WireField<CalendarReply>] = [.required("ics", \.ics)]
}

/// `ShowSample`: what the sample pop-up on screen says, and its buttons' labels.
public struct SampleReply: ReminderReply, WireObject {
    public var summary = "", body = ""
    public var buttons: [String] = []

    public init(summary: String, body: String, buttons: [String]) {
        (self.summary, self.body, self.buttons) = (summary, body, buttons)
    }
    public init(unread: Void) {}
    public static let wireFields: [WireField<SampleReply>] = [
        .required("summary", \.summary), .required("body", \.body), .required("buttons", \.buttons),
    ]
}
