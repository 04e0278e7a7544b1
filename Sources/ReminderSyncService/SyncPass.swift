import CalDAV
import FoundationEssentials
import ReminderJSON
import ReminderProtocol

/// One sync pass (docs/ARCHITECTURE.md, "reminderd-sync"): `SyncBegin`, pull the server's
/// changes into reminderd, push reminderd's changes to the server, `SyncReport`. Pull comes
/// first, always: a first join's catalog matching needs the remote items, and a push based on
/// stale ETags would only earn 412s. reminderd merges and keeps all state; the pass only moves
/// bytes, so a pass cut off anywhere loses nothing: what was not confirmed is asked for again.
/// Server errors never reach reminderd as data: a request that fails ends the pass (or, for a
/// change the server refuses, that change) before anything from its answer is passed on.
public struct SyncPass {
    public enum Kind: Sendable {
        case full
        /// Pull only, for `refresh` (a pop-up is waiting): the pushes can wait for the next pass.
        case pullOnly
    }

    public struct Limits: Sendable {
        /// Changes asked for per `SyncPending`.
        public var pending = 100
        /// PUT/DELETE attempts per item per pass; a 412 costs one (bounds a fight with another writer).
        public var triesPerItem = 3
        /// Hrefs per calendar-multiget.
        public var multiget = 50
        /// Bytes of JSON per `SyncPulled`.
        public var batchBytes = PulledBatches.defaultLimit
        /// sync-collection pages (507 truncation) followed in one pass.
        public var pages = 100

        public init() {}
    }

    /// What a pass did, for the journal.
    public struct Summary: Equatable, Sendable {
        public var pulled = 0
        public var removed = 0
        public var pushed = 0
        public var conflicts: Int64 = 0
    }

    let session: SyncSession
    let link: any DaemonLink
    let limits: Limits
    /// Asked between requests: true once SIGTERM arrived.
    let shouldStop: () -> Bool

    public init(
        session: SyncSession, link: any DaemonLink, limits: Limits = Limits(), shouldStop: @escaping () -> Bool = { false }
    ) {
        self.session = session
        self.link = link
        self.limits = limits
        self.shouldStop = shouldStop
    }

    var client: CalDAVClient { session.client }
    var taskList: URL { session.taskList }

    /// Runs the pass and reports its end to reminderd (unless the connection to it is gone).
    public func run(_ kind: Kind) -> Result<Summary, PassFailure> {
        var state = PassState()
        do throws(PassError) {
            let begin = try ask(
                .syncBegin(.init(collection: taskList.absoluteString, account: session.account)), as: SyncBeginReply.self)
            try pull(begin, &state)
            if kind == .full {
                try push(&state)
                try pullAfterWrites(&state)
            }
        } catch {
            let failure = error.failure
            if failure.kind != .daemonLost { _ = try? link.call(.syncReport(.init(error: failure.words))) }
            return .failure(failure)
        }
        let words = state.problemWords
        do { _ = try link.call(.syncReport(.init(error: words))) } catch {
            return .failure(PassError.daemon(error).failure)
        }
        guard let words else { return .success(state.summary) }
        return .failure(PassFailure(words: words, kind: .waitForTrigger, dropsSession: false))
    }

    // MARK: - Helpers shared by pull and push

    func dav<T>(_ body: () throws(DAVError) -> T) throws(PassError) -> T {
        do { return try body() } catch { throw .server(error) }
    }

    /// A call to reminderd whose answer the pass reads.
    func ask<Reply: ReminderReply>(_ request: ReminderRequest, as type: Reply.Type) throws(PassError) -> Reply {
        do { return try link.call(request, as: type) } catch { throw .daemon(error) }
    }

    /// Hands resources and removed hrefs to reminderd (`SyncPulled`). Its conflicts are counted;
    /// a resource it could not apply (not readable, a UID twice in one batch) stays as it is on
    /// the server and goes into the report, named with reminderd's reason.
    func pulled(_ resources: [SyncResource], removed: [String], token: String?, _ state: inout PassState)
        throws(PassError)
    {
        let reply = try ask(.syncPulled(.init(resources: resources, removed: removed, token: token)), as: SyncPulledReply.self)
        for resource in resources {
            if let url = url(of: resource.href) { state.known[key(url)] = .init(href: resource.href, etag: resource.etag) }
        }
        for removed in removed {
            if let url = url(of: removed) { state.known[key(url)] = nil }
        }
        if let token { state.storedToken = token }
        state.summary.conflicts += reply.conflicts
        for skipped in reply.skipped {
            state.note("\(skipped.href) on the server was left as it is: \(skipped.reason)")
        }
    }

    /// A call to reminderd whose answer is empty.
    func tell(_ request: ReminderRequest) throws(PassError) {
        do { _ = try link.call(request) } catch { throw .daemon(error) }
    }

    func checkStop() throws(PassError) {
        if shouldStop() { throw .stopped }
    }

    /// The resource's URL on the server: reminderd's href is a path (or a whole URL) on it.
    func url(of href: String) -> URL? { URL(string: href, relativeTo: taskList)?.absoluteURL }

    /// What identifies a resource whatever the href's spelling: its path, percent-decoded.
    func key(_ url: URL) -> String { url.absoluteURL.path }

    /// The href as reminderd is told it: the path, as the server's DAV:href has it.
    func href(_ url: URL) -> String { url.absoluteURL.path(percentEncoded: true) }
}

/// What a pass gathers on its way.
struct PassState {
    var summary = SyncPass.Summary()
    /// Changes or resources left out, each in words; the pass goes on without them and reports them.
    private(set) var problems: [String] = []

    /// Adds a problem once: a resource pulled again after a 412 (up to 3 times a pass) is skipped
    /// for the same reason again, and is still one problem, not "(and 2 more)".
    mutating func note(_ problem: String) {
        if !problems.contains(problem) { problems.append(problem) }
    }
    /// What reminderd knows of the server by path (`SyncBegin`'s resources, then what the pass
    /// handed over and what the server took), and the token it holds: a confirmed write makes
    /// it forget its token, a `SyncPulled` with one stores it.
    var known: [String: SyncBeginReply.Known] = [:]
    var storedToken: String?
    /// The token the pass last listed from, or was given by a listing.
    var listedFrom: String?
    /// The server took a write of this pass; and the paths it PUT, which the listing after the
    /// writes must name.
    var wrote = false
    var written: Set<String> = []

    var problemWords: String? {
        guard let first = problems.first else { return nil }
        return problems.count == 1 ? first : "\(first) (and \(problems.count - 1) more)"
    }
}

/// Why a pass stopped early.
enum PassError: Error {
    case server(DAVError)
    case daemon(LinkError)
    case stopped

    var failure: PassFailure {
        switch self {
        case .server(let error): return PassFailure(error)
        case .daemon(.lost(let error)):
            return PassFailure(words: error.description, kind: .daemonLost, dropsSession: false)
        case .daemon(let error): return PassFailure(words: error.description, kind: .waitForTrigger, dropsSession: false)
        case .stopped:
            return PassFailure(
                words: "reminderd-sync was stopped during the pass; the rest waits for its next start", kind: .stopped,
                dropsSession: false)
        }
    }
}
