import ReminderJSON
import ReminderProtocol
import ReminderStore

@testable import ReminderDaemon

/// A connection's shell played in memory, like swift-nio's `EmbeddedChannel`: it carries out a
/// `ConnectionState`'s actions against a scripted service, a store whose flushes the test runs
/// (settling like the group commit: a reply that waits for no change settles at once), and a
/// socket that takes `room` bytes before it is full. What the client would read is `written`.
final class EmbeddedConnection {
    /// What the service does with a call.
    enum Answer {
        /// Replies; `changes`: the call committed a change, so its reply waits for a flush.
        case reply(VarlinkReply, changes: Bool)
        /// Keeps the call to answer later (`answerParked`).
        case park
        /// Gives no reply and keeps nothing.
        case nothing
    }

    private(set) var state = ConnectionState()
    private let service: (VarlinkCall) -> Answer
    /// Bytes the socket takes before it is full; nil: any number.
    private var room: Int?
    private(set) var written: [UInt8] = []
    /// `send` calls that wrote something.
    private(set) var writes = 0
    private(set) var dispatched: [VarlinkCall] = []
    /// The reply slots of the parked calls, in the order they were parked.
    private(set) var parkedSlots: [Int] = []
    private(set) var reading = true
    private(set) var watchingWritable = false
    private(set) var watchWritableActions = 0
    private(set) var shutDown = false
    private(set) var closed = false
    private(set) var releasedInput = 0
    /// The unfinished input as the server's budget counts it.
    private(set) var bufferedInput = 0
    private(set) var largeOutputs = 0
    private(set) var logged: [String] = []
    private var commitCount = 0
    private var durableThrough = 0
    private var waiting: [(slot: Int, through: Int)] = []

    init(room: Int? = nil, service: @escaping (VarlinkCall) -> Answer) {
        self.room = room
        self.service = service
    }

    func receive(_ bytes: [UInt8]) { run(state.received(bytes[...])) }

    /// The client sent no more; `hungUp`: it closed its end altogether.
    func receiveEnd(hungUp: Bool = false) { run(state.receivedEnd(peerHungUp: hungUp)) }

    /// The group commit's flush of every change so far ends with `durability`.
    func flush(_ durability: Durability = .onDisk) {
        durableThrough = commitCount
        let ready = waiting
        waiting = []
        for entry in ready { run(state.settled(entry.slot, durability)) }
    }

    /// The engine answers the parked call of `slot`.
    func answerParked(_ slot: Int, _ reply: VarlinkReply) { run(state.filled(slot, with: reply)) }

    /// The client read: the socket takes `bytes` more, and says so when watched.
    func makeRoom(_ bytes: Int) {
        room = (room ?? 0) + bytes
        if watchingWritable { run(state.writable()) }
    }

    /// The server's limits close the connection.
    func close() { run(state.close()) }

    /// The replies written since the last call, as the client reads them.
    func replies() throws -> [VarlinkReply] {
        let messages = written.split(separator: 0, omittingEmptySubsequences: false)
        let whole = messages.dropLast()  // after the last NUL: empty, or a reply not yet whole
        let consumed = whole.reduce(0) { $0 + $1.count + 1 }
        defer { written.removeFirst(consumed) }
        return try whole.map { try VarlinkReply(bytes: Array($0)) }
    }

    private func run(_ actions: [ConnectionState.Action]) {
        for action in actions {
            guard !closed else { return }
            switch action {
            case .dispatch(let call, let slot):
                dispatched.append(call)
                switch service(call) {
                case .reply(let reply, let changes):
                    if changes { commitCount += 1 }
                    if let slot { run(state.answered(slot, with: reply, acknowledgesChange: changes)) }
                case .park: if let slot { parkedSlots.append(slot) }
                case .nothing: if let slot { run(state.answered(slot, with: nil, acknowledgesChange: false)) }
                }
            case .callsDispatched: run(state.callsDispatched())
            case .awaitDurability(let slot):
                if commitCount <= durableThrough {
                    run(state.settled(slot, .onDisk))
                } else {
                    waiting.append((slot, commitCount))
                }
            case .write: write()
            case .watchWritable:
                watchWritableActions += 1
                watchingWritable = true
            case .unwatchWritable: watchingWritable = false
            case .stopReading: reading = false
            case .shutdownWrite: shutDown = true
            case .close(let released):
                closed = true
                reading = false
                releasedInput = released
            case .inputChanged(let delta): bufferedInput += delta
            case .largeOutputWritten: largeOutputs += 1
            case .log(_, let message): logged.append(message)
            }
        }
    }

    private func write() {
        while !state.unsent.isEmpty {
            let count = min(state.unsent.count, room ?? .max)
            guard count > 0 else { return run(state.sendBlocked()) }
            written += state.unsent.prefix(count)
            writes += 1
            if room != nil { room! -= count }
            run(state.sent(count))
        }
    }
}

/// `text` as the client sends a message: its UTF-8 bytes and a NUL.
func frame(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }

/// A call of `io.reminderd.Reminders.<method>` as the client sends it (`bytes` ends with the NUL).
func call(_ method: String, oneway: Bool = false) -> [UInt8] {
    VarlinkCall(method: "io.reminderd.Reminders.\(method)", oneway: oneway).bytes
}

/// The reply a scripted service gives to `method`.
func reply(_ method: String) -> VarlinkReply { .success(["method": .string(method)]) }

/// A service that answers each method with `reply(method)`: `Add` changes something, `SyncWait`
/// is parked, `Notify` gives nothing.
func scriptedService(_ call: VarlinkCall) -> EmbeddedConnection.Answer {
    let method = String(call.method.split(separator: ".").last ?? "")
    switch method {
    case "Add": return .reply(reply(method), changes: true)
    case "SyncWait": return .park
    case "Notify": return .nothing
    default: return .reply(reply(method), changes: false)
    }
}
