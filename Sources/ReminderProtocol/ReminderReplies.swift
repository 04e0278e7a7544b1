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

/// `Status`: how the daemon is doing.
public struct StatusReply: ReminderReply {
    /// The notification server on the session bus.
    public struct Server: Sendable, Equatable {
        public var name, vendor, version: String
        public var capabilities: [String]

        public init(name: String, vendor: String, version: String, capabilities: [String]) {
            (self.name, self.vendor, self.version, self.capabilities) = (name, vendor, version, capabilities)
        }
    }

    public var version: String
    public var uptimeSeconds: Int64
    public var items: Int64
    public var nextReminder: String?
    /// Nil when no server owns the notification name.
    public var notificationServer: Server?
    /// A time, or "until resumed"; nil when not paused.
    public var paused: String?
    public var waiting: Int64
    public var timeZone: String
    /// The date in `timeZone` (YYYY-MM-DD): the day natural dates such as `tomorrow` count from.
    /// Nil from a daemon older than the field (one still running after an upgrade): a client then
    /// works it out from `timeZone` rather than refusing the whole reply.
    public var today: String?
    public var store: String
    /// Reminders held back by the desktop's do-not-disturb, and the latest reason given.
    public var held: Int64
    public var heldReason: String?
    /// Reminders of a grouped pop-up being gone through one at a time ("One at a time"), the one
    /// on screen included; 0 from a daemon that does not say (before issue 27).
    public var inTurn: Int64

    public init(
        version: String, uptimeSeconds: Int64, items: Int64, nextReminder: String?, notificationServer: Server?,
        paused: String?, waiting: Int64, timeZone: String, today: String?, store: String, held: Int64,
        heldReason: String?, inTurn: Int64 = 0
    ) {
        self.inTurn = inTurn
        self.version = version
        self.uptimeSeconds = uptimeSeconds
        self.items = items
        self.nextReminder = nextReminder
        self.notificationServer = notificationServer
        self.paused = paused
        self.waiting = waiting
        self.timeZone = timeZone
        self.today = today
        self.store = store
        self.held = held
        self.heldReason = heldReason
    }

    public var parameters: [String: JSONValue] {
        let server: JSONValue =
            notificationServer.map {
                .object([
                    "name": .string($0.name), "vendor": .string($0.vendor), "version": .string($0.version),
                    "capabilities": .array($0.capabilities.map { .string($0) }),
                ])
            } ?? .null
        return [
            "status": .object([
                "version": .string(version), "uptimeSeconds": .integer(uptimeSeconds), "items": .integer(items),
                "nextReminder": .optional(nextReminder), "notificationServer": server, "paused": .optional(paused),
                "waiting": .integer(waiting), "timeZone": .string(timeZone), "today": .optional(today),
                "store": .string(store), "held": .integer(held), "heldReason": .optional(heldReason),
                "inTurn": .integer(inTurn),
            ])
        ]
    }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        let status = try ReplyFields(parameters["status"], "status")
        var server: Server?
        if let fields = try status.optionalObject("notificationServer") {
            server = Server(
                name: try fields.string("name"), vendor: try fields.string("vendor"),
                version: try fields.string("version"), capabilities: try fields.strings("capabilities"))
        }
        self.init(
            version: try status.string("version"), uptimeSeconds: try status.integer("uptimeSeconds"),
            items: try status.integer("items"), nextReminder: try status.optionalString("nextReminder"),
            notificationServer: server, paused: try status.optionalString("paused"),
            waiting: try status.integer("waiting"), timeZone: try status.string("timeZone"),
            today: try status.optionalString("today"), store: try status.string("store"),
            held: try status.integer("held"), heldReason: try status.optionalString("heldReason"),
            inTurn: try status.optionalInteger("inTurn") ?? 0)
    }
}

/// `History`: what happened, newest first.
public struct HistoryReply: ReminderReply {
    public struct Entry: Sendable, Equatable {
        public var at, item, title, event, reason: String

        public init(at: String, item: String, title: String, event: String, reason: String) {
            (self.at, self.item, self.title, self.event, self.reason) = (at, item, title, event, reason)
        }
    }

    public var entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    public var parameters: [String: JSONValue] {
        [
            "entries": .array(
                entries.map {
                    .object([
                        "at": .string($0.at), "item": .string($0.item), "title": .string($0.title),
                        "event": .string($0.event), "reason": .string($0.reason),
                    ])
                })
        ]
    }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        var entries: [Entry] = []
        for entry in try ReplyFields.objects(parameters["entries"], "entries") {
            entries.append(
                Entry(
                    at: try entry.string("at"), item: try entry.string("item"), title: try entry.string("title"),
                    event: try entry.string("event"), reason: try entry.string("reason")))
        }
        self.init(entries: entries)
    }
}

/// `Upcoming`: pending reminders in time order.
public struct UpcomingReply: ReminderReply {
    public struct Reminder: Sendable, Equatable {
        public var item, title, fireAt, due, lead: String
        /// Shown after its time (the daemon was not running, or the desktop held it).
        public var late: Bool
        /// The item's card and money, when it has them, so two "Uber Cash" rows of two cards can
        /// be told apart; a coupon has a `value` where the others have an `amount`.
        public var card, amount, value, currency: String?
        /// Another app's task from the synced task list (`sync.otherTasks`).
        public var taskList: Bool

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
    }

    public var reminders: [Reminder]

    public init(reminders: [Reminder]) { self.reminders = reminders }

    public var parameters: [String: JSONValue] {
        [
            "reminders": .array(
                reminders.map {
                    var fields: [String: JSONValue] = [
                        "item": .string($0.item), "title": .string($0.title), "fireAt": .string($0.fireAt),
                        "due": .string($0.due), "lead": .string($0.lead), "late": .bool($0.late),
                    ]
                    // Absent, not null, when the item has none.
                    fields.put("card", $0.card)
                    fields.put("amount", $0.amount)
                    fields.put("value", $0.value)
                    fields.put("currency", $0.currency)
                    if $0.taskList { fields["taskList"] = .bool(true) }
                    return .object(fields)
                })
        ]
    }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        var reminders: [Reminder] = []
        for row in try ReplyFields.objects(parameters["reminders"], "reminders") {
            reminders.append(
                Reminder(
                    item: try row.string("item"), title: try row.string("title"), fireAt: try row.string("fireAt"),
                    due: try row.string("due"), lead: try row.string("lead"), late: try row.bool("late"),
                    card: try row.optionalString("card"), amount: try row.optionalString("amount"),
                    value: try row.optionalString("value"), currency: try row.optionalString("currency"),
                    taskList: try row.optionalBool("taskList") ?? false))
        }
        self.init(reminders: reminders)
    }
}

/// `Explain`: how each upcoming fire time of an item was derived.
public struct ExplainReply: ReminderReply {
    public struct Step: Sendable, Equatable {
        public var lead, due, rule, computed: String
        /// The computed time fell into a DST gap and was moved.
        public var dstGap: Bool
        public var quietHours: String
        /// Nil when the reminder is dropped.
        public var fireAt: String?
        public var result: String

        public init(
            lead: String, due: String, rule: String, computed: String, dstGap: Bool, quietHours: String,
            fireAt: String?, result: String
        ) {
            (self.lead, self.due, self.rule, self.computed) = (lead, due, rule, computed)
            (self.dstGap, self.quietHours, self.fireAt, self.result) = (dstGap, quietHours, fireAt, result)
        }
    }

    public var steps: [Step]
    public var snoozedUntil: String?

    public init(steps: [Step], snoozedUntil: String?) {
        self.steps = steps
        self.snoozedUntil = snoozedUntil
    }

    public var parameters: [String: JSONValue] {
        [
            "steps": .array(
                steps.map {
                    .object([
                        "lead": .string($0.lead), "due": .string($0.due), "rule": .string($0.rule),
                        "computed": .string($0.computed), "dstGap": .bool($0.dstGap),
                        "quietHours": .string($0.quietHours), "fireAt": .optional($0.fireAt),
                        "result": .string($0.result),
                    ])
                }),
            "snoozedUntil": .optional(snoozedUntil),
        ]
    }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        var steps: [Step] = []
        for step in try ReplyFields.objects(parameters["steps"], "steps") {
            steps.append(
                Step(
                    lead: try step.string("lead"), due: try step.string("due"), rule: try step.string("rule"),
                    computed: try step.string("computed"), dstGap: try step.bool("dstGap"),
                    quietHours: try step.string("quietHours"), fireAt: try step.optionalString("fireAt"),
                    result: try step.string("result")))
        }
        let top = try ReplyFields(.object(parameters), "reply")
        self.init(steps: steps, snoozedUntil: try top.optionalString("snoozedUntil"))
    }
}
