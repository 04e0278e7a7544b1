import Dispatch
import Glibc
import ReminderProtocol

/// One client's descriptor and what is tied to it: the protocol state (`ConnectionState`), the
/// write source while the socket is full, and the calls parked on it. It makes the system calls
/// the state asks for and returns the state's actions; `SocketServer` carries them out. It holds
/// nothing of the server's: what a read needs (the buffer) is passed in.
///
/// Not `Sendable`: only the server, on its queue, holds it.
final class SocketConnection {
    let id: UInt64
    let fd: Int32
    var state = ConnectionState()
    /// Calls the engine answers later (`ParkedCall`), and watches on the connection: dropped
    /// when it closes.
    var parked: [ParkedCall] = []
    private var writeSource: DispatchSourceWrite?
    /// The descriptor is closed: every action still to come for it is skipped.
    private(set) var isClosed = false

    init(id: UInt64, fd: Int32) {
        self.id = id
        self.fd = fd
    }

    /// Reads what is waiting into `buffer` and hands it to the state.
    func read(into buffer: inout [UInt8]) -> [ConnectionState.Action] {
        guard state.wantsInput else { return [] }
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 { return state.received(buffer[0..<count]) }
        if count == 0 { return state.receivedEnd(peerHungUp: !parked.isEmpty && peerHungUp()) }
        if errno == EAGAIN || errno == EINTR || errno == EWOULDBLOCK { return [] }
        return state.close()
    }

    /// Writes what it can of the state's output.
    func write() -> [ConnectionState.Action] {
        var actions: [ConnectionState.Action] = []
        while !state.unsent.isEmpty {
            let written = state.unsent.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                actions += state.sent(written)
                continue
            }
            if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                return actions + state.sendBlocked()
            }
            return actions + state.close()
        }
        return actions
    }

    /// Calls `handler` on `queue` whenever the socket has room, until `unwatchWritable`.
    func watchWritable(on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) {
        guard writeSource == nil else { return }
        let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler(handler: handler)
        writeSource = source
        source.activate()
    }

    func unwatchWritable() {
        writeSource?.cancel()
        writeSource = nil
    }

    /// Closes the descriptor once Dispatch has let go of it (when it was waiting to write), and
    /// drops the parked calls, so their keeper forgets them.
    func closeDescriptor() {
        guard !isClosed else { return }
        isClosed = true
        let fd = self.fd
        if let writeSource {
            writeSource.setCancelHandler { Glibc.close(fd) }
            writeSource.cancel()
        } else {
            Glibc.close(fd)
        }
        writeSource = nil
        let parked = self.parked
        self.parked = []
        for call in parked { call.drop() }
    }

    /// Whether the client closed its end altogether (a hang-up, not a shutdown of its sending side).
    private func peerHungUp() -> Bool {
        var poller = pollfd(fd: fd, events: 0, revents: 0)
        return poll(&poller, 1, 0) > 0 && poller.revents & Int16(POLLHUP) != 0
    }
}
