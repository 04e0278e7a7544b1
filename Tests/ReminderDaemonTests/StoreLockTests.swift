import Foundation
import Glibc
import Testing

@testable import ReminderDaemon

/// The store's lock file: a refused second lock closes its descriptor once. (A failed init whose
/// properties were all set runs `deinit` too; when both closed, the second close could shut a
/// descriptor another thread had just opened — in the tests' process, a store's SQLite file,
/// whose next write failed with "disk I/O error".)
@Suite struct StoreLockTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reminderd-lock-\(UUID())")

    @Test func aRefusedLockClosesNoDescriptorItDoesNotOwn() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = directory.appendingPathComponent("store.sqlite").path
        let held = try StoreLock(storePath: store)
        let watch = DescriptorWatch()
        // Another thread opens and checks descriptors while refused locks come and go: each of
        // its descriptors must stay open until it closes it.
        let watcher = Thread { watch.run() }
        watcher.start()
        for _ in 0..<20_000 {
            #expect(throws: StoreLockError.self) { _ = try StoreLock(storePath: store) }
        }
        watch.stop()
        while !watcher.isFinished { usleep(1_000) }
        #expect(watch.closedUnderIt == 0)
        withExtendedLifetime(held) {}
    }
}

/// Opens `/dev/null` again and again until stopped, counting the times its descriptor was found
/// closed before it closed it itself.
final class DescriptorWatch: @unchecked Sendable {  // `stopped` and `count` are behind `lock`
    private let lock = NSLock()
    private var stopped = false
    private var count = 0

    var closedUnderIt: Int { lock.withLock { count } }
    func stop() { lock.withLock { stopped = true } }

    func run() {
        while !lock.withLock({ stopped }) {
            let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
            for _ in 0..<50 where fcntl(fd, F_GETFD) == -1 { lock.withLock { count += 1 } }
            close(fd)
        }
    }
}
