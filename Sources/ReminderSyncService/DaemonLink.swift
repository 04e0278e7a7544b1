import ReminderJSON
import ReminderProtocol

/// What a sync pass needs from reminderd: one call at a time, answered or refused. A protocol so
/// the pass can be tested against real CalDAV servers with a fake daemon that records the calls
/// and plays the answers (reminderd's own side is tested in its engine tests).
public protocol DaemonLink: AnyObject {
    /// Makes `request` and returns its reply's parameters; a varlink error is `.refused`.
    func call(_ request: ReminderRequest) throws(LinkError) -> [String: JSONValue]
}

extension DaemonLink {
    /// Makes `request` and reads its typed reply.
    public func call<Reply: ReminderReply>(_ request: ReminderRequest, as: Reply.Type) throws(LinkError) -> Reply {
        let parameters = try call(request)
        do { return try Reply(parameters: parameters) } catch {
            throw .unreadable(method: request.method.rawValue, error)
        }
    }
}

/// Why a call to reminderd did not give its answer. `lost` means the connection is gone (the
/// loop reconnects); the others mean reminderd answered, but not as asked.
public enum LinkError: Error, Equatable, Sendable, CustomStringConvertible {
    case lost(ReminderProtocolError)
    /// reminderd refused the call (`SyncFailed`, `InvalidParameter`…).
    case refused(method: String, VarlinkError)
    /// An answer this reminderd-sync cannot read: reminderd is of another version.
    case unreadable(method: String, ReminderProtocolError)

    public var description: String {
        switch self {
        case .lost(let error): return error.description
        case .refused(let method, let error): return "reminderd refused \(method): \(error)"
        case .unreadable(let method, let error):
            return "unreadable answer from reminderd to \(method) (\(error)); are reminderd and reminderd-sync "
                + "of the same version?"
        }
    }
}

/// The link over a varlink connection to reminderd's socket, one blocking call at a time.
public final class VarlinkDaemonLink: DaemonLink {
    private let client: VarlinkClient

    public init(client: VarlinkClient) { self.client = client }

    public func call(_ request: ReminderRequest) throws(LinkError) -> [String: JSONValue] {
        let reply: VarlinkReply
        do { reply = try client.call(request.method.qualifiedName, request.parameters) } catch {
            // A request over the 1 MiB limit is refused before it is sent: the connection stays.
            if case .requestTooLarge = error { throw .refused(method: request.method.rawValue, VarlinkError(
                name: ReminderInterface.ErrorName.requestTooLarge, parameters: ["reason": .string(error.description)]))
            }
            throw .lost(error)
        }
        switch reply {
        case .success(let parameters): return parameters
        case .failure(let error): throw .refused(method: request.method.rawValue, error)
        case .streamed: preconditionFailure("a reply read from the socket is never a streamed one")
        }
    }
}

extension VarlinkDaemonLink {
    /// Tells the reminderd at `socketPath` why no pass can start (a config reminderd-sync cannot
    /// use), as `SyncReport`, so `reminderctl sync status` and `sync now` show the reason rather
    /// than "not running". Silent when reminderd cannot be reached: stderr already says it.
    public static func reportUnusable(_ words: String, to socketPath: String) {
        guard let client = try? VarlinkClient(path: socketPath) else { return }
        _ = try? VarlinkDaemonLink(client: client).call(.syncReport(.init(error: words)))
    }
}
