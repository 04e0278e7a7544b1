import Foundation
import Logging
import ReminderPlatform
import ReminderStore
import Testing

@testable import ReminderDaemon

/// `Daemon.init` names the part that failed, with the messages `reminderd` has always printed.
@Suite struct DaemonErrorTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reminderd-daemon-\(UUID())")
    let logger = Logger(label: "test")

    init() throws { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }

    func options(config: String? = nil) -> DaemonOptions {
        DaemonOptions(configPath: config, storePath: directory.appendingPathComponent("store.sqlite").path)
    }

    @Test func aMissingConfigIsTheConfigsFault() {
        let path = directory.appendingPathComponent("missing.json").path
        #expect {
            _ = try Daemon(options: options(config: path), logger: logger)
        } throws: { error in
            guard case .config(let config) = error as? DaemonError else { return false }
            return config.path == path && "\(error)".hasPrefix("config: \(path)")
        }
    }

    @Test func aSecondDaemonOnTheSameStoreIsRefusedByItsLock() throws {
        let first = try Daemon(options: options(), logger: logger)
        #expect {
            _ = try Daemon(options: options(), logger: logger)
        } throws: { error in
            guard case .storeLock = error as? DaemonError else { return false }
            return "\(error)".contains("another reminderd (pid \(getpid())) is already running on the store")
        }
        withExtendedLifetime(first) {}
    }

    @Test func theTimeZonesMessageNamesWhereTheZoneCameFrom() {
        let unknown = ReminderPlatformError.unknownZone(name: "Nowhere/Bogus", reason: "no such zone")
        #expect(
            "\(DaemonError.timeZone(environmentTZ: "Nowhere/Bogus", unknown))"
                == #"TZ="Nowhere/Bogus" (the environment's time zone; the config names none): "#
                + #"time zone "Nowhere/Bogus": no such zone"#)
        #expect(
            "\(DaemonError.timeZone(environmentTZ: nil, unknown))"
                == #"config: timeZone: time zone "Nowhere/Bogus": no such zone"#)
    }

    @Test func aFullDiskIsSaidFirst() {
        let failure = ReminderStoreError.database(reason: "database or disk is full")
        #expect(
            "\(DaemonError.engineStart(diskFull: "the disk of /s is full", failure))"
                == "the disk of /s is full: \(failure)")
        #expect("\(DaemonError.engineStart(diskFull: nil, failure))" == "\(failure)")
    }
}
