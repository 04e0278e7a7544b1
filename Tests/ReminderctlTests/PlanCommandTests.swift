import Foundation
import Testing

/// `reminderctl plan` as a user runs it: the real binary, real files, exit codes and output.
@Suite struct PlanCommandTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "reminderctl-plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    let config =
        #"{"timeZone": "America/New_York", "reminderTime": "09:00", "leadTimes": ["7d", "1d"], "quietHours": {"start": "22:00", "end": "08:00"}}"#

    @Test func jsonOutputIsTheDocumentedArray() throws {
        let configPath = try write("config.json", config)
        let items = try write(
            "items.json",
            #"""
            [{"id": "bogo", "kind": "coupon", "title": "BOGO", "expires": "2026-03-08T02:30", "lead": ["1h", "1d"]},
             {"kind": "fee", "title": "Fee", "due": "2026-03-10"}]
            """#)
        let result = try Reminderctl.run([
            "plan", "--config", configPath, "--items", items, "--from", "2026-03-01", "--to", "2026-04-01", "--json",
        ])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                [
                  {"item": "2", "occurrenceDue": "2026-03-10T23:59:00-04:00", "lead": "7d", "fireAt": "2026-03-03T09:00:00-05:00", "adjusted": null},
                  {"item": "bogo", "occurrenceDue": "2026-03-08T03:30:00-04:00", "lead": "1d", "fireAt": "2026-03-07T09:00:00-05:00", "adjusted": null},
                  {"item": "bogo", "occurrenceDue": "2026-03-08T03:30:00-04:00", "lead": "1h", "fireAt": "2026-03-07T21:59:00-05:00", "adjusted": "quiet-hours-start"},
                  {"item": "2", "occurrenceDue": "2026-03-10T23:59:00-04:00", "lead": "1d", "fireAt": "2026-03-09T09:00:00-04:00", "adjusted": null}
                ]

                """)
    }

    @Test func humanOutputIsAnAlignedTable() throws {
        let configPath = try write("config.json", config)
        let items = try write(
            "items.json",
            #"[{"id": "netflix", "kind": "subscription", "title": "Netflix", "every": "1mo", "next": "2026-01-31"}]"#)
        let result = try Reminderctl.run([
            "plan", "--config", configPath, "--items", items, "--from", "2026-02-01", "--to", "2026-03-01",
        ])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                FIRES                 ITEM     TITLE    LEAD  DUE                   NOTE
                Sat 2026-02-21 09:00  netflix  Netflix  7d    Sat 2026-02-28 23:59
                Fri 2026-02-27 09:00  netflix  Netflix  1d    Sat 2026-02-28 23:59

                """)
    }

    @Test func anInvalidItemIsRefusedWithItsFieldAndExitCode1() throws {
        let items = try write(
            "items.json",
            #"[{"kind": "fee", "title": "ok", "due": "2026-01-01"}, {"kind": "fee", "title": "bad", "due": "2026-02-30"}]"#
        )
        let result = try Reminderctl.run(["plan", "--items", items, "--from", "2026-01-01", "--to", "2026-02-01"])
        #expect(result.status == 1)
        #expect(result.stderr == "reminderctl: \(items): items[1].due: \"2026-02-30\": February 2026 has 28 days\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func aBadConfigIsRefusedWithItsKeyPath() throws {
        let configPath = try write("config.json", #"{"quietHours": {"start": "22:00", "end": "8am"}}"#)
        let items = try write("items.json", "[]")
        let result = try Reminderctl.run([
            "plan", "--config", configPath, "--items", items, "--from", "2026-01-01", "--to", "2026-02-01",
        ])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "reminderctl: \(configPath):1:35: quietHours.end: \"8am\": expected a time as HH:MM (24-hour clock)\n"
        )
        let zone = try write("zone.json", #"{"timeZone": "Mars/Olympus"}"#)
        let unknown = try Reminderctl.run([
            "plan", "--config", zone, "--items", items, "--from", "2026-01-01", "--to", "2026-02-01",
        ])
        #expect(unknown.status == 1)
        #expect(
            unknown.stderr.hasPrefix(
                "reminderctl: \(zone):1:2: timeZone: \"Mars/Olympus\" is not a time zone in /usr/share/zoneinfo"))
    }

    @Test func unreadableFilesAndBadJSONAreNamed() throws {
        let missing = directory.appendingPathComponent("nope.json").path
        var result = try Reminderctl.run(["plan", "--items", missing, "--from", "2026-01-01", "--to", "2026-02-01"])
        #expect(result.status == 1)
        #expect(result.stderr == "reminderctl: \(missing): No such file or directory\n")
        result = try Reminderctl.run([
            "plan", "--config", directory.path, "--items", missing, "--from", "2026-01-01", "--to", "2026-02-01",
        ])
        #expect(result.stderr == "reminderctl: \(directory.path): is a directory, expected a file\n")
        let broken = try write("broken.json", #"[{"kind": "fee",]"#)
        result = try Reminderctl.run(["plan", "--items", broken, "--from", "2026-01-01", "--to", "2026-02-01"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("reminderctl: \(broken): not valid JSON"))
        let object = try write("object.json", #"{"kind": "fee"}"#)
        result = try Reminderctl.run(["plan", "--items", object, "--from", "2026-01-01", "--to", "2026-02-01"])
        #expect(
            result.stderr
                == "reminderctl: \(object): expected a JSON array of items, or a backup with an \"items\" array\n")
    }

    @Test func usageErrorsExitWith2() throws {
        let items = try write("items.json", "[]")
        var result = try Reminderctl.run(["plan", "--items", items, "--from", "2026-01-01"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--to"))
        result = try Reminderctl.run(["plan", "--items", items, "--from", "yesterday", "--to", "2026-02-01"])
        #expect(result.status == 2)
        #expect(result.stderr.contains(#"--from "yesterday""#))
        result = try Reminderctl.run(["plan", "--items", items, "--from", "2026-02-01", "--to", "2026-01-01"])
        #expect(result.status == 2)
        result = try Reminderctl.run(["frobnicate"])
        #expect(result.status == 2)
    }

    @Test func duplicateIDsAreRefused() throws {
        let items = try write(
            "items.json",
            #"[{"id": "a", "kind": "fee", "title": "x", "due": "2026-01-01"}, {"id": "a", "kind": "fee", "title": "y", "due": "2026-01-01"}]"#
        )
        let result = try Reminderctl.run(["plan", "--items", items, "--from", "2026-01-01", "--to", "2026-02-01"])
        #expect(result.status == 1)
        #expect(result.stderr == "reminderctl: \(items): items[1].id: \"a\" is already used by items[0]\n")
    }

    @Test func helpAndVersionExitWith0() throws {
        let help = try Reminderctl.run(["plan", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--items"))
        let version = try Reminderctl.run(["--version"])
        #expect(version.status == 0)
        #expect(!version.stdout.isEmpty)
    }
}

/// Runs the built `reminderctl`.
enum Reminderctl {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static let binary: URL = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "reminderctl"),
            root.appendingPathComponent(".build/debug/reminderctl"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[1]
    }()

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
