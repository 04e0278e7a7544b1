import Foundation
import ReminderCore
import ReminderJSON
import Testing

@testable import CalDAV

@Suite struct PasswordTests {
    func settings(_ source: PasswordSource) -> SyncSettings {
        SyncSettings(url: "https://dav.example.org/alice/", username: "alice", password: source)
    }

    func temporaryFile(_ contents: String, mode: mode_t) throws -> String {
        let path = NSTemporaryDirectory() + "reminderd-password-\(UUID().uuidString)"
        try contents.write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, mode)
        return path
    }

    @Test func commandRunsThroughTheShellAndGivesItsFirstLine() throws {
        let password = try PasswordLookup.password(for: settings(.command("printf 'p4ss w0rd\\nsecond\\n' | cat")))
        #expect(password == "p4ss w0rd")
    }

    @Test func aFailingCommandIsNamedWithItsStatusAndMessage() {
        #expect(
            throws: PasswordError(
                description: "sync.passwordCommand `echo locked >&2; exit 3` failed with exit status 3: locked")
        ) {
            try PasswordLookup.password(for: settings(.command("echo locked >&2; exit 3")))
        }
    }

    @Test func aCommandPrintingNothingIsNamed() {
        #expect(throws: PasswordError(description: "sync.passwordCommand `true` printed no password")) {
            try PasswordLookup.password(for: settings(.command("true")))
        }
    }

    @Test func aFileOthersCanReadIsRefusedWithTheChmod() throws {
        let path = try temporaryFile("secret\n", mode: 0o644)
        defer { unlink(path) }
        #expect(
            throws: PasswordError(
                description:
                    "sync.passwordFile \(path) has mode 0644; it must be readable by you alone: chmod 600 \(path)")
        ) {
            try PasswordLookup.password(for: settings(.file(path)))
        }
    }

    @Test func anOwnerOnlyFileGivesItsFirstLine() throws {
        let path = try temporaryFile("secret\r\n", mode: 0o600)
        defer { unlink(path) }
        #expect(try PasswordLookup.password(for: settings(.file(path))) == "secret")
    }

    @Test func aMissingFileIsNamed() {
        #expect(throws: PasswordError(description: "sync.passwordFile /nonexistent/pw: No such file or directory")) {
            try PasswordLookup.password(for: settings(.file("/nonexistent/pw")))
        }
    }

    @Test func settingsReadTheConfigObject() throws {
        let value = JSONValue.object([
            "url": .string("https://dav.example.org/alice/"), "username": .string("alice"),
            "passwordCommand": .string("secret-tool lookup service reminderd"),
        ])
        let read = try SyncSettings(value)
        #expect(read.password == .command("secret-tool lookup service reminderd"))
        #expect(read.calendar == "reminderd")
        let neither = try SyncSettings(.object(["url": .string("http://127.0.0.1:5232/"), "username": .string("a")]))
        #expect(neither.password == .secretService)
    }

    @Test func settingsRefuseTwoSourcesAndUnknownFields() {
        #expect(
            throws: FieldError.invalidValue(
                field: "sync", reason: "has both passwordCommand and passwordFile; keep one")
        ) {
            try SyncSettings(
                .object([
                    "url": .string("https://d/"), "username": .string("a"), "passwordCommand": .string("x"),
                    "passwordFile": .string("/p"),
                ]))
        }
        #expect(throws: FieldError.unknownField(field: "sync.pasword")) {
            try SyncSettings(
                .object(["url": .string("https://d/"), "username": .string("a"), "pasword": .string("x")]))
        }
        #expect(
            throws: FieldError.invalidValue(
                field: "sync.url",
                reason: #""dav.example.org" must be an http(s) address such as https://dav.example.org/alice/"#)
        ) {
            try SyncSettings(.object(["url": .string("dav.example.org"), "username": .string("a")]))
        }
    }
}

extension PasswordTests {
    /// Regression: a command spawned from a Dispatch worker (which blocks all signals) inherited
    /// that mask, so it could not be stopped with SIGTERM.
    @Test func theCommandStartsWithNoSignalBlocked() throws {
        let mask = try PasswordLookup.password(for: settings(.command("grep SigBlk /proc/self/status | tr -d '\\t'")))
        #expect(mask == "SigBlk:0000000000000000")
    }
}
