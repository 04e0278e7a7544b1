import ReminderCore
import ReminderJSON

/// A call of `io.reminderd.Reminders`, read and checked in one place: the method, and each
/// parameter in its type with its default. Whether an id exists or a duration parses is the
/// engine's to say; here only the shape of the call is checked, with errors naming the parameter.
public enum ReminderRequest: Sendable, Equatable {
    /// `force`: add it though one of the same kind, title and card exists; `newCard`: though its
    /// card name is a few letters from a card tracked already (a typo, most likely).
    case add(item: JSONValue, force: Bool = false, newCard: Bool = false)
    case list(kind: String?, all: Bool)
    case get(id: String)
    /// `newCard`: a changed card is new though its name is a few letters from a tracked one.
    case edit(id: String, changes: JSONValue, newCard: Bool = false)
    case remove(id: String)
    /// `cancelled`: a free trial cancelled, which ends the subscription (CONTRACT §2).
    case done(id: String, amount: String?, early: Bool, cancelled: Bool = false)
    case undo(id: String)
    /// A duration ("1h") or a wall time to snooze until ("18:00", "tomorrow"): one of the two.
    case snooze(id: String, duration: String?, until: String? = nil)
    case upcoming(days: Int)
    case explain(id: String)
    case history(limit: Int, since: String?, item: String?)
    case summary
    case status
    case pause(duration: String?)
    case resume
    case reload
    case importItems(items: [JSONValue], state: JSONValue?, replace: Bool)
    case export(history: Bool)
    case calendar(days: Int)
    /// `months` (1–120) ending with the current one; `card`, a card's name or the start of it.
    case report(months: Int, card: String?)
    /// A sample reminder's pop-up now, whatever the hour (`reminderctl try`).
    case showSample
    case syncBegin(collection: String, account: String)
    /// Remote resources new or changed (`SyncResource`, with bodies) and removed (hrefs) since
    /// the stored token; `token` is stored once they are applied (nil: keep the stored one).
    case syncPulled(resources: [SyncResource], removed: [String], token: String?)
    case syncPending(limit: Int)
    /// The server took change `seq` of `uid`: its href, its new ETag (nil when the server gave
    /// none), and the body it now holds (nil: the resource was deleted).
    case syncPushed(uid: String, seq: Int64, href: String, etag: String?, body: String?)
    /// A sync pass ended: nil when it succeeded, else why not, in words.
    case syncReport(error: String?)
    case syncStatus
    case syncWait
    case syncNow

    /// Reads `parameters` as a call of `method`, refusing an unknown parameter or one of the
    /// wrong type with `InvalidParameter`.
    public init(_ method: ReminderMethod, _ parameters: [String: JSONValue]) throws(VarlinkError) {
        // The names once (`parameterNames` builds its set on each use), and no array for the
        // usual call, which has no unknown parameter: the first unknown name in sorted order.
        let known = method.parameterNames
        if let unknown = parameters.keys.lazy.filter({ !known.contains($0) }).min() {
            throw .invalidParameter(unknown, "unknown parameter")
        }
        var p = Parameters(parameters)
        switch method {
        case .add:
            self = .add(
                item: try p.object("item"), force: try p.optionalBool("force") ?? false,
                newCard: try p.optionalBool("newCard") ?? false)
        case .list: self = .list(kind: try p.optionalString("kind"), all: try p.optionalBool("all") ?? false)
        case .get: self = .get(id: try p.string("id"))
        case .edit:
            self = .edit(
                id: try p.string("id"), changes: try p.object("changes"), newCard: try p.optionalBool("newCard") ?? false)
        case .remove: self = .remove(id: try p.string("id"))
        case .done:
            self = .done(
                id: try p.string("id"), amount: try p.optionalString("amount"),
                early: try p.optionalBool("early") ?? false, cancelled: try p.optionalBool("cancelled") ?? false)
        case .undo: self = .undo(id: try p.string("id"))
        case .snooze:
            self = .snooze(
                id: try p.string("id"), duration: try p.optionalString("duration"),
                until: try p.optionalString("until"))
        case .upcoming: self = .upcoming(days: try p.optionalInt("days") ?? 7)
        case .explain: self = .explain(id: try p.string("id"))
        case .history:
            self = .history(
                limit: try p.optionalInt("limit") ?? 50, since: try p.optionalString("since"),
                item: try p.optionalString("item"))
        case .summary: self = .summary
        case .status: self = .status
        case .pause: self = .pause(duration: try p.optionalString("duration"))
        case .resume: self = .resume
        case .reload: self = .reload
        case .importItems:
            self = .importItems(
                items: try p.array("items"), state: p.value("state"), replace: try p.optionalBool("replace") ?? false)
        case .export: self = .export(history: try p.optionalBool("history") ?? false)
        case .calendar: self = .calendar(days: try p.optionalInt("days") ?? 365)
        case .report: self = .report(months: try p.optionalInt("months") ?? 12, card: try p.optionalString("card"))
        case .showSample: self = .showSample
        case .syncBegin: self = .syncBegin(collection: try p.string("collection"), account: try p.string("account"))
        case .syncPulled:
            var resources: [SyncResource] = []
            for (index, element) in try p.array("resources").enumerated() {
                resources.append(try SyncResource(element, "resources[\(index)]"))
            }
            var removed: [String] = []
            for (index, element) in try p.array("removed").enumerated() {
                guard case .string(let href) = element else {
                    throw .invalidParameter("removed[\(index)]", "expected a string, found \(element.typeName)")
                }
                removed.append(href)
            }
            self = .syncPulled(resources: resources, removed: removed, token: try p.optionalString("token"))
        case .syncPending: self = .syncPending(limit: try p.optionalInt("limit") ?? 100)
        case .syncPushed:
            guard case .integer(let seq)? = p.value("seq") else {
                throw .invalidParameter("seq", "expected a whole number")
            }
            self = .syncPushed(
                uid: try p.string("uid"), seq: seq, href: try p.string("href"), etag: try p.optionalString("etag"),
                body: try p.optionalString("body"))
        case .syncReport: self = .syncReport(error: try p.optionalString("error"))
        case .syncStatus: self = .syncStatus
        case .syncWait: self = .syncWait
        case .syncNow: self = .syncNow
        }
    }

    /// The call's parameters as a client writes them, the names `init` reads; nil is left out.
    public var parameters: [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        switch self {
        case .add(let item, let force, let newCard):
            fields["item"] = item
            if force { fields["force"] = .bool(true) }
            if newCard { fields["newCard"] = .bool(true) }
        case .list(let kind, let all): (fields["kind"], fields["all"]) = (kind.map { .string($0) }, .bool(all))
        case .get(let id), .remove(let id), .undo(let id), .explain(let id): fields["id"] = .string(id)
        case .edit(let id, let changes, let newCard):
            (fields["id"], fields["changes"]) = (.string(id), changes)
            if newCard { fields["newCard"] = .bool(true) }
        case .done(let id, let amount, let early, let cancelled):
            (fields["id"], fields["amount"], fields["early"]) = (.string(id), amount.map { .string($0) }, .bool(early))
            if cancelled { fields["cancelled"] = .bool(true) }
        case .snooze(let id, let duration, let until):
            fields["id"] = .string(id)
            (fields["duration"], fields["until"]) = (duration.map { .string($0) }, until.map { .string($0) })
        case .upcoming(let days), .calendar(let days): fields["days"] = .integer(Int64(days))
        case .history(let limit, let since, let item):
            fields["limit"] = .integer(Int64(limit))
            (fields["since"], fields["item"]) = (since.map { .string($0) }, item.map { .string($0) })
        case .summary, .status, .resume, .reload, .showSample, .syncStatus, .syncWait, .syncNow: break
        case .pause(let duration): fields["duration"] = duration.map { .string($0) }
        case .importItems(let items, let state, let replace):
            (fields["items"], fields["state"], fields["replace"]) = (.array(items), state, .bool(replace))
        case .export(let history): fields["history"] = .bool(history)
        case .report(let months, let card):
            (fields["months"], fields["card"]) = (.integer(Int64(months)), card.map { .string($0) })
        case .syncBegin(let collection, let account):
            (fields["collection"], fields["account"]) = (.string(collection), .string(account))
        case .syncPulled(let resources, let removed, let token):
            fields["resources"] = .array(resources.map(\.json))
            fields["removed"] = .array(removed.map { .string($0) })
            fields["token"] = token.map { .string($0) }
        case .syncPending(let limit): fields["limit"] = .integer(Int64(limit))
        case .syncPushed(let uid, let seq, let href, let etag, let body):
            (fields["uid"], fields["seq"], fields["href"]) = (.string(uid), .integer(seq), .string(href))
            (fields["etag"], fields["body"]) = (etag.map { .string($0) }, body.map { .string($0) })
        case .syncReport(let error): fields["error"] = error.map { .string($0) }
        }
        return fields
    }

    public var method: ReminderMethod {
        switch self {
        case .add: return .add
        case .list: return .list
        case .get: return .get
        case .edit: return .edit
        case .remove: return .remove
        case .done: return .done
        case .undo: return .undo
        case .snooze: return .snooze
        case .upcoming: return .upcoming
        case .explain: return .explain
        case .history: return .history
        case .summary: return .summary
        case .status: return .status
        case .pause: return .pause
        case .resume: return .resume
        case .reload: return .reload
        case .importItems: return .importItems
        case .export: return .export
        case .calendar: return .calendar
        case .report: return .report
        case .showSample: return .showSample
        case .syncBegin: return .syncBegin
        case .syncPulled: return .syncPulled
        case .syncPending: return .syncPending
        case .syncPushed: return .syncPushed
        case .syncReport: return .syncReport
        case .syncStatus: return .syncStatus
        case .syncWait: return .syncWait
        case .syncNow: return .syncNow
        }
    }
}

extension VarlinkError {
    /// `InvalidParameter`: which parameter, and what is wrong with it.
    public static func invalidParameter(_ parameter: String, _ reason: String) -> VarlinkError {
        VarlinkError(
            name: ReminderInterface.ErrorName.invalidParameter,
            parameters: ["parameter": .string(parameter), "reason": .string(reason)])
    }

    /// `NotDurable`: a change was saved but its flush to disk failed; `reason` says so in words.
    public static func notDurable(_ reason: String) -> VarlinkError {
        VarlinkError(name: ReminderInterface.ErrorName.notDurable, parameters: ["reason": .string(reason)])
    }

    /// `InvalidConfig`: the config key (or file, or `TZ`) at fault, and why.
    public static func invalidConfig(field: String, reason: String) -> VarlinkError {
        VarlinkError(
            name: ReminderInterface.ErrorName.invalidConfig,
            parameters: ["field": .string(field), "reason": .string(reason)])
    }
}

/// Reads a method's parameters on `FieldReader` (null counts as absent), refusing with
/// `InvalidParameter` naming the parameter. Numbers and flags keep the interface's own wording
/// (a bounded whole number; "expected true or false").
struct Parameters {
    private var reader: FieldReader

    init(_ values: [String: JSONValue]) { reader = FieldReader(fields: values, path: "") }

    mutating func value(_ key: String) -> JSONValue? { reader.value(key) }

    mutating func string(_ key: String) throws(VarlinkError) -> String {
        guard let text = try optionalString(key) else { throw .invalidParameter(key, "missing") }
        return text
    }

    mutating func optionalString(_ key: String) throws(VarlinkError) -> String? {
        do { return try reader.string(key) } catch { throw .invalidParameter(error.field, error.reason) }
    }

    mutating func optionalInt(_ key: String) throws(VarlinkError) -> Int? {
        guard let value = value(key) else { return nil }
        guard case .integer(let number) = value, number >= 0, number <= 100_000 else {
            throw .invalidParameter(key, "expected a whole number from 0 to 100000")
        }
        return Int(number)
    }

    mutating func optionalBool(_ key: String) throws(VarlinkError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw .invalidParameter(key, "expected true or false") }
        return flag
    }

    mutating func object(_ key: String) throws(VarlinkError) -> JSONValue {
        guard let value = value(key) else { throw .invalidParameter(key, "missing") }
        do { _ = try FieldReader(value, path: key) } catch { throw .invalidParameter(error.field, error.reason) }
        return value
    }

    mutating func array(_ key: String) throws(VarlinkError) -> [JSONValue] {
        let elements: [JSONValue]?
        do { elements = try reader.array(key) } catch { throw .invalidParameter(error.field, error.reason) }
        guard let elements else { throw .invalidParameter(key, "missing") }
        return elements
    }
}
