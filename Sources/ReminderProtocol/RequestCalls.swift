import ReminderCore
import ReminderJSON

// Each method's parameters, declared once: a property (with its default) and a line in its
// `declared` table, from which the daemon reads them, a client writes them, and the interface
// description lists them (`ReminderInterface`). An item travels as a JSON object whose fields
// `ItemJSON` alone reads (`Add`'s item, `Edit`'s changes, `Import`'s items), so their rules are
// not restated here.

/// A method that takes no parameters: any is refused as unknown.
struct NoParameters: CallParameters {
    init(unread: Void) {}
    static let declared: [CallParameter<NoParameters>] = []
}

extension ReminderRequest {
    /// `Get`, `Remove`, `Undo`, `Explain`: one item, by id, id prefix or title.
    public struct OneItem: CallParameters {
        public var id = ""

        public init(id: String) { self.id = id }
        public init(unread: Void) {}
        public static let declared: [CallParameter<OneItem>] = [.string("id", \.id)]
    }

    public struct Add: CallParameters {
        /// The item in the §2 format, read by `ItemJSON`.
        public var item = JSONValue.object([:])
        /// Add it though one of the same kind, title and card exists.
        public var force = false
        /// Add it though its card's name is a few letters from a tracked one's (a typo, most likely).
        public var newCard = false

        public init(item: JSONValue, force: Bool = false, newCard: Bool = false) {
            (self.item, self.force, self.newCard) = (item, force, newCard)
        }
        public init(unread: Void) {}
        public static let declared: [CallParameter<Add>] = [
            .object("item", \.item), .flag("force", \.force), .flag("newCard", \.newCard),
        ]
    }

    public struct List: CallParameters {
        public var kind: String?
        public var all = false

        public init(kind: String? = nil, all: Bool = false) { (self.kind, self.all) = (kind, all) }
        public init(unread: Void) {}
        public static let declared: [CallParameter<List>] = [.optionalString("kind", \.kind), .flag("all", \.all)]
    }

    public struct Edit: CallParameters {
        public var id = ""
        /// The fields to change, in the §2 format, read by `ItemJSON`.
        public var changes = JSONValue.object([:])
        /// A changed card is new though its name is a few letters from a tracked one.
        public var newCard = false

        public init(id: String, changes: JSONValue, newCard: Bool = false) {
            (self.id, self.changes, self.newCard) = (id, changes, newCard)
        }
        public init(unread: Void) {}
        public static let declared: [CallParameter<Edit>] = [
            .string("id", \.id), .object("changes", \.changes), .flag("newCard", \.newCard),
        ]
    }

    public struct Done: CallParameters {
        public var id = ""
        /// The part of a benefit used, in the item's currency.
        public var amount: Money?
        /// Acknowledge the next occurrence when the current one is done already.
        public var early = false
        /// A free trial cancelled, which ends the subscription (CONTRACT §2).
        public var cancelled = false

        public init(id: String, amount: Money? = nil, early: Bool = false, cancelled: Bool = false) {
            (self.id, self.amount, self.early, self.cancelled) = (id, amount, early, cancelled)
        }
        public init(unread: Void) {}
        public static let declared: [CallParameter<Done>] = [
            .string("id", \.id), .amount("amount", \.amount), .flag("early", \.early), .flag("cancelled", \.cancelled),
        ]
    }

    /// A duration ("1h") or a wall time to snooze until ("18:00", "tomorrow"): one of the two,
    /// which the engine checks.
    public struct Snooze: CallParameters {
        public var id = ""
        public var duration, until: String?

        public init(id: String, duration: String? = nil, until: String? = nil) {
            (self.id, self.duration, self.until) = (id, duration, until)
        }
        public init(unread: Void) {}
        public static let declared: [CallParameter<Snooze>] = [
            .string("id", \.id), .optionalString("duration", \.duration), .optionalString("until", \.until),
        ]
    }

    public struct Upcoming: CallParameters {
        public var days = 7

        public init(days: Int) { self.days = days }
        public init(unread: Void) {}
        public static let declared: [CallParameter<Upcoming>] = [.count("days", \.days, default: 7)]
    }

    public struct History: CallParameters {
        public var limit = 50
        /// A date or an RFC 3339 time.
        public var since: String?
        /// An item's id or prefix.
        public var item: String?

        public init(limit: Int = 50, since: String? = nil, item: String? = nil) {
            (self.limit, self.since, self.item) = (limit, since, item)
        }
        public init(unread: Void) {}
        public static let declared: [CallParameter<History>] = [
            .count("limit", \.limit, default: 50), .optionalString("since", \.since), .optionalString("item", \.item),
        ]
    }

    public struct Pause: CallParameters {
        /// Nil: until `Resume`.
        public var duration: String?

        public init(duration: String?) { self.duration = duration }
        public init(unread: Void) {}
        public static let declared: [CallParameter<Pause>] = [.optionalString("duration", \.duration)]
    }

    public struct Import: CallParameters {
        /// Items in the §2 format, each read by `ItemJSON`.
        public var items: [JSONValue] = []
        /// A backup's state, read by the daemon's `Backup`.
        public var state: JSONValue?
        /// Restore over items of the same ids.
        public var replace = false

        public init(items: [JSONValue], state: JSONValue? = nil, replace: Bool = false) {
            (self.items, self.state, self.replace) = (items, state, replace)
        }
        public init(unread: Void) {}
        public static let declared: [CallParameter<Import>] = [
            .objects("items", \.items), .optionalValue("state", \.state), .flag("replace", \.replace),
        ]
    }

    public struct Export: CallParameters {
        public var history = false

        public init(history: Bool) { self.history = history }
        public init(unread: Void) {}
        public static let declared: [CallParameter<Export>] = [.flag("history", \.history)]
    }

    public struct Calendar: CallParameters {
        public var days = 365

        public init(days: Int) { self.days = days }
        public init(unread: Void) {}
        public static let declared: [CallParameter<Calendar>] = [.count("days", \.days, default: 365)]
    }

    /// `months` (1–120, which the engine checks) ending with the current one.
    public struct Report: CallParameters {
        public var months = 12
        /// A card's name or the start of it.
        public var card: String?

        public init(months: Int = 12, card: String? = nil) { (self.months, self.card) = (months, card) }
        public init(unread: Void) {}
        public static let declared: [CallParameter<Report>] = [
            .count("months", \.months, default: 12), .optionalString("card", \.card),
        ]
    }
}
