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

    /// Open descriptors that are epoll sets.
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

    /// In a process of its own (an exit test), where no other suite opens descriptors meanwhile, so
    /// the count after 40 servers is exactly the count before. Dispatch makes an epoll set of its
    /// own at the first source it hears from: a pipe's source, heard before counting.
    @Test func aStoppedServerClosesItsEpollSet() async {
        await #expect(processExitsWith: .success) {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0, write(ends[1], "x", 1) == 1 else { exit(EXIT_FAILURE) }
            let heard = DispatchSemaphore(value: 0)
            let source = DispatchSource.makeReadSource(fileDescriptor: ends[0], queue: DispatchQueue(label: "test.pipe"))
            source.setEventHandler { heard.signal() }
            source.activate()
            heard.wait()
            source.cancel()
            for started in [true, false] {
                let before = SocketServerDescriptorTests.epollSets()
                try SocketServerDescriptorTests().startAndStop(count: 40, started: started)
                // The cancellation handlers run on the server's queue after `stop` returns.
                for _ in 0..<100 where SocketServerDescriptorTests.epollSets() != before { usleep(10_000) }
                let more = SocketServerDescriptorTests.epollSets() - before
                guard more == 0 else {
                    FileHandle.standardError.write(Data("40 servers \(started ? "started and " : "")stopped: \(more) epoll sets more\n".utf8))
                    exit(EXIT_FAILURE)
                }
            }
        }
    }
}
