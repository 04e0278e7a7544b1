internal import CSystemd
import Dispatch
import Glibc
import Logging
import ReminderCore
import ReminderJSON
import ReminderPlatform
import ReminderProtocol
import ReminderStore

/// The varlink server on a Unix stream socket (CONTRACT §6).
///
/// Everything here runs on one serial queue (the engine's) with non-blocking sockets and a write
/// buffer per connection, so a slow, silent or broken client never holds up another. The
/// connections sit in one epoll set of the server's own, watched by a single Dispatch source:
/// one wake-up serves every connection that is ready, where a source per connection cost two
/// thread wake-ups per request under load. The epoll set names a connection by a serial number,
/// never by its descriptor, whose number the kernel hands to the next client once it is closed.
///
/// A peer with another uid is refused; a request over 1 MiB gets a `RequestTooLarge` error; a
/// malformed one gets a varlink error and the connection is closed. Calls on one connection are
/// answered in order, each reply once the group commit settled what it shows or acknowledges.
///
/// Limits keep the daemon's own work safe from its clients: at most `connectionLimit` connections
/// (from RLIMIT_NOFILE, leaving descriptors to GLib, D-Bus and SQLite), the longest-idle one
/// closed to make room, accepting paused while none is idle or the kernel refuses descriptors;
/// and at most `maximumBufferedInput` bytes of unfinished requests over all connections.
///
/// Here: listening, accepting, the epoll set and the limits; each client's framing, reply order
/// and output are its `ConnectionState`'s, whose actions the server carries out
/// (`SocketServer+Actions.swift`) on the client's `SocketConnection`, the descriptor's shell;
/// what a call means is `VarlinkService`'s and the handler's.
///
/// Sendable, checked: what changes as it serves is in `running`, a `QueueBound` box that traps
/// when touched off `queue`, its fields read through it (`running.connections`).
public final class SocketServer: Sendable {
    /// Answers one call of `io.reminderd.Reminders`; runs on `queue`. Nil when it parked the call
    /// on its caller (`CallParking`), to answer it later.
    public typealias Handler = @Sendable (ReminderMethod, [String: JSONValue], any CallParking) -> VarlinkReply?

    /// The engine's queue: serving on it saves two thread hops per request, and every socket is
    /// non-blocking, so no client can hold it.
    let queue: DispatchQueue
    private let listenFD: Int32
    private let path: String?
    let handler: Handler
    /// Answers `org.varlink.service` and hands the rest to `handler`.
    let service: VarlinkService
    /// Its commit count says whether a call changed something, and its group commit when a
    /// reply may go out (the store).
    let store: any DurabilityWaiting
    private let logger: Logger
    /// The connections' epoll set.
    private let readyFD: Int32
    /// The most connections served at once.
    let connectionLimit: Int
    let running: QueueBound<Running>

    /// What changes as the server runs: read and written only on `queue`.
    struct Running {
        var acceptSource: DispatchSourceRead?
        var acceptPaused = false
        /// The source that says the epoll set has events.
        var readySource: DispatchSourceRead?
        var connections: [UInt64: SocketConnection] = [:]
        var nextConnectionID: UInt64 = 1
        /// What every connection reads into (they all run on `queue`, one at a time).
        var readBuffer = [UInt8](repeating: 0, count: 65_536)
        /// Bytes of unfinished requests held over all connections.
        var bufferedInput = 0
        /// Each trouble is logged once when it starts, not once per client or per wake-up.
        var loggedConnectionLimit = false
        var loggedAcceptFailure = false
        var loggedInputBudget = false
        /// A trim is queued (one for every large reply written before it runs).
        var trimQueued = false
        /// `stop` began: the epoll set is closed (or about to be, by its source's cancellation),
        /// so no connection is added to or removed from it any more — closing a connection's
        /// descriptor takes it out of the set anyway.
        var stopping = false
    }

    /// The most connections served at once, whatever the descriptor limit.
    static let maximumConnections = 512
    /// Descriptors kept free for everything but clients (GLib's D-Bus connection and wake-up
    /// descriptors, SQLite's database, WAL and shared memory, the flush's WAL descriptor,
    /// inotify, timerfd, journal): the daemon's own work must never meet EMFILE.
    static let reservedDescriptors = 32
    /// Unfinished requests held over all connections; past it the largest is dropped.
    static let maximumBufferedInput = 32 << 20

    /// Serves on `listenFD` (socket activation) or binds `path` (mode 0600).
    public init(
        listenFD: Int32?, path: String, queue: DispatchQueue, store: any DurabilityWaiting, version: String,
        handler: @escaping Handler, logger: Logger
    ) throws {
        self.queue = queue
        running = QueueBound(Running(), queue: queue)
        self.handler = handler
        service = VarlinkService(version: version)
        self.store = store
        readyFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard readyFD >= 0 else {
            throw SocketServerError.cannotListen(path: path, reason: "epoll: \(errnoDescription())")
        }
        self.logger = logger
        if let listenFD {
            self.listenFD = listenFD
            self.path = nil
        } else {
            do { self.listenFD = try SocketServer.bind(path: path) } catch {
                close(readyFD)
                throw error
            }
            self.path = path
        }
        _ = fcntl(self.listenFD, F_SETFL, fcntl(self.listenFD, F_GETFL) | O_NONBLOCK)
        connectionLimit = SocketServer.connectionLimit()
    }

    /// `maximumConnections`, or fewer when RLIMIT_NOFILE leaves less room beside the descriptors
    /// open now and the reserve.
    static func connectionLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max
        else { return maximumConnections }
        return max(1, min(maximumConnections, Int(limit.rlim_cur) - openDescriptorCount() - reservedDescriptors))
    }

    /// How many descriptors the process has open (the entries of /proc/self/fd).
    static func openDescriptorCount() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            if entry.pointee.d_name.0 != UInt8(ascii: ".") { count += 1 }
        }
        return count - 1  // the directory's own descriptor
    }

    /// Starts accepting and serving; called off `queue` (its sources are kept on it).
    public func start() {
        queue.sync {
            let source = DispatchSource.makeReadSource(fileDescriptor: listenFD, queue: queue)
            source.setEventHandler { [weak self] in self?.acceptAll() }
            // Dispatch may still watch a descriptor until the cancellation handler runs: closed
            // there, never before, and never twice (`stop` closes only what no source holds).
            source.setCancelHandler { [listenFD] in close(listenFD) }
            running.acceptSource = source
            source.activate()
            let ready = DispatchSource.makeReadSource(fileDescriptor: readyFD, queue: queue)
            ready.setEventHandler { [weak self] in self?.serveReady() }
            ready.setCancelHandler { [readyFD] in close(readyFD) }
            running.readySource = ready
            ready.activate()
        }
    }

    /// Reads from every connection with data waiting (level-triggered: what one pass leaves is
    /// reported again).
    private func serveReady() {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        let count = epoll_wait(readyFD, &events, Int32(events.count), 0)
        for event in events.prefix(Int(max(count, 0))) {
            guard let connection = running.connections[event.data.u64] else { continue }
            run(connection.read(into: &running.readBuffer), on: connection)
        }
    }

    /// A connection wrote `ConnectionState.largeOutput` bytes or more: malloc's free pages go
    /// back to the kernel once the call that built them has returned and the reply's tree and
    /// bytes are freed (queued behind it, a few milliseconds at most; never while idle).
    func largeOutputWritten() {
        guard !running.trimQueued else { return }
        running.trimQueued = true
        queue.async { [weak self] in
            self?.running.trimQueued = false
            MallocTuning.trim()
        }
    }

    /// Adds or removes a connection's descriptor from the epoll set.
    func watch(_ connection: SocketConnection, _ on: Bool) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !running.stopping else { return }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
        event.data.u64 = connection.id
        _ = epoll_ctl(readyFD, on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, connection.fd, &event)
    }

    /// Stops listening and reading, waits up to `timeout` for the replies of calls already
    /// made to settle and go out (a change stored but waiting for its flush must not end in a
    /// hang-up, which a client reads as "not done" and retries), then closes every connection
    /// and removes the socket file it created.
    public func stop(timeout: DispatchTimeInterval) {
        let settled = DispatchSemaphore(value: 0)
        queue.sync {
            // A suspended source must be resumed before it goes. Each source's cancellation
            // closes its descriptor; a server never started closes them here.
            resumeAccepting()
            running.stopping = true
            if let source = running.acceptSource { source.cancel() } else { close(listenFD) }
            running.acceptSource = nil
            if let source = running.readySource { source.cancel() } else { close(readyFD) }
            running.readySource = nil
            // Registered after every waiting reply, so it runs after they were written.
            store.whenDurable(through: store.commitCount) { _ in settled.signal() }
        }
        _ = settled.wait(timeout: .now() + timeout)
        queue.sync {
            for connection in Array(running.connections.values) { disconnect(connection) }
            running.connections.removeAll()
            if let path { unlink(path) }
        }
    }

    static func bind(path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketServerError.cannotListen(path: path, reason: errnoDescription()) }
        guard let address = UnixSocketAddress(path: path) else {
            close(fd)
            throw SocketServerError.cannotListen(path: path, reason: "path too long for a Unix socket")
        }
        // The runtime directory may not exist outside a login session (no XDG_RUNTIME_DIR).
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            do { try makePrivateDirectories(String(path[..<slash])) } catch {
                close(fd)
                throw SocketServerError.cannotListen(path: path, reason: error.description)
            }
        }
        // A socket file left by a daemon that died is replaced; a live one is not, and anything
        // else there (a typo in socketPath naming someone's file) is never deleted.
        if let other = SocketServer.notASocket(at: path) {
            close(fd)
            throw SocketServerError.cannotListen(
                path: path, reason: "\(other) is there, not a socket; reminderd replaces only a socket a stopped reminderd left")
        }
        if (try? VarlinkClient(path: path, timeoutSeconds: 1)) != nil {
            close(fd)
            throw SocketServerError.cannotListen(path: path, reason: "another reminderd is listening there")
        }
        unlink(path)
        // Linux gives the socket file the socket's own mode (less the umask), so it is 0600 from
        // the moment it exists; not by umask, which is the whole process's (another thread
        // creating a file meanwhile would get 0600 or leave the mask changed).
        _ = fchmod(fd, 0o600)
        let bound = address.withSocketAddress { Glibc.bind(fd, $0, $1) }
        guard bound == 0, listen(fd, 128) == 0 else {
            let reason = errnoDescription()
            close(fd)
            throw SocketServerError.cannotListen(path: path, reason: reason)
        }
        chmod(path, 0o600)
        return fd
    }

    /// What is at `path` when it is something other than a socket ("a regular file", "a
    /// directory", …); nil for a socket or nothing. `lstat`: a symbolic link is named as one,
    /// never followed to what it points at.
    static func notASocket(at path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFSOCK: return nil
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a directory"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a named pipe"
        default: return "a device or other special file"
        }
    }

    private func acceptAll() {
        while true {
            if running.connections.count >= connectionLimit && !closeLongestIdle() {
                // Every connection is busy: the next waits in the listen backlog until one closes.
                pauseAccepting()
                return
            }
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EAGAIN, EWOULDBLOCK: return
                default:
                    // EMFILE, ENFILE, ENOBUFS: the pending client stays readable, so retrying now
                    // would spin. Wait for a connection to close or a second to pass.
                    if !running.loggedAcceptFailure {
                        running.loggedAcceptFailure = true
                        logger.error(
                            "cannot accept clients: \(errnoDescription()); pausing new connections, serving the \(running.connections.count) open ones"
                        )
                    }
                    pauseAccepting()
                    queue.asyncAfter(deadline: .now() + 1) { [weak self] in self?.resumeAccepting() }
                    return
                }
            }
            if running.loggedAcceptFailure {
                running.loggedAcceptFailure = false
                logger.info("accepting clients again")
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var credentials = PeerCredentials()
            var length = socklen_t(MemoryLayout<PeerCredentials>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, credentials.uid == getuid()
            else {
                logger.warning(
                    "refused a client of another user",
                    metadata: ["PEER_UID": "\(credentials.uid)", "PEER_PID": "\(credentials.pid)"])
                close(fd)
                continue
            }
            let connection = SocketConnection(id: running.nextConnectionID, fd: fd)
            running.nextConnectionID += 1
            running.connections[connection.id] = connection
            watch(connection, true)
        }
    }

    /// Closes the connection that has waited longest without a call in progress; false when
    /// every connection is busy.
    private func closeLongestIdle() -> Bool {
        guard
            let idle = running.connections.values.filter(\.state.isIdle).min(by: { $0.state.lastActive < $1.state.lastActive })
        else {
            return false
        }
        if !running.loggedConnectionLimit {
            running.loggedConnectionLimit = true
            logger.warning(
                "\(connectionLimit) clients connected, the most served at once (RLIMIT_NOFILE); closing the longest-idle connections to serve new ones"
            )
        }
        disconnect(idle)
        return true
    }

    private func pauseAccepting() {
        guard !running.acceptPaused, let acceptSource = running.acceptSource else { return }
        running.acceptPaused = true
        acceptSource.suspend()
    }

    private func resumeAccepting() {
        guard running.acceptPaused, let acceptSource = running.acceptSource else { return }
        running.acceptPaused = false
        acceptSource.resume()
    }

    /// A connection's unfinished input changed by `delta` bytes: past the budget, the connections
    /// holding the most are dropped until it fits.
    func inputChanged(by delta: Int) {
        running.bufferedInput += delta
        if running.bufferedInput <= SocketServer.maximumBufferedInput / 2 { running.loggedInputBudget = false }
        while running.bufferedInput > SocketServer.maximumBufferedInput,
            let largest = running.connections.values.max(by: { $0.state.bufferedInput < $1.state.bufferedInput })
        {
            if !running.loggedInputBudget {
                running.loggedInputBudget = true
                logger.warning(
                    "clients hold over \(SocketServer.maximumBufferedInput >> 20) MiB of unfinished requests; dropping those that hold the most"
                )
            }
            disconnect(largest)
        }
    }

    /// `connection` closed: its input leaves the budget and its place can go to a new client.
    func closed(_ connection: SocketConnection, releasedInput: Int) {
        running.connections[connection.id] = nil
        running.bufferedInput -= releasedInput
        // Said again only after the crowd has thinned out, not after each connection it closed.
        if running.connections.count <= connectionLimit / 2 { running.loggedConnectionLimit = false }
        resumeAccepting()
    }

    var log: Logger { logger }
}

/// Linux's `struct ucred` (the Glibc module hides it behind _GNU_SOURCE).
private struct PeerCredentials {
    var pid: pid_t = 0
    var uid: uid_t = 0
    var gid: gid_t = 0
}

public enum SocketServerError: Error, CustomStringConvertible {
    case cannotListen(path: String, reason: String)
    public var description: String {
        switch self {
        case .cannotListen(let path, let reason): return "cannot listen on \(path): \(reason)"
        }
    }
}
