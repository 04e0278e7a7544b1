import Dispatch
import Glibc
import ReminderProtocol
import ReminderStore

/// The server carries out its connections' actions (`ConnectionState.Action`): it dispatches
/// calls to the service, waits for the store's flushes, runs the epoll set and the limits, and
/// has `SocketConnection` make the descriptor's system calls. What comes back later — a flush
/// settled, room to write, a parked call answered — comes back here by connection id, so a
/// closed connection's id finds nothing and its replies go nowhere.
extension SocketServer {
    /// Carries out `actions` for `connection`, in order; once its descriptor is closed, the
    /// rest are skipped.
    func run(_ actions: [ConnectionState.Action], on connection: SocketConnection) {
        dispatchPrecondition(condition: .onQueue(queue))
        for action in actions {
            guard !connection.isClosed else { return }
            switch action {
            case .dispatch(let call, let slot): dispatch(call, slot: slot, on: connection)
            case .callsDispatched: run(connection.state.callsDispatched(), on: connection)
            case .awaitDurability(let slot):
                let id = connection.id
                store.whenDurable(through: store.commitCount) { [weak self] durability in
                    self?.settled(id, slot, durability)
                }
            case .write: run(connection.write(), on: connection)
            case .watchWritable:
                let id = connection.id
                connection.watchWritable(on: queue) { [weak self] in self?.writable(id) }
            case .unwatchWritable: connection.unwatchWritable()
            case .stopReading: watch(connection, false)
            case .shutdownWrite: shutdown(connection.fd, Int32(SHUT_WR))
            case .close(let releasedInput):
                watch(connection, false)
                connection.closeDescriptor()
                closed(connection, releasedInput: releasedInput)
            case .inputChanged(let delta): inputChanged(by: delta)  // may close this connection
            case .largeOutputWritten: largeOutputWritten()
            case .log(let level, let message): log.log(level: level, "\(message)")
            }
        }
    }

    /// Closes `connection` (the server's limits, or stopping).
    func disconnect(_ connection: SocketConnection) {
        run(connection.state.close(), on: connection)
    }

    /// Answers `org.varlink.service` itself and hands the rest to the handler. A call the
    /// handler parks is answered later through `Caller`; the reply acknowledges a change when
    /// the store committed one meanwhile.
    private func dispatch(_ call: VarlinkCall, slot: Int?, on connection: SocketConnection) {
        let before = store.commitCount
        let caller = Caller(server: self, connection: connection, slot: slot)
        let reply = service.reply(to: call) { method, parameters in handler(method, parameters, caller) }
        guard let slot, !caller.parked else { return }
        let acknowledgesChange = store.commitCount > before
        run(connection.state.answered(slot, with: reply, acknowledgesChange: acknowledgesChange), on: connection)
    }

    private func settled(_ id: UInt64, _ slot: Int, _ durability: Durability) {
        guard let connection = running.connections[id] else { return }
        run(connection.state.settled(slot, durability), on: connection)
    }

    private func writable(_ id: UInt64) {
        guard let connection = running.connections[id] else { return }
        run(connection.state.writable(), on: connection)
    }

    /// A parked call was answered: its reply takes its place in the connection's replies.
    fileprivate func filled(_ id: UInt64, _ slot: Int?, _ reply: VarlinkReply, acknowledgesChange: Bool) {
        guard let connection = running.connections[id] else { return }
        connection.parked.removeAll { !$0.isOpen }
        guard let slot else { return }
        run(connection.state.filled(slot, with: reply, acknowledgesChange: acknowledgesChange), on: connection)
    }
}

/// Where a call came from, for the methods that answer later (`CallParking`): a parked call
/// keeps the call's place in its connection's replies (none for a oneway call, whose answer
/// nobody reads) and its answer goes back through the server by connection id. Lives for one
/// dispatch, on the server's queue.
private final class Caller: CallParking {
    private let server: SocketServer
    private let connection: SocketConnection
    private let slot: Int?
    /// The handler parked the call: its reply comes with the answer, not from the dispatch.
    private(set) var parked = false

    init(server: SocketServer, connection: SocketConnection, slot: Int?) {
        self.server = server
        self.connection = connection
        self.slot = slot
    }

    func park(on queue: DispatchQueue) -> ParkedCall {
        parked = true
        return keep(slot, on: queue)
    }

    func watch(on queue: DispatchQueue) -> ParkedCall { keep(nil, on: queue) }

    var connectionID: UInt64? { connection.id }

    private func keep(_ slot: Int?, on queue: DispatchQueue) -> ParkedCall {
        let id = connection.id
        let call = ParkedCall(on: queue, acknowledging: { [weak server] reply, acknowledgesChange in
            server?.filled(id, slot, reply, acknowledgesChange: acknowledgesChange)
        })
        connection.parked.append(call)
        return call
    }
}
