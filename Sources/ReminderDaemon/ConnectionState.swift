import Dispatch
import Logging
import ReminderProtocol
import ReminderStore

/// One client connection's varlink protocol as a value: bytes and events in, actions out.
///
/// It owns what the protocol needs to remember: the framing of the input (NUL-ended messages of
/// at most 1 MiB), the replies in call order (`ReplyQueue`), the bytes not yet written, and the
/// connection's `Phase`. It makes no system call and knows neither the server nor the engine, so
/// it is tested with byte arrays (`ConnectionStateTests`). The shell (`SocketConnection`, driven
/// by `SocketServer`) reads and writes the descriptor, carries out each `Action` in order, hands
/// each `.dispatch` to the service and reports back: `answered` or, for a parked call, `filled`;
/// `settled` when the store's flush covering a reply is done; `sent` / `sendBlocked` for writes.
struct ConnectionState {
    /// What the shell is to do, in the order given.
    enum Action: Equatable {
        /// Hand `call` to the service. Its reply goes to `answered(slot, …)`, or, when the call
        /// is parked, to `filled(slot, …)` later; `slot` is nil for a oneway call, whose reply
        /// nobody reads.
        case dispatch(VarlinkCall, slot: Int?)
        /// Every call of this read was dispatched: report it with `callsDispatched()`. Replies
        /// settled meanwhile wait for it, so a read's replies go out in one write.
        case callsDispatched
        /// Ask the store for the flush covering every change made so far, and report its
        /// outcome with `settled(slot, …)`.
        case awaitDurability(slot: Int)
        /// Send `unsent`, reporting with `sent`, `sendBlocked`, or `close` after an error.
        case write
        /// The socket is full: call `writable()` when it has room, until `unwatchWritable`.
        case watchWritable
        case unwatchWritable
        /// Leave the descriptor out of the read set (level-triggered: a client that keeps sending
        /// without reading would otherwise wake the queue over and over).
        case stopReading
        /// Shut down the sending side: the client sees the end of the replies and hangs up.
        case shutdownWrite
        /// Close the descriptor and drop the connection's parked calls; `releasedInput` bytes of
        /// unfinished requests leave the server's budget.
        case close(releasedInput: Int)
        /// The unfinished input held changed by this many bytes (the server's budget).
        case inputChanged(by: Int)
        /// At least `largeOutput` bytes were written: malloc may give pages back.
        case largeOutputWritten
        case log(Logger.Level, String)
    }

    /// Where the connection is in its life.
    enum Phase: Equatable {
        /// Reads calls and answers them.
        case reading
        /// Reads no more; closes once its replies are out (after a malformed message, or when
        /// the client shut down its sending side).
        case closing
        /// After an oversized request: input is read and dropped (this many bytes so far) until
        /// the client hangs up, so the error reply is not lost to a reset by unread data.
        case discarding(Int)
        case closed
    }

    /// A connection whose unsent replies exceed this when another is added is dropped (one
    /// reply, however large, always goes out).
    static let maximumPendingOutput = 8 << 20
    /// A streamed reply is written this much at a time, when less than this is left unsent: a
    /// client that does not read holds one such chunk of it, not the whole reply (at 100k items,
    /// 22 MiB of `list`), while one that reads gets it in writes as large as before.
    static let streamChunk = 64 << 10
    /// Replies this large (a `list` of 1,000 items is 250 KiB, of 10k 2.5 MiB) are followed by
    /// a `MallocTuning.trim`: without it, 30 rounds of list, summary and export at 10k items
    /// left 11 MiB free in malloc, never given back. A trim took 0.5–6 ms (median 1.4 ms) at
    /// 10k items, a small part of building such a reply.
    static let largeOutput = 256 << 10
    /// Input dropped after an oversized request before the connection is closed.
    static let maximumDiscarded = 16 * VarlinkFraming.maximumMessageSize

    private(set) var phase = Phase.reading
    private var framing = VarlinkFraming()
    /// Replies waiting for their call's answer or the group commit, in call order.
    private var replies = ReplyQueue()
    private var output: [UInt8] = []
    private var sent = 0
    /// The streamed reply being written into `output` as the socket drains, and its place.
    private var stream: (writer: any VarlinkReplyWriter, cursor: VarlinkReplyCursor)?
    /// Replies ready behind `stream`, in call order: built ones as their bytes, streamed ones
    /// still to write.
    private var behind: [Waiting] = []
    /// Bytes written since the output last drained (for `largeOutputWritten`).
    private var written = 0
    /// A read's calls are being dispatched: settled replies wait to go out in one write.
    private var answering = false
    /// The shell watches for room to write.
    private var waitingForRoom = false
    /// The unfinished input counted in the server's budget.
    private(set) var bufferedInput = 0
    /// When it last read or finished writing (for closing the longest-idle one).
    private(set) var lastActive = DispatchTime.now()

    private enum Waiting {
        case bytes([UInt8])
        case stream(any VarlinkReplyWriter)
    }

    /// Whether the shell should read from the descriptor.
    var wantsInput: Bool {
        switch phase {
        case .reading, .discarding: true
        case .closing, .closed: false
        }
    }

    var isClosed: Bool { phase == .closed }

    /// Nothing in progress: no partial call, no reply waiting or unsent.
    var isIdle: Bool { bufferedInput == 0 && replies.isEmpty && !hasOutputToMake && sent == output.count }

    /// A streamed reply is being written, or replies wait behind it.
    private var hasOutputToMake: Bool { stream != nil || !behind.isEmpty }

    /// The replies taken but not sent, as the 8 MiB limit counts them: the bytes written and
    /// waiting, and a chunk for each streamed reply waiting its turn (what it will hold then).
    private var pendingOutput: Int {
        behind.reduce(output.count - sent) { total, waiting in
            switch waiting {
            case .bytes(let bytes): total + bytes.count
            case .stream: total + Self.streamChunk
            }
        }
    }

    /// The reply bytes to write now.
    var unsent: ArraySlice<UInt8> { output[sent...] }

    /// Bytes came in: the whole calls among them are dispatched in order, each with its place in
    /// the replies kept; a malformed message gets an error and ends the reading; an oversized one
    /// gets `RequestTooLarge` and the rest of the input is dropped.
    mutating func received(_ bytes: ArraySlice<UInt8>) -> [Action] {
        switch phase {
        case .closing, .closed: return []
        case .discarding(let count):
            lastActive = .now()
            guard count + bytes.count <= Self.maximumDiscarded else { return close() }
            phase = .discarding(count + bytes.count)
            return []
        case .reading: break
        }
        lastActive = .now()
        framing.append(bytes)
        answering = true
        var actions: [Action] = []
        do {
            while let message = try framing.nextMessage() {
                let call: VarlinkCall
                do { call = try VarlinkCall(bytes: message) } catch {
                    // Not a call: say so, then hang up (the stream may be out of step).
                    let refusal = VarlinkError(
                        name: ReminderInterface.Service.invalidParameter,
                        parameters: ["parameter": .string("message"), "reason": .string(error.description)])
                    actions.append(.awaitDurability(slot: replies.add(.failure(refusal), acknowledgesChange: false)))
                    phase = .closing
                    actions.append(.stopReading)
                    break
                }
                actions.append(.dispatch(call, slot: call.oneway ? nil : replies.reserve()))
            }
        } catch {
            let limit = VarlinkFraming.maximumMessageSize
            actions.append(.log(.warning, "refused a request larger than \(limit) bytes"))
            let refusal = VarlinkError(
                name: ReminderInterface.ErrorName.requestTooLarge,
                parameters: [
                    "limit": .integer(Int64(limit)),
                    "reason": .string(
                        "request larger than the limit of \(limit) bytes (1 MiB); send it in smaller parts"),
                ])
            actions.append(.awaitDurability(slot: replies.add(.failure(refusal), acknowledgesChange: false)))
            phase = .discarding(0)
            framing = VarlinkFraming()
        }
        actions.append(.callsDispatched)
        return actions
    }

    /// The client sent no more (a read of 0 bytes). `peerHungUp`: it closed its end altogether,
    /// not only its sending side (as `socat` does) — asked by the shell only when calls are parked.
    mutating func receivedEnd(peerHungUp: Bool) -> [Action] {
        guard !isClosed else { return [] }
        // Gone, not just done sending: a parked call would keep it open for nobody.
        if peerHungUp { return close() }
        if case .discarding = phase { return close() }
        guard replies.isEmpty && !hasOutputToMake && sent == output.count else {
            // Done sending: the calls it made are still answered, then the connection closes.
            phase = .closing
            return [.stopReading]
        }
        return close()
    }

    /// The reply to the call dispatched for `slot`; nil when the service gave none and did not
    /// park the call (nothing then waits for it). `acknowledgesChange`: the call changed something.
    mutating func answered(_ slot: Int, with reply: VarlinkReply?, acknowledgesChange: Bool) -> [Action] {
        guard !isClosed else { return [] }
        guard let reply else {
            replies.withdraw(slot)
            return answering ? [] : sendReady()
        }
        replies.fill(slot, with: reply, acknowledgesChange: acknowledgesChange)
        return [.awaitDurability(slot: slot)]
    }

    /// A parked call was answered: its reply takes its place and goes out once settled, like any.
    mutating func filled(_ slot: Int, with reply: VarlinkReply) -> [Action] {
        answered(slot, with: reply, acknowledgesChange: false)
    }

    /// The end of dispatching a read's calls: the input budget hears of the unfinished input
    /// held, and the replies that may go out are written.
    mutating func callsDispatched() -> [Action] {
        answering = false
        guard !isClosed else { return [] }
        let delta = framing.pendingByteCount - bufferedInput
        bufferedInput = framing.pendingByteCount
        // The budget may close this connection; the shell then skips the rest.
        return [.inputChanged(by: delta)] + sendReady()
    }

    /// The flush that reply `slot` waited for is done.
    mutating func settled(_ slot: Int, _ durability: Durability) -> [Action] {
        guard !isClosed else { return [] }
        var actions: [Action] = []
        if replies.settle(slot, durability), case .notConfirmed(let reason) = durability {
            actions.append(.log(.error, "a change is saved but not confirmed on disk (\(reason)); told the client so"))
        }
        if !answering { actions += sendReady() }
        return actions
    }

    /// `count` more bytes of `unsent` were written.
    mutating func sent(_ count: Int) -> [Action] {
        guard !isClosed else { return [] }
        sent += count
        written += count
        if output.count - sent < Self.streamChunk && hasOutputToMake {
            // The socket drained below a chunk: the next part of a streamed reply, after what is left.
            output.removeFirst(sent)
            sent = 0
            makeOutput()
        }
        return sent < output.count ? [] : drained()
    }

    /// The socket took no more: the rest goes when it has room.
    mutating func sendBlocked() -> [Action] {
        guard !isClosed, !waitingForRoom else { return [] }
        waitingForRoom = true
        return [.watchWritable]
    }

    /// The socket has room again.
    mutating func writable() -> [Action] { flush() }

    /// Ends the connection (asked by the shell after an error, or by the server's limits):
    /// everything held is let go.
    mutating func close() -> [Action] {
        guard !isClosed else { return [] }
        phase = .closed
        let released = bufferedInput
        bufferedInput = 0
        framing = VarlinkFraming()
        replies = ReplyQueue()
        output = []
        sent = 0
        stream = nil
        behind = []
        waitingForRoom = false
        return [.close(releasedInput: released)]
    }

    /// Moves the replies that may go out into the output, then writes.
    private mutating func sendReady() -> [Action] {
        guard !isClosed else { return [] }
        for reply in replies.takeReady() {
            if pendingOutput > Self.maximumPendingOutput {
                return [.log(.warning, "dropping a client that does not read its replies")] + close()
            }
            switch reply {
            case .streamed(let writer) where hasOutputToMake: behind.append(.stream(writer))
            case .streamed(let writer): startStream(writer)
            case .success, .failure:
                if hasOutputToMake { behind.append(.bytes(reply.bytes)) } else { reply.append(to: &output) }
            }
        }
        makeOutput()
        return flush()
    }

    private mutating func startStream(_ writer: any VarlinkReplyWriter) {
        VarlinkReply.appendStreamStart(to: &output)
        stream = (writer, VarlinkReplyCursor())
    }

    /// Writes the streamed reply's next parts, and the replies behind it in their turn, until a
    /// chunk is unsent or nothing is left to write.
    private mutating func makeOutput() {
        while output.count - sent < Self.streamChunk {
            if var current = stream {
                if current.writer.write(from: &current.cursor, into: &output, atLeast: Self.streamChunk) {
                    VarlinkReply.appendStreamEnd(to: &output)
                    stream = nil
                } else {
                    stream = current
                }
                continue
            }
            guard !behind.isEmpty else { return }
            switch behind.removeFirst() {
            case .bytes(let bytes): output += bytes
            case .stream(let writer): startStream(writer)
            }
        }
    }

    private mutating func flush() -> [Action] {
        guard !isClosed else { return [] }
        return sent < output.count ? [.write] : drained()
    }

    /// Everything taken so far is written.
    private mutating func drained() -> [Action] {
        lastActive = .now()
        var actions: [Action] = []
        if written >= Self.largeOutput { actions.append(.largeOutputWritten) }
        written = 0
        output.removeAll(keepingCapacity: output.capacity <= 65_536)
        sent = 0
        if waitingForRoom {
            waitingForRoom = false
            actions.append(.unwatchWritable)
        }
        guard replies.isEmpty else { return actions }
        switch phase {
        case .closing: return actions + close()
        case .discarding: return actions + [.shutdownWrite]  // told why; the client hangs up
        case .reading, .closed: return actions
        }
    }
}
