import CalDAV
import Foundation
import ReminderCore
import Testing

/// The default password source against a real Secret Service: gnome-keyring-daemon on a private
/// D-Bus bus, the password stored with secret-tool as the error message tells users to.
///
/// libsecret finds the bus through DBUS_SESSION_BUS_ADDRESS, which this test sets for the whole
/// test process; no other test uses the session bus. It is one test so that the lookups happen
/// in order on that bus.
@Suite struct SecretServiceTests {
    @Test func theSecretServiceEntryIsFoundAndAMissingOneNamed() throws {
        let folder = try TestServer.temporaryFolder("keyring")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bus = folder.appendingPathComponent("bus").path
        let config = folder.appendingPathComponent("bus.conf")
        // A bus that activates nothing: the keyring runs only because the test starts it.
        try """
        <busconfig><type>session</type><listen>unix:path=\(bus)</listen>
        <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>
        <allow own="*"/></policy></busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)
        let runtime = folder.appendingPathComponent("run")
        try FileManager.default.createDirectory(
            at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let environment = [
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(bus)", "HOME": folder.path, "XDG_RUNTIME_DIR": runtime.path,
            "XDG_DATA_HOME": folder.appendingPathComponent("data").path, "PATH": "/usr/bin:/bin",
        ]
        let daemon = try start("/usr/bin/dbus-daemon", ["--nofork", "--config-file=\(config.path)"], environment)
        defer { stop(daemon) }
        try waitFor("the private bus at \(bus)") { FileManager.default.fileExists(atPath: bus) }
        let keyring = try start(
            "/usr/bin/gnome-keyring-daemon", ["--foreground", "--components=secrets", "--unlock"], environment,
            input: "keyring password")
        defer { stop(keyring) }
        try waitFor("secret-tool store on gnome-keyring-daemon") {
            run(
                "/usr/bin/secret-tool",
                ["store", "--label=reminderd sync", "service", "reminderd", "username", "alice"],
                environment, input: "hunter 2 ✓") == 0
        }

        setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=\(bus)", 1)
        func settings(_ username: String) -> SyncSettings {
            SyncSettings(url: "https://dav.example.org/", username: username, password: .secretService)
        }
        #expect(try PasswordLookup.password(for: settings("alice")) == "hunter 2 ✓")
        #expect {
            try PasswordLookup.password(for: settings("bob"))
        } throws: { error in
            (error as? PasswordError)?.description
                == "the Secret Service has no password for service reminderd, username bob; store it with: "
                + "secret-tool store --label='reminderd sync' service reminderd username bob"
        }
    }

    func start(_ program: String, _ arguments: [String], _ environment: [String: String], input: String? = nil) throws
        -> Process
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : pipe
        try process.run()
        if let input {
            pipe.fileHandleForWriting.write(Data(input.utf8))
            try pipe.fileHandleForWriting.close()
        }
        return process
    }

    func run(_ program: String, _ arguments: [String], _ environment: [String: String], input: String) -> Int32 {
        guard let process = try? start(program, arguments, environment, input: input) else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// By PID, with SIGKILL (children of Dispatch workers inherit blocked signals).
    func stop(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func waitFor(_ what: String, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(20)
        while !condition() {
            guard Date() < deadline else { throw ServerStartError("\(what) not ready within 20 s") }
            usleep(50_000)
        }
    }
}
