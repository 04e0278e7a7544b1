import Dispatch
import Logging
import ReminderPlatform

/// Sends `sd_notify` states to the service manager from a queue of its own, in the order they
/// were given. `sd_notify` blocks while the manager's socket is full; on this queue that holds up
/// nobody, where on the engine's queue a slow manager stalled every client, and SIGTERM hung.
final class ManagerNotifier: Sendable {
    private let queue: DispatchQueue
    private let logger: Logger
    private let lastStatus: QueueBound<String?>

    init(logger: Logger) {
        self.logger = logger
        queue = DispatchQueue(label: "reminderd.sd-notify")
        lastStatus = QueueBound(nil, queue: queue)
    }

    /// Sends `state` (`READY=1`, `RELOADING=1`, `WATCHDOG=1` …) soon; never waits.
    func send(_ state: String) {
        queue.async { [self] in
            do { try Systemd.notify(state) } catch { logger.warning("\(error)") }
        }
    }

    /// `STATUS=` with `status`, only when the line changed.
    func status(_ status: String) {
        queue.async { [self] in
            guard status != lastStatus.value else { return }
            lastStatus.value = status
            do { try Systemd.notify("STATUS=\(status)") } catch { logger.warning("\(error)") }
        }
    }

    /// Waits up to `timeout` for what was sent so far to reach the manager (at exit: STOPPING=1
    /// should arrive, but a manager that does not read must not keep the daemon from stopping).
    @discardableResult
    func drain(timeout: DispatchTimeInterval) -> Bool {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        return done.wait(timeout: .now() + timeout) == .success
    }
}
