internal import CSystemd
import Dispatch
import Glibc
import ReminderPlatform

/// Wakes the engine at the wheel's next deadline: one `DispatchSourceTimer` on the wall clock,
/// re-armed only when the deadline changes, idle (no wake-ups) while nothing is pending.
final class TimerDriver: Sendable {
    private let state: QueueBound<(timer: DispatchSourceTimer, armed: Int64?)>
    /// The engine's clock: its deadlines are on it, the kernel's timer on the real one.
    let clock: TestClock

    /// `fire` runs on `queue` after the armed deadline was forgotten, so the next `arm` re-arms
    /// even for the same one (a fire that came a moment early). Deadlines are read on `clock`
    /// (shifted in tests), so the timer is armed at the real instant that clock reads them.
    init(queue: DispatchQueue, clock: TestClock = TestClock(shift: 0), fire: @escaping @Sendable () -> Void) {
        self.clock = clock
        let timer = DispatchSource.makeTimerSource(flags: [], queue: queue)
        let state = QueueBound<(timer: DispatchSourceTimer, armed: Int64?)>((timer, nil), queue: queue)
        // Weak: the box holds the timer, which holds this handler.
        timer.setEventHandler { [weak state] in
            state?.value.armed = nil
            fire()
        }
        timer.schedule(wallDeadline: .distantFuture)
        timer.activate()
        self.state = state
    }

    /// Arms for `deadline` (Unix seconds on `clock`), or disarms for nil. On the engine's queue.
    func arm(_ deadline: Int64?) {
        guard deadline != state.value.armed else { return }
        state.value.armed = deadline
        let timer = state.value.timer
        if let deadline {
            let real = clock.realInstant(ofShifted: deadline)
            timer.schedule(
                wallDeadline: DispatchWallTime(timespec: timespec(tv_sec: Int(real), tv_nsec: 0)),
                leeway: .milliseconds(50))
        } else {
            timer.schedule(wallDeadline: .distantFuture)
        }
    }

    /// Forgets the armed deadline, so the next `arm` re-arms even for the same one (after a fire
    /// that came a moment early, or after the clock changed).
    func reset() { state.value.armed = nil }
}

/// Notices when the wall clock is set or jumps (and on resume from suspend): a `timerfd` on
/// `CLOCK_REALTIME` with `TFD_TIMER_CANCEL_ON_SET` reads `ECANCELED` then. Dispatch's wall
/// timers are not told of such changes.
final class ClockWatch: Sendable {
    /// Kept for as long as the watch lives; its handler runs on the engine's queue.
    private let source: QueueBound<DispatchSourceRead>

    init?(queue: DispatchQueue, changed: @escaping @Sendable () -> Void) {
        let fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC))
        guard fd >= 0 else { return nil }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler {
            var expirations: UInt64 = 0
            _ = read(fd, &expirations, 8)  // ECANCELED after a clock change
            ClockWatch.arm(fd)
            changed()
        }
        ClockWatch.arm(fd)
        source.activate()
        self.source = QueueBound(source, queue: queue)
    }

    /// A far-away absolute expiry that exists only to be cancelled by clock changes.
    private static func arm(_ fd: Int32) {
        var spec = itimerspec()
        spec.it_value.tv_sec = Int(Int32.max) * 2
        _ = timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET), &spec, nil)
    }
}

/// Notices when the system's time zone changes (`timedatectl set-timezone` replaces the
/// `/etc/localtime` link): inotify on the link's directory, read from a Dispatch source.
final class LocaltimeWatch: Sendable {
    /// Kept for as long as the watch lives; its handler runs on the engine's queue.
    private let source: QueueBound<DispatchSourceRead>

    init?(path: String, queue: DispatchQueue, changed: @escaping @Sendable () -> Void) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let fd = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_CREATE) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE) | UInt32(IN_CLOSE_WRITE)
        guard inotify_add_watch(fd, directory.isEmpty ? "/" : directory, mask) >= 0 else {
            close(fd)
            return nil
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
            changed()
        }
        source.activate()
        self.source = QueueBound(source, queue: queue)
    }
}
