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
        fields["etag"] = etag.map { .string($0) }
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
public struct SyncBeginReply: ReminderReply, WireObject {
    public struct Known: WireObject {
        public var href = ""
        public var etag: String?

        public init(href: String, etag: String?) { (self.href, self.etag) = (href, etag) }
        public init(unread: Void) {}
        public static let wireFields: [WireField<Known>] = [.required("href", \.href), .optional("etag", \.etag)]
    }

    public var token: String?
    public var resources: [Known] = []

    public init(token: String?, resources: [Known]) { (self.token, self.resources) = (token, resources) }
    public init(unread: Void) {}
    public static let wireFields: [WireField<SyncBeginReply>] = [
        .nullable("token", \.token), .objects("resources", \.resources),
    ]
}

/// `SyncPulled`: how many resources changed local items, how many of those changes disagreed
/// with a local one (each is in history), and the resources that were not applied, so that
/// reminderd-sync can say which ones on the server cannot be read and why.
public struct SyncPulledReply: ReminderReply, WireObject {
    public struct Skipped: WireObject {
        public var href = ""
        public var reason = ""

        public init(href: String, reason: String) { (self.href, self.reason) = (href, reason) }
        public init(unread: Void) {}
        public static let wireFields: [WireField<Skipped>] = [.required("href", \.href), .required("reason", \.reason)]
    }

    public var applied: Int64 = 0
    public var conflicts: Int64 = 0
    public var skipped: [Skipped] = []

    public init(applied: Int64, conflicts: Int64, skipped: [Skipped] = []) {
        (self.applied, self.conflicts, self.skipped) = (applied, conflicts, skipped)
    }
    public init(unread: Void) {}
    public static let wireFields: [WireField<SyncPulledReply>] = [
        .required("applied", \.applied), .required("conflicts", \.conflicts), .objects("skipped", \.skipped),
    ]
}

/// `SyncPending`: the local changes the server has not taken yet, oldest first.
public struct SyncPendingReply: ReminderReply, WireObject {
    public struct Change: WireObject {
        public var uid = ""
        public var href = ""
        public var etag: String?
        public var body: String?
        public var seq: Int64 = 0

        public init(uid: String, href: String, etag: String?, body: String?, seq: Int64) {
            (self.uid, self.href, self.etag, self.body, self.seq) = (uid, href, etag, body, seq)
        }
        public init(unread: Void) {}
        public static let wireFields: [WireField<Change>] = [
            .required("uid", \.uid), .required("href", \.href), .optional("etag", \.etag), .optional("body", \.body),
            .required("seq", \.seq),
        ]
    }

    public var changes: [Change] = []

    public init(changes: [Change]) { self.changes = changes }
    public init(unread: Void) {}
    public static let wireFields: [WireField<SyncPendingReply>] = [.objects("changes", \.changes)]
}

/// `SyncStatus`: sync's state, for `reminderctl sync status` and `status`.
public struct SyncStatusReply: ReminderReply, WireObject {
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
    public var waiting: Int64 = 0
    public var waitingSince: String?
    /// Conflicts resolved in the last 30 days (each is a history line).
    public var conflicts: Int64 = 0
    /// A reminderd-sync is connected and waiting for work.
    public var connected = false

    public init(
        account: String?, collection: String?, lastSync: String?, lastAttempt: String?, error: String?,
        waiting: Int64, waitingSince: String?, conflicts: Int64, connected: Bool
    ) {
        (self.account, self.collection, self.lastSync, self.lastAttempt) = (account, collection, lastSync, lastAttempt)
        (self.error, self.waiting, self.waitingSince) = (error, waiting, waitingSince)
        (self.conflicts, self.connected) = (conflicts, connected)
    }
    public init(unread: Void) {}

    /// Every key is written, null when there is nothing to say.
    public static let wireFields: [WireField<SyncStatusReply>] = [
        .nullable("account", \.account), .nullable("collection", \.collection), .nullable("lastSync", \.lastSync),
        .nullable("lastAttempt", \.lastAttempt), .nullable("error", \.error), .required("waiting", \.waiting),
        .nullable("waitingSince", \.waitingSince), .required("conflicts", \.conflicts),
        .required("connected", \.connected),
    ]

    public var parameters: [String: JSONValue] { ["sync": json] }

    public init(parameters: [String: JSONValue]) throws(ReminderProtocolError) {
        try self.init(wire: parameters["sync"], path: "sync")
    }
}

/// `SyncWait`: what reminderd-sync is woken for.
public struct SyncWaitReply: ReminderReply, WireObject {
    public enum Reason: String, Sendable, CaseIterable, WireText {
        /// Items changed here: push them (the daemon answers 2 s after the latest change).
        case changed
        /// `reminderctl sync now`: a whole pass, then `SyncReport`.
        case now
        /// A pop-up is about to show for `uids`: pull them at once; the daemon waits ≤ 2 s.
        case refresh

        public var text: String { rawValue }
        public init?(text: String) { self.init(rawValue: text) }
        public static var expected: String { "changed, now or refresh" }
    }

    public var reason = Reason.changed
    public var uids: [String] = []

    public init(reason: Reason, uids: [String] = []) { (self.reason, self.uids) = (reason, uids) }
    public init(unread: Void) {}
    public static let wireFields: [WireField<SyncWaitReply>] = [.required("reason", \.reason), .required("uids", \.uids)]
}
