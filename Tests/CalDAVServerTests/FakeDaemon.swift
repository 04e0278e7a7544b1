import ReminderJSON
import ReminderProtocol
import ReminderSyncService

/// reminderd as the pass sees it, played by the test: it records every call, answers `SyncBegin`
/// with what the test set, and keeps an outbox that `SyncPending` lists and `SyncPushed` empties.
/// A resource pulled for an item with a change waiting stands for reminderd's merge: the change
/// is then based on the pulled ETag, under a new seq (unless `mergesOnPull` is off, which plays a
/// server that changes again before each retry).
final class FakeDaemon: DaemonLink {
    var calls: [ReminderRequest] = []
    var begin = SyncBeginReply(token: nil, resources: [])
    var outbox: [SyncPendingReply.Change] = []
    var mergesOnPull = true
    /// Hrefs `SyncPulled` answers as skipped (unreadable to reminderd), with this reason.
    var skips: Set<String> = []
    /// What `Calendar` answers (the mirror's source).
    var calendarICS = ""
    /// Methods answered with a varlink error, or with a lost connection when `lost` is set.
    var refused: Set<ReminderMethod> = []
    var lost: Set<ReminderMethod> = []
    /// Runs after each `SyncPushed` with its href: another device writing right after the push.
    var afterPushed: ((String) throws -> Void)?
    private var nextSeq: Int64 = 1000

    func call(_ request: ReminderRequest) throws(LinkError) -> [String: JSONValue] {
        calls.append(request)
        if lost.contains(request.method) { throw .lost(.connectionLost(reason: "the daemon closed the connection")) }
        if refused.contains(request.method) {
            throw .refused(
                method: request.method.rawValue,
                VarlinkError(name: ReminderInterface.ErrorName.syncFailed, parameters: ["reason": .string("refused")]))
        }
        switch request {
        case .syncBegin: return begin.parameters
        case .syncPulled(let pulled):
            let (resources, removed) = (pulled.resources, pulled.removed)
            for resource in resources where mergesOnPull {
                if let index = outbox.firstIndex(where: { $0.href == resource.href }) {
                    outbox[index].etag = resource.etag
                    outbox[index].seq = nextSeq
                    nextSeq += 1
                }
            }
            // A resource gone on the server: this reminderd forgets the item's waiting change.
            outbox.removeAll { removed.contains($0.href) }
            let skipped = resources.filter { skips.contains($0.href) }.map {
                SyncPulledReply.Skipped(href: $0.href, reason: "line 1: not iCalendar")
            }
            return SyncPulledReply(
                applied: Int64(resources.count + removed.count - skipped.count), conflicts: 0, skipped: skipped
            ).parameters
        case .syncPending(let call): return SyncPendingReply(changes: Array(outbox.prefix(call.limit))).parameters
        case .syncPushed(let pushed):
            let (uid, seq, href) = (pushed.uid, pushed.seq, pushed.href)
            outbox.removeAll { $0.uid == uid && $0.seq == seq }
            do { try afterPushed?(href) } catch {
                throw .refused(method: request.method.rawValue, VarlinkError(name: "afterPushed: \(error)"))
            }
            return [:]
        case .syncReport: return [:]
        case .calendar: return CalendarReply(ics: calendarICS).parameters
        default: throw .refused(method: request.method.rawValue, VarlinkError(name: "unexpected"))
        }
    }

    /// Each `SyncPulled` call: resources, removed hrefs and token.
    var pulls: [(resources: [SyncResource], removed: [String], token: String?)] {
        calls.compactMap {
            guard case .syncPulled(let pulled) = $0 else { return nil }
            return (pulled.resources, pulled.removed, pulled.token)
        }
    }

    var pulledResources: [SyncResource] { pulls.flatMap(\.resources) }
    var pulledRemoved: [String] { pulls.flatMap(\.removed) }

    var pushes: [(uid: String, seq: Int64, href: String, etag: String?, body: String?)] {
        calls.compactMap {
            guard case .syncPushed(let pushed) = $0 else { return nil }
            return (pushed.uid, pushed.seq, pushed.href, pushed.etag, pushed.body)
        }
    }

    /// The errors of each `SyncReport` (nil: the pass succeeded).
    var reports: [String?] {
        calls.compactMap {
            guard case .syncReport(let call) = $0 else { return nil }
            return .some(call.error)
        }
    }

    /// What reminderd would know after applying the pulls so far: `SyncBegin`'s next answer.
    /// A confirmed push forgets the token (it predates the write) until a later pull brings one.
    func knownAfterPulls() -> SyncBeginReply {
        var known: [String: String?] = Dictionary(begin.resources.map { ($0.href, $0.etag) }, uniquingKeysWith: { $1 })
        var token = begin.token
        for call in calls {
            switch call {
            case .syncPulled(let pulled):
                for resource in pulled.resources { known[resource.href] = resource.etag }
                for href in pulled.removed { known[href] = nil }
                if let next = pulled.token { token = next }
            case .syncPushed(let pushed):
                known[pushed.href] = pushed.body == nil ? nil : .some(pushed.etag)
                token = nil
            default: continue
            }
        }
        return SyncBeginReply(
            token: token, resources: known.keys.sorted().map { SyncBeginReply.Known(href: $0, etag: known[$0]!) })
    }
}
