import ReminderJSON
import ReminderProtocol

/// reminderd-sync's two connections to reminderd: one holds a `SyncWait` call open, and its
/// descriptor is what the loop polls — reminderd answers it when there is work, so no timer is
/// needed for that; the other makes the pass's calls, which must not queue behind the parked one.
final class DaemonConnection {
    let link: VarlinkDaemonLink
    private let waiter: VarlinkClient

    init(path: String) throws(ReminderProtocolError) {
        link = VarlinkDaemonLink(client: try VarlinkClient(path: path))
        waiter = try VarlinkClient(path: path)
    }

    /// The descriptor that becomes readable when reminderd answers `SyncWait` (or goes away).
    var waitDescriptor: Int32 { waiter.fileDescriptor }

    /// Sends `SyncWait`; its answer arrives when reminderd has work.
    func armWait() throws(ReminderProtocolError) {
        try waiter.send(VarlinkCall(.syncWait).bytes)
    }

    /// Reads the answer to `SyncWait` once its descriptor is readable.
    func takeWait() throws(LinkError) -> SyncWaitReply {
        let reply: VarlinkReply
        do { reply = try VarlinkReply(bytes: try waiter.receive()) } catch { throw .lost(error) }
        switch reply {
        case .success(let parameters):
            do { return try SyncWaitReply(parameters: parameters) } catch {
                throw .unreadable(method: ReminderMethod.syncWait.rawValue, error)
            }
        case .failure(let error): throw .refused(method: ReminderMethod.syncWait.rawValue, error)
        case .streamed: preconditionFailure("a reply read from the socket is never a streamed one")
        }
    }
}
