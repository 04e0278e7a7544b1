import Dispatch
import Glibc
import ReminderProtocol
import ReminderStore

/// One client: reads framed calls, answers them in order, writes without blocking.
final class SocketConnection: @unchecked Sendable {  // confined to the server's queue
    let id: UInt64
    let fd: Int32
    private unowned let server: SocketServer
    private var framing = VarlinkFraming()
    /// Replies waiting for the group commit, then the bytes of those that may go out.
    private var replies = ReplyQueue()
    /// Calls the engine answers later (`ParkedCall`): dropped when the connection closes.
    private var parked: [ParkedCall] = []
    private var output: [UInt8] = []
    private var sent = 0
    private var writeSource: DispatchSourceWrite?
    /// When it last read or finished writing (for closing the longest-idle one).
    private(set) var lastActive = DispatchTime.now()
    /// The unfinished input counted in the server's budget.
    private(set) var bufferedInput = 0
    /// Calls are being answered: settled replies wait to go out in one write.
    private var answering = false
    /// Reads no more and closes once its replies are out (after a malformed message).
    private var closing = false
    /// After an oversized request: input is read and dropped until the client hangs up, so the
    /// error reply is not lost to a reset by unread data.
    private var discarding = false
    private var discarded = 0
    private var isClosed = false

    init(id: UInt64, fd: Int32, server: SocketServer) {
        self.id = id
        self.fd = fd
        self.server = server
    }

    func start() { server.watch(self, true) }

    /// Nothing in progress: no partial call, no reply waiting or unsent.
    var isIdle: Bool { bufferedInput == 0 && replies.isEmpty && sent == output.count }

    func readAvailable() {
        guard !closing else { return }
        let count = server.readBuffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count == 0 && !parked.isEmpty && peerHungUp() {
            // Gone, not just done sending: a parked call would keep it open for nobody.
            close()
            return
        }
        if count == 0 && !discarding && !(replies.isEmpty && sent == output.count) {
            // The client is done sending (it may only have shut down its side, as `socat` does):
            // the calls it made are still answered, then the connection closes.
            closing = true
            server.watch(self, false)
            return
        }
        if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR && errno != EWOULDBLOCK) {
            close()
            return
        }
        guard count > 0 else { return }
        lastActive = .now()
        if discarding {
            discarded += count
            if discarded > 16 * VarlinkFraming.maximumMessageSize { close() }
            return
        }
        framing.append(server.readBuffer[0..<count])
        answering = true
        do {
            while let message = try framing.nextMessage() {
                let call: VarlinkCall
                do { call = try VarlinkCall(bytes: message) } catch {
                    // Not a call: say so, then hang up (the stream may be out of step).
                    enqueue(
                        .failure(
                            VarlinkError(
                                name: ReminderInterface.Service.invalidParameter,
                                parameters: ["parameter": .string("message"), "reason": .string(error.description)])),
                        acknowledgesChange: false)
                    // Reads no more: left in the (level-triggered) set, a client that keeps
                    // sending without reading would wake the queue over and over.
                    closing = true
                    server.watch(self, false)
                    break
                }
                answer(call)
            }
        } catch {
            let limit = VarlinkFraming.maximumMessageSize
            server.log.warning("refused a request larger than \(limit) bytes")
            enqueue(
                .failure(
                    VarlinkError(
                        name: ReminderInterface.ErrorName.requestTooLarge,
                        parameters: [
                            "limit": .integer(Int64(limit)),
                            "reason": .string(
                                "request larger than the limit of \(limit) bytes (1 MiB); send it in smaller parts"),
                        ])),
                acknowledgesChange: false)
            discarding = true
            framing = VarlinkFraming()
        }
        answering = false
        let delta = framing.pendingByteCount - bufferedInput
        bufferedInput = framing.pendingByteCount
        server.inputChanged(by: delta)  // may close this connection
        sendReady()
    }

    /// Answers `call`; the reply waits for the flush covering every change made so far, and
    /// it acknowledges a change when the call made one. A call the engine parks has its place
    /// kept by `park` and is answered by `filled`.
    private func answer(_ call: VarlinkCall) {
        let before = server.store.commitCount
        guard let reply = server.dispatch(call, from: Caller(connection: self, oneway: call.oneway)) else { return }
        guard !call.oneway else { return }
        enqueue(reply, acknowledgesChange: server.store.commitCount > before)
    }

    /// The connection as `CallParking`: keeps a parked call's place in its replies (none for a
    /// oneway call, whose answer nobody reads).
    private struct Caller: CallParking {
        unowned let connection: SocketConnection
        let oneway: Bool

        func park() -> ParkedCall { connection.park(oneway: oneway) }
        func watch() -> ParkedCall { connection.park(oneway: true) }
    }

    private func park(oneway: Bool) -> ParkedCall {
        let number = oneway ? nil : replies.reserve()
        let call = ParkedCall { [weak self] reply in self?.filled(number, reply) }
        parked.append(call)
        return call
    }

    /// A parked call was answered: its reply takes its place and goes out once settled, like any.
    private func filled(_ number: Int?, _ reply: VarlinkReply) {
        parked.removeAll { !$0.isOpen }
        guard let number, !isClosed else { return }
        replies.fill(number, with: reply)
        server.store.whenDurable(through: server.store.commitCount) { [weak self] durability in
            self?.settled(number, durability)
        }
    }

    /// Whether the client closed its end altogether (a hang-up, not a shutdown of its sending side).
    private func peerHungUp() -> Bool {
        var poller = pollfd(fd: fd, events: 0, revents: 0)
        return poll(&poller, 1, 0) > 0 && poller.revents & Int16(POLLHUP) != 0
    }

    private func enqueue(_ reply: VarlinkReply, acknowledgesChange: Bool) {
        let number = replies.add(reply, acknowledgesChange: acknowledgesChange)
        // Bound to this object, not to its descriptor: once closed, nothing more is written.
        server.store.whenDurable(through: server.store.commitCount) { [weak self] durability in
            self?.settled(number, durability)
        }
    }

    private func settled(_ number: Int, _ durability: Durability) {
        guard !isClosed else { return }
        if replies.settle(number, durability), case .notConfirmed(let reason) = durability {
            server.log.error("a change is saved but not confirmed on disk (\(reason)); told the client so")
        }
        if !answering { sendReady() }
    }

    /// Moves the replies that may go out into the output and writes.
    private func sendReady() {
        guard !isClosed else { return }
        for reply in replies.takeReady() {
            if output.count - sent > SocketServer.maximumPendingOutput {
                server.log.warning("dropping a client that does not read its replies")
                return close()
            }
            reply.append(to: &output)  // serialized in place, not built apart and copied
        }
        flush()
    }

    /// Writes what it can of the replies now, and the rest when the socket has room.
    func flush() {
        guard !isClosed else { return }
        while sent < output.count {
            let written = output[sent...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                sent += written
                continue
            }
            if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                if writeSource == nil {
                    let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: server.queue)
                    source.setEventHandler { [weak self] in self?.flush() }
                    writeSource = source
                    source.activate()
                }
                return
            }
            return close()
        }
        lastActive = .now()
        let large = output.count >= SocketServer.largeOutput
        output.removeAll(keepingCapacity: output.capacity <= 65_536)
        sent = 0
        if large { server.largeOutputWritten() }
        writeSource?.cancel()
        writeSource = nil
        guard replies.isEmpty else { return }
        if closing { close() }
        // Told why; the client sees the end of the replies and hangs up.
        if discarding { shutdown(fd, Int32(SHUT_WR)) }
    }

    /// Leaves the epoll set and lets go of its buffers; the descriptor is closed once Dispatch
    /// has let go of it (when it was waiting to write).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        server.watch(self, false)
        let fd = self.fd
        if let writeSource {
            writeSource.setCancelHandler { Glibc.close(fd) }
            writeSource.cancel()
        } else {
            Glibc.close(fd)
        }
        writeSource = nil
        let releasedInput = bufferedInput
        bufferedInput = 0
        framing = VarlinkFraming()
        output = []
        sent = 0
        replies = ReplyQueue()
        let parked = self.parked
        self.parked = []
        for call in parked { call.drop() }
        server.closed(self, releasedInput: releasedInput)
    }
}
