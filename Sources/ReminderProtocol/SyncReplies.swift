import ReminderJSON

/// One task resource as the server holds it: its href (the path on the server), its ETag when
/// the server gave one, and its iCalendar text. `SyncPulled` carries these.
public struct SyncResource: Sendable, Equatable {
    public var href: String
    public var etag: String?
    public var body: String

    public init(href: String, etag: String?, body: String) {
        (self.href, self.etag, self.body) = (href, etag, body)
    }

    public var json: JSONValue {
        var fields: [String: JSONValue] = ["href": .string(href), "body": .string(body)]
        fields.put("etag", etag)
        return .object(fields)
    }

    /// Reads one element of `SyncPulled`'s `resources`, naming it (`resources[3].body`).
    init(_ value: JSONValue, _ path: String) throws(VarlinkError) {
        do throws(FieldError) {
            var reader = try FieldReader(value, path: path)
            let missing = { (key: String) in FieldError.invalidValue(field: reader.fieldPath(key), reason: "missing") }
            guard let href = try reader.string("href") else { throw missing("href") }
            guard let body = try reader.string("body") else { throw missing("body") }
            self.init(href: href, etag: try reader.string("etag"), body: body)
        } catch { throw .invalidParameter(error.field, error.reason) }
    }
}

/// `SyncBegin`: where the last pull ended, and what it knew of each resource.
public struct SyncBeginReply: ReminderReply {
    /// A resource known at the last pull: an href and its ETag (nil when the server gave none).
    public struct Known: Sendable, Equatable {
        public var href: String
        public var etag: String?

        public init(href: String, etag: String?) { (self.href, self.etag) = (href, etag) }
    }

    /// The sync-collection token stored after the last pull; nil before the first, or after a
    /// change of collection.
    public var token: String?
    public var resources: [Known]

    public init(token: String?, resources: [Known]) { (self.token, self.resources) = (token, resources) }

    public var parameters: [String: JSONValue] {
        [
            "token": .optional(token),
            "resources": .array(
                resources.map {
                    var fields: [String: JSONValue] = ["href": .string($0.href)]
                    fields.put("etag", $0.etag)
                    return .object(fields)
                }),
        ]
    }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        let top = try ReplyFields(.object(parameters), "reply")
        var known: [Known] = []
        for row in try ReplyFields.objects(parameters["resources"], "resources") {
            known.append(Known(href: try row.string("href"), etag: try row.optionalString("etag")))
        }
        self.init(token: try top.optionalString("token"), resources: known)
    }
}

/// `SyncPulled`: how many resources changed local items, how many of those changes disagreed
/// with a local one (each is in history), and the resources that were not applied, so that
/// reminderd-sync can say which ones on the server cannot be read and why.
public struct SyncPulledReply: ReminderReply {
    /// A resource left as it is on the server: its href, and why in words (not iCalendar, a
    /// field that does not read, the UID of another resource of the same batch).
    public struct Skipped: Sendable, Equatable {
        public var href: String
        public var reason: String

        public init(href: String, reason: String) { (self.href, self.reason) = (href, reason) }
    }

    public var applied: Int64
    public var conflicts: Int64
    public var skipped: [Skipped]

    public init(applied: Int64, conflicts: Int64, skipped: [Skipped] = []) {
        (self.applied, self.conflicts, self.skipped) = (applied, conflicts, skipped)
    }

    public var parameters: [String: JSONValue] {
        [
            "applied": .integer(applied), "conflicts": .integer(conflicts),
            "skipped": .array(skipped.map { .object(["href": .string($0.href), "reason": .string($0.reason)]) }),
        ]
    }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        let top = try ReplyFields(.object(parameters), "reply")
        var skipped: [Skipped] = []
        for row in try top.objects("skipped") {
            skipped.append(Skipped(href: try row.string("href"), reason: try row.string("reason")))
        }
        self.init(applied: try top.integer("applied"), conflicts: try top.integer("conflicts"), skipped: skipped)
    }
}

/// `SyncPending`: the local changes the server has not taken yet, oldest first.
public struct SyncPendingReply: ReminderReply {
    /// One item's change, as the request to make: a body to PUT (with `If-None-Match: *` when
    /// `etag` is nil, else `If-Match: etag`), or a DELETE when `body` is nil.
    public struct Change: Sendable, Equatable {
        public var uid: String
        public var href: String
        public var etag: String?
        public var body: String?
        /// Which change this is: `SyncPushed` gives it back, and a later change of the same item
        /// (made while this one was on its way) keeps the item waiting.
        public var seq: Int64

        public init(uid: String, href: String, etag: String?, body: String?, seq: Int64) {
            (self.uid, self.href, self.etag, self.body, self.seq) = (uid, href, etag, body, seq)
        }
    }

    public var changes: [Change]

    public init(changes: [Change]) { self.changes = changes }

    public var parameters: [String: JSONValue] {
        [
            "changes": .array(
                changes.map {
                    var fields: [String: JSONValue] = [
                        "uid": .string($0.uid), "href": .string($0.href), "seq": .integer($0.seq),
                    ]
                    fields.put("etag", $0.etag)
                    fields.put("body", $0.body)
                    return .object(fields)
                })
        ]
    }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        var changes: [Change] = []
        for row in try ReplyFields.objects(parameters["changes"], "changes") {
            changes.append(
                Change(
                    uid: try row.string("uid"), href: try row.string("href"), etag: try row.optionalString("etag"),
                    body: try row.optionalString("body"), seq: try row.integer("seq")))
        }
        self.init(changes: changes)
    }
}

/// `SyncStatus`: sync's state, for `reminderctl sync status` and `status`.
public struct SyncStatusReply: ReminderReply {
    /// user@host of the last pass; nil when reminderd-sync never began one.
    public var account: String?
    /// The task list's URL.
    public var collection: String?
    /// When a pass last succeeded, and when one last ended (RFC 3339, the daemon's zone).
    public var lastSync: String?
    public var lastAttempt: String?
    /// Why the last pass failed, in words; nil when it succeeded.
    public var error: String?
    /// Items whose changes the server has not taken yet, and since when the oldest waits.
    public var waiting: Int64
    public var waitingSince: String?
    /// Conflicts resolved in the last 30 days (each is a history line).
    public var conflicts: Int64
    /// A reminderd-sync is connected and waiting for work.
    public var connected: Bool

    public init(
        account: String?, collection: String?, lastSync: String?, lastAttempt: String?, error: String?,
        waiting: Int64, waitingSince: String?, conflicts: Int64, connected: Bool
    ) {
        (self.account, self.collection, self.lastSync, self.lastAttempt) = (account, collection, lastSync, lastAttempt)
        (self.error, self.waiting, self.waitingSince) = (error, waiting, waitingSince)
        (self.conflicts, self.connected) = (conflicts, connected)
    }

    public var parameters: [String: JSONValue] {
        [
            "sync": .object([
                "account": .optional(account), "collection": .optional(collection), "lastSync": .optional(lastSync),
                "lastAttempt": .optional(lastAttempt), "error": .optional(error), "waiting": .integer(waiting),
                "waitingSince": .optional(waitingSince), "conflicts": .integer(conflicts),
                "connected": .bool(connected),
            ])
        ]
    }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        let sync = try ReplyFields(parameters["sync"], "sync")
        self.init(
            account: try sync.optionalString("account"), collection: try sync.optionalString("collection"),
            lastSync: try sync.optionalString("lastSync"), lastAttempt: try sync.optionalString("lastAttempt"),
            error: try sync.optionalString("error"), waiting: try sync.integer("waiting"),
            waitingSince: try sync.optionalString("waitingSince"), conflicts: try sync.integer("conflicts"),
            connected: try sync.bool("connected"))
    }
}

/// `SyncWait`: what reminderd-sync is woken for.
public struct SyncWaitReply: ReminderReply {
    public enum Reason: String, Sendable {
        /// Items changed here: push them (the daemon answers 2 s after the latest change).
        case changed
        /// `reminderctl sync now`: a whole pass, then `SyncReport`.
        case now
        /// A pop-up is about to show for `uids`: pull them at once; the daemon waits ≤ 2 s.
        case refresh
    }

    public var reason: Reason
    public var uids: [String]

    public init(reason: Reason, uids: [String] = []) { (self.reason, self.uids) = (reason, uids) }

    public var parameters: [String: JSONValue] {
        ["reason": .string(reason.rawValue), "uids": .array(uids.map { .string($0) })]
    }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        let top = try ReplyFields(.object(parameters), "reply")
        let text = try top.string("reason")
        guard let reason = Reason(rawValue: text) else {
            throw .malformedMessage(reason: "reply.reason: \"\(text)\" is not changed, now or refresh")
        }
        self.init(reason: reason, uids: try top.strings("uids"))
    }
}
