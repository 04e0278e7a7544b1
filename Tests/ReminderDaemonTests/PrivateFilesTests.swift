import Dispatch
import Foundation
import Glibc
import ReminderStore
import Testing

@testable import ReminderDaemon

/// The socket and the database are created private without touching the process's umask: the
/// daemon set it around each (0177, 0077) and put back what it had read, so two threads doing so
/// at once could leave the mask changed for every file the process made afterwards.
@Suite struct PrivateFilesTests {
    /// The process's umask, read without setting it (`umask(2)` can only set).
    static func processMask() -> String? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return status.split(separator: "\n").first { $0.hasPrefix("Umask:") }.map(String.init)
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    /// A store path that is a link to a file not made yet (a dotfiles setup): the file made is
    /// private too.
    @Test func aStoreMadeThroughALinkIsPrivate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reminderd-link-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("elsewhere.sqlite").path
        let link = directory.appendingPathComponent("reminderd.sqlite").path
        #expect(symlink(target, link) == 0)
        let store = try ReminderStore(path: link)
        for file in [target, target + "-wal", target + "-shm"] {
            #expect(Self.mode(file) == 0o600, "\(file) is \(String(Self.mode(file), radix: 8))")
        }
        withExtendedLifetime(store) {}
    }

    @Test func socketsAndStoresMadeOnManyThreadsAreSolelyTheUsersAndLeaveTheMaskAlone() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reminderd-mask-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = Self.processMask()
        #expect(before != nil)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<200 {
                let path = directory.appendingPathComponent("s-\(worker)-\(round)").path
                guard let fd = try? SocketServer.bind(path: path) else {
                    Issue.record("could not bind \(path)")
                    return
                }
                close(fd)
                if round % 40 == 0 {
                    let storePath = directory.appendingPathComponent("db-\(worker)-\(round).sqlite").path
                    let store = try? ReminderStore(path: storePath)
                    #expect(store != nil)
                    for file in [storePath, storePath + "-wal", storePath + "-shm"] {
                        #expect(Self.mode(file) == 0o600, "\(file) is \(String(Self.mode(file), radix: 8))")
                    }
                    withExtendedLifetime(store) {}
                }
            }
        }
        #expect(Self.processMask() == before)
        let sockets = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("s-") }
        #expect(sockets.count == 1_600)
        for name in sockets {
            let mode = Self.mode(directory.appendingPathComponent(name).path)
            #expect(mode == 0o600, "\(name) is \(String(mode, radix: 8))")
        }
    }
}
