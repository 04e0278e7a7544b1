import ReminderJSON

// The parameters of reminderd-sync's methods (docs/SYNC.md), declared as `RequestCalls.swift`'s.

extension ReminderRequest {
    public struct SyncBegin: CallParameters {
        /// The task list's URL.
        public var collection = ""
        /// `user@host`.
        public var account = ""

        public init(collection: String, account: String) { (self.collection, self.account) = (collection, account) }
        public init(unread: Void) {}
        public static let declared: [CallParameter<SyncBegin>] = [
            .string("collection", \.collection), .string("account", \.account),
        ]
    }

    /// Remote resources new or changed (with bodies) and removed (hrefs) since the stored token;
    /// `token` is stored once they are applied (nil: keep the stored one).
    public struct SyncPulled: CallParameters {
        public var resources: [SyncResource] = []
        public var removed: [String] = []
        public var token: String?

        public init(resources: [SyncResource], removed: [String], token: String?) {
            (self.resources, self.removed, self.token) = (resources, removed, token)
        }
        public init(unread: Void) {}
        public static let declared: [CallParameter<SyncPulled>] = [
            .array("resources", "object", \.resources, wire: { $0.json }) { json, place throws(VarlinkError) in
                try SyncResource(json, place)
            },
            .strings("removed", \.removed), .optionalString("token", \.token),
        ]
    }

    public struct SyncPending: CallParameters {
        public var limit = 100

        public init(limit: Int) { self.limit = limit }
        public init(unread: Void) {}
        public static let declared: [CallParameter<SyncPending>] = [.count("limit", \.limit, default: 100)]
    }

    /// The server took change `seq` of `uid`: its href, its new ETag (nil when the server gave
    /// none), and the body it now holds (nil: the resource was deleted).
    public struct SyncPushed: CallParameters {
        public var uid = "", href = ""
        public var seq: Int64 = 0
        public var etag, body: String?

        public init(uid: String, seq: Int64, href: String, etag: String?, body: String?) {
            (self.uid, self.seq, self.href, self.etag, self.body) = (uid, seq, href, etag, body)
        }
        public init(unread: Void) {}
        public static let declared: [CallParameter<SyncPushed>] = [
            .string("uid", \.uid), .integer("seq", \.seq), .string("href", \.href), .optionalString("etag", \.etag),
            .optionalString("body", \.body),
        ]
    }

    /// A sync pass ended: nil when it succeeded, else why not, in words.
    public struct SyncReport: CallParameters {
        public var error: String?

        public init(error: String?) { self.error = error }
        public init(unread: Void) {}
        public static let declared: [CallParameter<SyncReport>] = [.optionalString("error", \.error)]
    }
}
