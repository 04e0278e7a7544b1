import CalDAV
import Foundation
import Synchronization
import Testing

/// The CalDAV servers the tests run, from the tests' venv (`REMINDERD_TEST_VENV`, which
/// scripts/test.sh exports, else the package's `.build-venv`).
enum ServerKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case radicale
    case xandikos

    var testDescription: String { rawValue }
}

/// A process the test started on 127.0.0.1 with a throwaway folder; `stop()` ends it by its PID
/// and removes the folder. Starting fails the test (never skips it) when the program is missing
/// or does not come up.
final class TestServer {
    let kind: String
    let port: Int
    let folder: URL
    private let process: Process
    private let log: URL

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let venv =
        ProcessInfo.processInfo.environment["REMINDERD_TEST_VENV"]
        ?? packageRoot.appendingPathComponent(".build-venv").path
    static let username = "alice"
    static let password = "correct horse"

    var origin: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    private init(kind: String, port: Int, folder: URL, process: Process, log: URL) {
        self.kind = kind
        self.port = port
        self.folder = folder
        self.process = process
        self.log = log
    }

    /// Radicale with htpasswd users (alice), or Xandikos (no authentication on plain HTTP) with
    /// its default principal /user/ and calendar home /user/calendars/.
    static func start(_ kind: ServerKind) throws -> TestServer {
        let folder = try temporaryFolder(kind.rawValue)
        let port = try freePort()
        switch kind {
        case .radicale:
            let users = folder.appendingPathComponent("users")
            try "\(username):\(password)\n".write(to: users, atomically: true, encoding: .utf8)
            let config = folder.appendingPathComponent("config")
            try """
            [server]
            hosts = 127.0.0.1:\(port)
            [auth]
            type = htpasswd
            htpasswd_filename = \(users.path)
            htpasswd_encryption = plain
            [storage]
            filesystem_folder = \(folder.appendingPathComponent("collections").path)
            [rights]
            type = owner_only
            [logging]
            level = warning
            """.write(to: config, atomically: true, encoding: .utf8)
            return try launch("radicale", ["radicale", "--config", config.path], port: port, folder: folder)
        case .xandikos:
            let arguments = [
                "xandikos", "serve", "-d", folder.appendingPathComponent("data").path, "--defaults", "-l", "127.0.0.1",
                "-p", String(port), "--no-detect-systemd", "--state-dir", folder.appendingPathComponent("state").path,
            ]
            return try launch("xandikos", arguments, port: port, folder: folder)
        }
    }

    /// Runs a program of the venv (`arguments[0]`), or its Python with a script, and waits until
    /// `port` accepts connections.
    static func launch(_ kind: String, _ arguments: [String], port: Int, folder: URL) throws -> TestServer {
        let program = "\(venv)/bin/\(arguments[0])"
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw ServerStartError(
                "\(program) is missing: create the venv with scripts/test.sh's pip line (or set REMINDERD_TEST_VENV)")
        }
        let log = folder.appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = Array(arguments.dropFirst())
        process.environment = ["HOME": folder.path, "PATH": "\(venv)/bin:/usr/bin:/bin", "XDG_DATA_HOME": folder.path]
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let server = TestServer(kind: kind, port: port, folder: folder, process: process, log: log)
        try server.waitUntilListening()
        return server
    }

    func waitUntilListening() throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            guard process.isRunning else {
                throw ServerStartError("\(kind) exited at start (status \(process.terminationStatus)): \(logText)")
            }
            // Ours, not another program that took the port first: a server that could not bind
            // exits at once, so it must still run a moment after the port answered.
            if Self.accepts(port) {
                usleep(200_000)
                guard process.isRunning else { continue }
                return
            }
            usleep(50_000)
        }
        stop()
        throw ServerStartError("\(kind) did not listen on 127.0.0.1:\(port) within 30 s: \(logText)")
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "(no log)" }

    /// SIGKILL, because a child of a Dispatch worker thread inherits its blocked signals
    /// (SIGTERM included) from Foundation's Process; the folder is thrown away anyway.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    static func temporaryFolder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "reminderd-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A port the kernel just handed out and took back; the server binds it a moment later.
    /// Ports handed out in this run. The kernel may give a port just closed to the next
    /// `bind(0)`: two tests starting servers at once then got one port, the second server could
    /// not bind, and both tests talked to the first (a PUT to a fresh task list answered 412,
    /// the other test's item being there).
    private static let handedOut = Mutex<Set<Int>>([])

    /// A port free now on 127.0.0.1 and never handed to another test of this run.
    static func freePort() throws -> Int {
        for _ in 0..<100 {
            let port = try anyFreePort()
            if handedOut.withLock({ $0.insert(port).inserted }) { return port }
        }
        throw ServerStartError("no port on 127.0.0.1 that this run has not handed out already")
    }

    private static func anyFreePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw ServerStartError("no free port on 127.0.0.1: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

struct ServerStartError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
