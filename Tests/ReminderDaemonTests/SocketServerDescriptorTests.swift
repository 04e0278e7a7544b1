import Dispatch
import Foundation
import Glibc
import Logging
import ReminderStore
import Testing

@testable import ReminderDaemon

/// A stopped server gives back every descriptor it opened: the listening socket and its epoll set
/// (the epoll set was never closed, one leaked per server, and the listening socket was closed
/// while its Dispatch source could still be watching it).
@Suite struct SocketServerDescriptorTests {
    /// Nothing to wait for: every change is on disk.
    final class NothingPending: DurabilityWaiting {
        var commitCount: Int { 0 }
        func whenDurable(through count: Int, _ body: @escaping @Sendable (Durability) -> Void) { body(.onDisk) }
    }

    /// Open descriptors that are epoll sets (other suites run at the same
    /// time, so the test compares a count far larger than anything they hold).
    static func epollSets() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            var target = [CChar](repeating: 0, count: 256)
            let length = readlink("/proc/self/fd/\(name)", &target, target.count - 1)
            if length > 0, String(decoding: target.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "anon_inode:[eventpoll]" {
                count += 1
            }
        }
        return count
    }

    func startAndStop(count: Int, started: Bool) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reminderd-fds-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        for round in 0..<count {
            let path = directory.appendingPathComponent("socket-\(round)").path
            let server = try SocketServer(
                listenFD: nil, path: path, queue: DispatchQueue(label: "test.socket"), store: NothingPending(),
                version: "test", handler: { _, _, _ in nil }, logger: Logger(label: "test"))
            if started { server.start() }
            server.stop(timeout: .seconds(1))
            #expect(!FileManager.default.fileExists(atPath: path), "round \(round): the socket file stays")
        }
    }

    @Test(arguments: [true, false]) func aStoppedServerClosesItsEpollSet(started: Bool) throws {
        let before = Self.epollSets()
        try startAndStop(count: 40, started: started)
        // The cancellation handlers run on the server's queue after `stop` returns.
        for _ in 0..<100 where Self.epollSets() - before >= 20 { usleep(10_000) }
        #expect(Self.epollSets() - before < 20, "40 servers stopped, \(Self.epollSets() - before) epoll sets more")
    }
}
