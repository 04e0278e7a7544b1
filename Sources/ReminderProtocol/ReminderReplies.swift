import ReminderCore
import ReminderJSON

/// A method's reply, typed: the engine builds one and writes its `parameters`, a client reads
/// them back with `init(parameters:)` — so a misspelt field does not compile on either side.
/// Every method has one (`Resume` and `Reload` answer `()`): here, in `ItemReplies.swift` and in
/// `SummaryReply.swift`. Both sides go through `JSONValue`, whose hand-written reader is measured
/// (no `Codable` here); times travel as the RFC 3339 text the daemon formats in its zone.
public protocol ReminderReply: Sendable, Equatable {
    var parameters: [String: JSONValue] { get }
    init(parameters: [String: JSONValue]) throws(ReminderProtocolError)
}

/// The reply of a method that answers `()`: `Resume`, `Reload`, `SyncPushed`, `SyncReport`.
public struct EmptyReply: ReminderReply {
    public init() {}
    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {}
    public var parameters: [String: JSONValue] { [:] }
}

/// `Status`: how the daemon is doing, as the object `status`.
public struct StatusReply: ReminderReply, WireObject {
    /// The notification server on the session bus.
    public struct Server: WireObject {
        public var name = "", vendor = "", version = ""
        public var capabilities: [String] = []

        public init(name: String, vendor: String, version: String, capabilities: [String]) {
            (self.name, self.vendor, self.version, self.capabilities) = (name, vendor, version, capabilities)
        }
        public init(unread: Void) {}
        public static let wireFields: [WireField<Server>] = [
            .required("name", \.name), .required("vendor", \.vendor), .required("version", \.version),
            .required("capabilities", \.capabilities),
        ]
    }

    public var version = ""
    public var uptimeSeconds: Int64 = 0
    public var items: Int64 = 0
    public var nextReminder: String?
    /// Nil when no server owns the notification name.
    public var notificationServer: Server?
    /// A time, or "until resumed"; nil when not paused.
    public var paused: String?
    public var waiting: Int64 = 0
    public var timeZone = ""
    /// The date in `timeZone` (YYYY-MM-DD): the day natural dates such as `tomorrow` count from.
    /// Nil from a daemon older than the field (one still running after an upgrade): a client then
    /// works it out from `timeZone` rather than refusing the whole reply.
    public var today: String?
    public var store = ""
    /// Reminders held back by the desktop's do-not-disturb, and the latest reason given.
    public var held: Int64 = 0
    public var heldReason: String?
    /// Reminders of a grouped pop-up being gone through one at a time ("One at a time"), the one
    /// on screen included; 0 from a daemon that does not say (before issue 27).
    public var inTurn: Int64 = 0

    public init(
        version: String, uptimeSeconds: Int64, items: Int64, nextReminder: String?, notificationServer: Server?,
        paused: String?, waiting: Int64, timeZone: String, today: String?, store: String, held: Int64,
        heldReason: String?, inTurn: Int64 = 0
    ) {
        (self.version, self.uptimeSeconds, self.items, self.nextReminder) = (version, uptimeSeconds, items, nextReminder)
        (self.notificationServer, self.paused, self.waiting, self.timeZone) = (notificationServer, paused, waiting, timeZone)
        (self.today, self.store, self.held, self.heldReason, self.inTurn) = (today, store, held, heldReason, inTurn)
    }
    public init(unread: Void) {}

    /// Every key is written, null when there is nothing to say.
    public static let wireFields: [WireField<StatusReply>] = [
        .required("version", \.version), .required("uptimeSeconds", \.uptimeSeconds), .required("items", \.items),
        .nullable("nextReminder", \.nextReminder), .nullableObject("notificationServer", \.notificationServer),
        .nullable("paused", \.paused), .required("waiting", \.waiting), .required("timeZone", \.timeZone),
        .nullable("today", \.today), .required("store", \.store), .required("held", \.held),
        .nullable("heldReason", \.heldReason), .defaulted("inTurn", \.inTurn, 0),
    ]

    public var parameters: [String: JSONValue] { ["status": json] }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        try self.init(wire: parameters["status"], path: "status")
    }
}

/// `History`: what happened, newest first.
public struct HistoryReply: ReminderReply, WireObject {
    public struct Entry: WireObject {
        public var at = "", item = "", title = "", event = "", reason = ""

        public init(at: String, item: String, title: String, event: String, reason: String) {
            (self.at, self.item, self.title, self.event, self.reason) = (at, item, title, event, reason)
        }
        public init(unread: Void) {}
        public static let wireFields: [WireField<Entry>] = [
            .required("at", \.at), .required("item", \.item), .required("title", \.title),
            .required("event", \.event), .required("reason", \.reason),
        ]
    }

    public var entries: [Entry] = []

    public init(entries: [Entry]) { self.entries = entries }
    public init(unread: Void) {}
    public static let wireFields: [WireField<HistoryReply>] = [.objects("entries", \.entries)]
}

/// `Upcoming`: pending reminders in time order.
public struct UpcomingReply: ReminderReply, WireObject {
    public struct Reminder: WireObject {
        public var item = "", title = "", fireAt = "", due = "", lead = ""
        /// Shown after its time (the daemon was not running, or the desktop held it).
        public var late = false
        /// The item's card and money, when it has them, so two "Uber Cash" rows of two cards can
        /// be told apart; a coupon has a `value` where the others have an `amount`.
        public var card, amount, value, currency: String?
        /// Another app's task from the synced task list (`sync.otherTasks`).
        public var taskList = false

        public init(
            item: String, title: String, fireAt: String, due: String, lead: String, late: Bool, card: String? = nil,
            amount: String? = nil, value: String? = nil, currency: String? = nil, taskList: Bool = false
        ) {
            (self.item, self.title, self.fireAt, self.due, self.lead, self.late) = (
                item, title, fireAt, due, lead, late
            )
            (self.card, self.amount, self.value, self.currency, self.taskList) = (
                card, amount, value, currency, taskList
            )
        }
        public init(unread: Void) {}
        /// The item's card and money are absent, not null, when it has none.
        public static let wireFields: [WireField<Reminder>] = [
            .required("item", \.item), .required("title", \.title), .required("fireAt", \.fireAt),
            .required("due", \.due), .required("lead", \.lead), .required("late", \.late),
            .optional("card", \.card), .optional("amount", \.amount), .optional("value", \.value),
            .optional("currency", \.currency), .flag("taskList", \.taskList),
        ]
    }

    public var reminders: [Reminder] = []

    public init(reminders: [Reminder]) { self.reminders = reminders }
    public init(unread: Void) {}
    public static let wireFields: [WireField<UpcomingReply>] = [.objects("reminders", \.reminders)]
}

/// `Explain`: how each upcoming fire time of an item was derived.
public struct ExplainReply: ReminderReply, WireObject {
    public struct Step: WireObject {
        public var lead = "", due = "", rule = "", computed = ""
        /// The computed time fell into a DST gap and was moved.
        public var dstGap = false
        public var quietHours = ""
        /// Nil when the reminder is dropped.
        public var fireAt: String?
        public var result = ""
        /// `rule` and `result` as templates, for a client to write them in its own language
        /// (`Wording`); absent from a daemon older than them.
        public var ruleTemplate: Wording?, resultTemplate: Wording?

        public init(
            lead: String, due: String, rule: Wording, computed: String, dstGap: Bool, quietHours: String,
            fireAt: String?, result: Wording
        ) {
            (self.lead, self.due, self.rule, self.computed) = (lead, due, rule.english, computed)
            (self.dstGap, self.quietHours, self.fireAt, self.result) = (dstGap, quietHours, fireAt, result.english)
            (ruleTemplate, resultTemplate) = (rule.msgid == nil ? nil : rule, result.msgid == nil ? nil : result)
        }

        /// `rule` in the chosen language, as far as this daemon sent its template.
        public var translatedRule: String { ruleTemplate?.translated(saying: rule) ?? rule }

        /// `result` in the chosen language, as far as this daemon sent its template.
        public var translatedResult: String { resultTemplate?.translated(saying: result) ?? result }
        public init(unread: Void) {}
        public static let wireFields: [WireField<Step>] = [
            .required("lead", \.lead), .required("due", \.due), .required("rule", \.rule),
            .required("computed", \.computed), .required("dstGap", \.dstGap), .required("quietHours", \.quietHours),
            .nullable("fireAt", \.fireAt), .required("result", \.result),
            .optional("ruleTemplate", \.ruleTemplate), .optional("resultTemplate", \.resultTemplate),
        ]
    }

    public var steps: [Step] = []
    public var snoozedUntil: String?

    public init(steps: [Step], snoozedUntil: String?) { (self.steps, self.snoozedUntil) = (steps, snoozedUntil) }
    public init(unread: Void) {}
    public static let wireFields: [WireField<ExplainReply>] = [
        .objects("steps", \.steps), .nullable("snoozedUntil", \.snoozedUntil),
    ]
}
