import ReminderPlatform

#if canImport(Glibc)
    import Glibc
#endif

/// The baseline for request latency: a Unix-socket server that writes back every byte it reads,
/// serving all its connections from one thread with poll(2) — as reminderd serves its socket
/// from one queue — so the difference is what reminderd does with a request.
enum EchoServer {
    static func run(path: String) -> Never {
        unlink(path)
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard let address = UnixSocketAddress(path: path) else { fatal("\(path): too long for a Unix socket") }
        let bound = address.withSocketAddress { bind(listener, $0, $1) }
        guard bound == 0, listen(listener, 128) == 0 else { fatal("cannot listen on \(path)") }
        var polled = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            guard poll(&polled, nfds_t(polled.count), -1) > 0 else { continue }
            var closed: Set<Int32> = []
            for entry in polled where entry.revents != 0 {
                if entry.fd == listener {
                    let client = accept(listener, nil, nil)
                    if client >= 0 { polled.append(pollfd(fd: client, events: Int16(POLLIN), revents: 0)) }
                    continue
                }
                let count = read(entry.fd, &buffer, buffer.count)
                guard count > 0 else {
                    close(entry.fd)
                    closed.insert(entry.fd)
                    continue
                }
                var offset = 0
                while offset < count {
                    let written = buffer[offset..<count].withUnsafeBytes { write(entry.fd, $0.baseAddress, $0.count) }
                    guard written > 0 else { break }
                    offset += written
                }
            }
            polled.removeAll { closed.contains($0.fd) }
            for index in polled.indices { polled[index].revents = 0 }
        }
    }
}

/// Writes `message` to stderr.
func report(_ message: String) {
    var line = "reminder-load: \(message)\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// Writes `message` to stderr and exits 1.
func fatal(_ message: String) -> Never {
    report(message)
    exit(1)
}
