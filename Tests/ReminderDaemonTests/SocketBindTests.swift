import Foundation
import Glibc
import Testing

@testable import ReminderDaemon

/// Where the socket goes: a socket left by a stopped daemon is replaced; a file that is not a
/// socket (a typo in `socketPath`) is refused with what is there and left as it was (issue 19,
/// defect 3: it was unlinked and the socket bound in its place).
@Suite struct SocketBindTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reminderd-bind-\(UUID().uuidString)")

    @Test func aRegularFileAtTheSocketPathIsRefusedAndKept() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("notes.txt").path
        try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try SocketServer.bind(path: path)
        } throws: { error in
            "\(error)" == "cannot listen on \(path): a regular file is there, not a socket; "
                + "reminderd replaces only a socket a stopped reminderd left"
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("my notes\n".utf8))
    }

    @Test func aDirectoryAtTheSocketPathIsRefused() throws {
        let path = directory.appendingPathComponent("sock").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(throws: SocketServerError.self) { _ = try SocketServer.bind(path: path) }
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test func aStaleSocketIsReplaced() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("socket").path
        close(try SocketServer.bind(path: path))  // a daemon that died: its socket file stays
        #expect(SocketServer.notASocket(at: path) == nil && FileManager.default.fileExists(atPath: path))
        let fd = try SocketServer.bind(path: path)
        close(fd)
        unlink(path)
    }
}
