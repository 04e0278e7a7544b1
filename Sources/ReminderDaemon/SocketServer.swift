internal import CSystemd
import Dispatch
import Glibc
import Logging
import ReminderCore
import ReminderPlatform
import ReminderProtocol

/// The varlink server on a Unix stream socket (SPEC §6).
///
/// Everything here runs on one serial queue (the engine's) with non-blocking sockets and a write
/// buffer per connection, so a slow, silent or broken client never holds up another. The
/// connections sit in one epoll set of the server's own, watched by a single Dispatch source:
/// one wake-up serves every connection that is ready, where a source per connection cost two
/// thread wake-ups per request under load.
/// A peer with another uid is refused; a message over 1 MiB closes its connection; a malformed
/// one gets a varlink error. Calls on one connection are answered in order, one at a time.
public final class SocketServer: @unchecked Sendable {  // all mutable state is confined to `queue`
    /// Answers one call; runs on `queue`.
    public typealias Handler = @Sendable (VarlinkCall) -> VarlinkReply

    /// The engine's queue: serving on it saves two thread hops per request, and every socket is
    /// non-blocking, so no client can hold it.
    let queue: DispatchQueue
    private let listenFD: Int32
    private let path: String?
    private let handler: Handler
    /// Runs its argument once the changes answered so far are on disk (the store's group
    /// commit), with false if they could not be made so.
    private let afterDurable: (@escaping @Sendable (Bool) -> Void) -> Void
    private let logger: Logger
    private var acceptSource: DispatchSourceRead?
    /// The connections' epoll set, and the source that says it has events.
    private let readyFD: Int32
    private var readySource: DispatchSourceRead?
    private var connections: [Int32: Connection] = [:]
    /// What every connection reads into (they all run on `queue`, one at a time).
    fileprivate var readBuffer = [UInt8](repeating: 0, count: 65_536)

    /// The most connections served at once; more wait in the listen backlog.
    static let maximumConnections = 512
    /// A connection whose unsent replies exceed this is dropped.
    static let maximumPendingOutput = 8 << 20

    /// Serves on `listenFD` (socket activation) or binds `path` (mode 0600).
    public init(
        listenFD: Int32?, path: String, queue: DispatchQueue, handler: @escaping Handler,
        afterDurable: @escaping (@escaping @Sendable (Bool) -> Void) -> Void, logger: Logger
    ) throws {
        self.queue = queue
        self.handler = handler
        self.afterDurable = afterDurable
        readyFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard readyFD >= 0 else {
            throw SocketServerError.cannotListen(path: path, reason: "epoll: \(errnoDescription())")
        }
        self.logger = logger
        if let listenFD {
            self.listenFD = listenFD
            self.path = nil
        } else {
            self.listenFD = try SocketServer.bind(path: path)
            self.path = path
        }
        _ = fcntl(self.listenFD, F_SETFL, fcntl(self.listenFD, F_GETFL) | O_NONBLOCK)
    }

    public func start() {
        let source = DispatchSource.makeReadSource(fileDescriptor: listenFD, queue: queue)
        source.setEventHandler { [weak self] in self?.acceptAll() }
        acceptSource = source
        source.activate()
        let ready = DispatchSource.makeReadSource(fileDescriptor: readyFD, queue: queue)
        ready.setEventHandler { [weak self] in self?.serveReady() }
        readySource = ready
        ready.activate()
    }

    /// Reads from every connection with data waiting (level-triggered: what one pass leaves is
    /// reported again).
    private func serveReady() {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        let count = epoll_wait(readyFD, &events, Int32(events.count), 0)
        for event in events.prefix(Int(max(count, 0))) {
            connections[Int32(truncatingIfNeeded: event.data.fd)]?.readAvailable()
        }
    }

    /// Adds or removes a connection's descriptor from the epoll set.
    fileprivate func watch(_ fd: Int32, _ on: Bool) {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
        event.data.fd = fd
        _ = epoll_ctl(readyFD, on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, fd, &event)
    }

    /// Stops listening, closes every connection and removes the socket file it created.
    public func stop() {
        queue.sync {
            acceptSource?.cancel()
            acceptSource = nil
            readySource?.cancel()
            readySource = nil
            for connection in connections.values { connection.close() }
            connections.removeAll()
            close(listenFD)
            if let path { unlink(path) }
        }
    }

    static func bind(path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketServerError.cannotListen(path: path, reason: errnoDescription()) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw SocketServerError.cannotListen(path: path, reason: "path too long for a Unix socket")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        // The runtime directory may not exist outside a login session (no XDG_RUNTIME_DIR).
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            do { try makePrivateDirectories(String(path[..<slash])) } catch {
                close(fd)
                throw SocketServerError.cannotListen(path: path, reason: error.description)
            }
        }
        // A socket file left by a daemon that died is replaced; a live one is not.
        if (try? VarlinkClient(path: path, timeoutSeconds: 1)) != nil {
            close(fd)
            throw SocketServerError.cannotListen(path: path, reason: "another reminderd is listening there")
        }
        unlink(path)
        let mask = umask(0o177)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        umask(mask)
        guard bound == 0, listen(fd, 128) == 0 else {
            let reason = errnoDescription()
            close(fd)
            throw SocketServerError.cannotListen(path: path, reason: reason)
        }
        chmod(path, 0o600)
        return fd
    }

    private func acceptAll() {
        while true {
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { logger.warning("accept failed: \(errnoDescription())") }
                return
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
            guard connections.count < SocketServer.maximumConnections else {
                logger.warning("too many clients; closing a new connection")
                close(fd)
                continue
            }
            let connection = Connection(fd: fd, server: self)
            connections[fd] = connection
            connection.start()
        }
    }

    /// Sends `connection`'s replies once what they acknowledge is on disk; if it cannot be,
    /// hangs up instead of claiming success.
    fileprivate func whenDurable(_ connection: Connection) {
        afterDurable { [weak self, connection] durable in
            if durable { return connection.flush() }
            self?.logger.error("could not make changes durable; closing a client instead of answering")
            connection.close()
        }
    }

    fileprivate func closed(_ connection: Connection) {
        connections[connection.fd] = nil
    }

    /// Answers `org.varlink.service` itself and hands the rest to the handler.
    fileprivate func dispatch(_ call: VarlinkCall) -> VarlinkReply {
        let service = ReminderInterface.Service.self
        switch call.method {
        case "\(service.name).GetInfo":
            return .success([
                "vendor": .string("reminderd"), "product": .string("reminderd"),
                "version": .string(ReminderDaemonVersion.current),
                "url": .string("https://github.com/reminderd/reminderd"),
                "interfaces": .array([.string(service.name), .string(ReminderInterface.name)]),
            ])
        case "\(service.name).GetInterfaceDescription":
            switch call.parameters["interface"] {
            case .string(service.name)?: return .success(["description": .string(service.description)])
            case .string(ReminderInterface.name)?:
                return .success(["description": .string(ReminderInterface.description)])
            case .string(let other)?:
                return .failure(
                    VarlinkError(name: service.interfaceNotFound, parameters: ["interface": .string(other)]))
            default:
                return .failure(
                    VarlinkError(name: service.invalidParameter, parameters: ["parameter": .string("interface")]))
            }
        default:
            let interface = call.method.split(separator: ".").dropLast().joined(separator: ".")
            guard interface == ReminderInterface.name else {
                return .failure(
                    VarlinkError(name: service.interfaceNotFound, parameters: ["interface": .string(interface)]))
            }
            return handler(call)
        }
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

/// One client: reads framed calls, answers them in order, writes without blocking.
private final class Connection: @unchecked Sendable {  // confined to the server's queue
    let fd: Int32
    private unowned let server: SocketServer
    private var framing = VarlinkFraming()
    private var writeSource: DispatchSourceWrite?
    private var output: [UInt8] = []
    private var closing = false
    private var isClosed = false

    init(fd: Int32, server: SocketServer) {
        self.fd = fd
        self.server = server
    }

    func start() { server.watch(fd, true) }

    func readAvailable() {
        guard !closing else { return }
        let count = server.readBuffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR && errno != EWOULDBLOCK) {
            close()
            return
        }
        guard count > 0 else { return }
        framing.append(server.readBuffer[0..<count])
        // Every call that arrived is answered in order, then the replies go out in one write.
        do {
            while let message = try framing.nextMessage() {
                let call: VarlinkCall
                do { call = try VarlinkCall(bytes: message) } catch {
                    // Not a call: say so, then hang up (the stream may be out of step).
                    append(
                        .failure(
                            VarlinkError(
                                name: ReminderInterface.Service.invalidParameter,
                                parameters: ["parameter": .string("message"), "reason": .string(error.description)])))
                    // Reads no more: left in the (level-triggered) set, a client that keeps
                    // sending without reading would wake the queue over and over.
                    closing = true
                    server.watch(fd, false)
                    break
                }
                let reply = server.dispatch(call)
                if !call.oneway { append(reply) }
                guard !isClosed else { return }
            }
        } catch {
            server.log.warning("closing a connection: \(error)")
            close()
            return
        }
        server.whenDurable(self)
    }

    private func append(_ reply: VarlinkReply) {
        guard !isClosed else { return }
        output += reply.bytes
        if output.count > SocketServer.maximumPendingOutput {
            server.log.warning("dropping a client that does not read its replies")
            close()
        }
    }

    /// Writes what it can of the replies now, and the rest when the socket has room.
    func flush() {
        while !output.isEmpty {
            let written = output.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                output.removeFirst(written)
                continue
            }
            if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                if writeSource == nil {
                    let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: server.queue)
                    source.setEventHandler { [self] in flush() }
                    writeSource = source
                    source.activate()
                }
                return
            }
            close()
            return
        }
        writeSource?.cancel()
        writeSource = nil
        if closing { close() }
    }

    /// Leaves the epoll set; the descriptor is closed once Dispatch has let go of it (when it
    /// was waiting to write).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        server.watch(fd, false)
        let fd = self.fd
        if let writeSource {
            writeSource.setCancelHandler { Glibc.close(fd) }
            writeSource.cancel()
        } else {
            Glibc.close(fd)
        }
        writeSource = nil
        server.closed(self)
    }
}
