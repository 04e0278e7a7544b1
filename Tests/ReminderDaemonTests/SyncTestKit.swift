import Foundation
import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

@testable import ReminderDaemon

/// A CalDAV task list as the sync tests need it: resources by href with an ETag that changes on
/// every write, and the conditional PUT and DELETE of RFC 4791 (`If-None-Match: *` for a
/// create, `If-Match` for an update or delete, 412 otherwise).
final class FakeTaskList {
    static let collection = "https://dav.example/alice/reminderd/"
    private(set) var resources: [String: (etag: String, body: String)] = [:]
    private var nextETag = 1
    /// Whether `sync` lists only what changed since the engine's token (RFC 6578
    /// `sync-collection`) instead of every resource; off, every pass is a full listing.
    var incremental = false
    /// While set, every PUT and DELETE is answered with this status: 503 (the pass stops and
    /// reports the error) or 412 (the resource is fetched and pulled, as after a write elsewhere;
    /// a create or a DELETE of nothing gets 503 instead).
    var refusal: Int?
    /// The hrefs written or deleted, in order: an incremental token names a point in it.
    private var log: [String] = []
    /// Tokens of an earlier epoch are forgotten (`forgetTokens`).
    private var epoch = 0

    /// A write by another client (a phone): the body as given, a new ETag.
    func put(_ href: String, _ body: String) {
        resources[href] = ("\"\(nextETag)\"", body)
        nextETag += 1
        log.append(href)
    }

    func delete(_ href: String) {
        resources[href] = nil
        log.append(href)
    }

    /// How many writes and deletes the server has taken, from anyone.
    var writes: Int { log.count }

    /// The server forgets every sync token it gave (pruned, restored from a backup): the next
    /// incremental pass from one lists everything, as after a 403 `valid-sync-token`.
    func forgetTokens() { epoch += 1 }

    /// The incremental token for the collection as it is now.
    private var currentToken: String { "sync-\(epoch)-\(log.count)" }

    /// The hrefs written or deleted since `token`; nil when the server does not know it.
    private func touched(since token: String?) -> Set<String>? {
        guard let token else { return nil }
        let parts = token.split(separator: "-")
        guard parts.count == 3, parts[0] == "sync", Int(parts[1]) == epoch, let position = Int(parts[2]),
            position <= log.count
        else { return nil }
        return Set(log[position...])
    }

    /// One whole pass of reminderd-sync against `engine`: SyncBegin, the ETag listing compared
    /// with what the engine knows, SyncPulled with the changed resources and removed hrefs, then
    /// SyncPending and PUT/DELETE until nothing waits (a 412 fetches the resource, pulls it and
    /// tries again, at most 3 times per pass), then SyncReport.
    func sync(_ engine: ReminderEngine, token: String? = nil) {
        let begun = reply(
            engine, "SyncBegin", SyncBeginReply.self,
            [
                "collection": .string(FakeTaskList.collection), "account": .string("alice@dav.example"),
            ])
        let known = Dictionary(uniqueKeysWithValues: (begun?.resources ?? []).map { ($0.href, $0.etag) })
        let listed = incremental ? touched(since: begun?.token) : nil
        let changed = resources.keys.sorted().filter {
            (listed?.contains($0) ?? true) && (known[$0] == nil || known[$0]! != resources[$0]!.etag)
        }
        let removed = known.keys.sorted().filter { (listed?.contains($0) ?? true) && resources[$0] == nil }
        pull(engine, changed, removed: removed, token: token ?? (incremental ? currentToken : "token-\(nextETag)"))
        var failure: String?
        for _ in 0..<3 where failure == nil {
            guard let pending = reply(engine, "SyncPending", SyncPendingReply.self), !pending.changes.isEmpty else {
                break
            }
            for change in pending.changes where failure == nil { failure = push(change, to: engine) }
        }
        ok(engine, "SyncReport", failure.map { ["error": .string($0)] } ?? [:])
        #expect(engine.queue.sync { engine.checkInvariant() } == [])
    }

    /// `SyncPulled` with the resources at `hrefs`.
    @discardableResult
    func pull(_ engine: ReminderEngine, _ hrefs: [String], removed: [String] = [], token: String? = nil)
        -> SyncPulledReply?
    {
        reply(engine, "SyncPulled", SyncPulledReply.self, pulled(hrefs, removed: removed, token: token))
    }

    /// `SyncPulled`'s parameters for the resources at `hrefs`.
    func pulled(_ hrefs: [String], removed: [String] = [], token: String? = nil) -> [String: JSONValue] {
        let given = hrefs.map { SyncResource(href: $0, etag: resources[$0]?.etag, body: resources[$0]?.body ?? "") }
        var parameters: [String: JSONValue] = [
            "resources": .array(given.map(\.json)), "removed": .array(removed.map { .string($0) }),
        ]
        parameters["token"] = token.map { .string($0) }
        return parameters
    }

    /// Makes the request `change` stands for; nil, or why the pass must stop (a 503).
    private func push(_ change: SyncPendingReply.Change, to engine: ReminderEngine) -> String? {
        let current = resources[change.href]
        if refusal == 412, current != nil {
            pull(engine, [change.href])
            return nil
        }
        if refusal != nil { return "\(change.href): 503 Service Unavailable" }
        guard current?.etag == change.etag || (change.body == nil && current == nil) else {
            // 412: the server's copy goes back to the engine to be merged.
            if current != nil { pull(engine, [change.href]) } else { pull(engine, [], removed: [change.href]) }
            return nil
        }
        var etag: String?
        if let body = change.body {
            put(change.href, body)
            etag = resources[change.href]?.etag
        } else {
            delete(change.href)
        }
        var parameters: [String: JSONValue] = [
            "uid": .string(change.uid), "seq": .integer(change.seq), "href": .string(change.href),
        ]
        parameters["etag"] = etag.map { .string($0) }
        parameters["body"] = change.body.map { .string($0) }
        ok(engine, "SyncPushed", parameters)
        return nil
    }
}

/// A typed reply of `method`, nil (and an issue) when it failed.
func reply<R: ReminderReply>(
    _ engine: ReminderEngine, _ method: String, _ type: R.Type, _ parameters: [String: JSONValue] = [:]
) -> R? {
    let result = ok(engine, method, parameters)
    do { return try R(parameters: result) } catch {
        Issue.record("\(method): \(error)")
        return nil
    }
}

extension EngineHarness {
    /// Adds an item from its JSON fields; returns its id.
    func add(_ fields: [String: String]) -> String {
        guard case .success(let reply) = perform("Add", ["item": .object(fields.mapValues { .string($0) })]),
            case .string(let id)? = reply["id"]
        else {
            Issue.record("add failed")
            return ""
        }
        return id
    }

    /// The Uber Cash credit of the Amex Platinum card, as `add card` makes it.
    func addUber() -> String {
        add([
            "kind": "benefit", "title": "Uber Cash", "card": "Amex Platinum", "amount": "15", "period": "monthly",
        ])
    }

    /// The ids of the items, in order.
    var ids: [String] { engine.queue.sync { engine.order } }

    /// The item's field `key` as text.
    func field(_ id: String, _ key: String) -> String? {
        engine.queue.sync {
            guard case .object(let fields)? = engine.items[id]?.json, case .string(let text)? = fields[key] else {
                return nil
            }
            return text
        }
    }

    /// Due instants of the item's done occurrences.
    func doneDues(_ id: String) -> [Int64] {
        engine.queue.sync { (engine.occurrences[id] ?? [:]).values.filter { $0.doneAt != nil }.map(\.due).sorted() }
    }

    /// The item's history reasons of `event`, oldest first.
    func reasons(_ id: String, _ event: String) -> [String] {
        guard case .success(let parameters) = perform("History", ["item": .string(id)]),
            case .array(let entries)? = parameters["entries"]
        else { return [] }
        return entries.reversed().compactMap { entry in
            guard case .object(let fields) = entry, fields["event"] == .string(event),
                case .string(let reason)? = fields["reason"]
            else { return nil }
            return reason
        }
    }

    /// What SyncPending would push now.
    var pending: [SyncPendingReply.Change] { reply(engine, "SyncPending", SyncPendingReply.self)?.changes ?? [] }

    var storePath: String { directory.appendingPathComponent("store.sqlite").path }
}
