import CalDAV
import ReminderCore
import ReminderPlatform
import ReminderProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// reminderd-sync's loop, on one thread that sleeps in one poll(): on the `SyncWait` connection
/// (reminderd answers it when there is work), on the stop signals, with the timeout set to the
/// next periodic pass or back-off retry. Nothing else can wake the process: no Dispatch timer,
/// no thread, no Swift Concurrency (which wakes a process about once a second), so an idle
/// reminderd-sync costs no wake-ups between its passes.
public final class SyncService {
    let settings: SyncSettings
    let socketPath: String
    let journal: Journal
    let transport: CurlTransport
    let signals: ProcessSignals
    private var manager: ServiceManager
    private var session: SyncSession?
    private var schedule: SyncSchedule
    private var random = SystemRandomNumberGenerator()
    /// The last pass's failure words, so an outage is logged once, not at every retry.
    private var lastFailure: String?
    private var mirrorFailure: String?
    private var ready = false

    public init(settings: SyncSettings, socketPath: String, journal: Journal = Journal()) throws(ServiceError) {
        self.settings = settings
        self.socketPath = socketPath
        self.journal = journal
        self.signals = try ProcessSignals()
        self.manager = ServiceManager(journal: journal)
        do { self.transport = try CurlTransport() } catch { throw .noHTTP(error.description) }
        self.schedule = SyncSchedule(now: bootClockMilliseconds())
    }

    /// Runs until SIGTERM or SIGINT; returns the exit status (0).
    public func run() -> Int32 {
        while let connection = connect() {
            if !ready {
                manager.notify("READY=1")
                ready = true
            }
            if serve(connection) == .stop { break }
        }
        manager.notify("STOPPING=1")
        return 0
    }

    /// One full pass after connecting, for `reminderd-sync --once`: 0 when it succeeded, 1 when
    /// not (the reason on stderr, and in `sync status`), 69 when reminderd cannot be reached.
    public func runOnce() -> Int32 {
        let connection: DaemonConnection
        do { connection = try DaemonConnection(path: socketPath) } catch {
            journal.log(.error, "\(error); is reminderd running? (start it: \(StartHint.reminderd))")
            return 69
        }
        switch pass(.full, connection.link) {
        case nil: return 0
        case .daemonLost?: return 69
        case .retryable?, .waitForTrigger?, .stopped?: return 1
        }
    }

    private enum Ending { case stop, reconnect }

    /// Connects both connections and arms `SyncWait`, retrying with back-off (1 s doubling to
    /// 1 min) while reminderd cannot be reached; says so once. Nil when a stop signal came.
    private func connect() -> DaemonConnection? {
        var delay: Int32 = 1000
        var complained = false
        while true {
            do throws(ReminderProtocolError) {
                let connection = try DaemonConnection(path: socketPath)
                try connection.armWait()
                if complained { journal.log(.notice, "connected to reminderd at \(socketPath)") }
                return connection
            } catch {
                if !complained {
                    journal.log(.warning, "\(error); retrying until it answers (start it: \(StartHint.reminderd))")
                    complained = true
                }
            }
            var entry = pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0)
            if retryingOnEINTR({ poll(&entry, 1, delay) }) > 0 { return nil }
            delay = min(delay * 2, 60_000)
        }
    }

    /// Waits for work and runs passes until the connection to reminderd is lost or a stop signal
    /// comes. A reminderd that refuses `SyncWait` (an older one, or another reminderd-sync holds
    /// it) leaves the periodic passes: said once, and its descriptor no longer polled, since its
    /// answer would otherwise wake the loop at once, for ever.
    private func serve(_ connection: DaemonConnection) -> Ending {
        var waitRefused = false
        while true {
            var entries = [
                pollfd(fd: waitRefused ? -1 : connection.waitDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0),
            ]
            let count = poll(&entries, 2, schedule.timeout(now: bootClockMilliseconds()))
            if count < 0 && errno == EINTR { continue }
            if entries[1].revents != 0 { return .stop }
            var kind = SyncPass.Kind.full
            if entries[0].revents != 0 {
                do throws(LinkError) {
                    let wake = try connection.takeWait()
                    if wake.reason == .refresh { kind = .pullOnly }
                    do { try connection.armWait() } catch { throw .lost(error) }
                } catch .refused(_, let error) {
                    journal.log(.warning, "reminderd refused SyncWait (\(error)); syncing every ~10 minutes only")
                    waitRefused = true
                    continue
                } catch {
                    journal.log(.warning, "\(error); reconnecting")
                    return .reconnect
                }
            } else if bootClockMilliseconds() < schedule.due {
                continue
            }
            switch pass(kind, connection.link) {
            case .daemonLost?: return .reconnect
            case .stopped?: return .stop
            default: continue
            }
        }
    }

    /// Opens the session when there is none, runs the pass, and logs and schedules by its
    /// outcome; returns its failure kind, nil when it succeeded.
    private func pass(_ kind: SyncPass.Kind, _ link: any DaemonLink) -> PassFailure.Kind? {
        do throws(PassFailure) {
            let session: SyncSession
            if let open = self.session { session = open } else { session = try SyncSession.open(settings, transport: transport) }
            self.session = session
            let pass = SyncPass(session: session, link: link, shouldStop: { [signals] in signals.stopRequested })
            let outcome = pass.run(kind)
            if kind == .full, case .success = outcome, let mirror = settings.mirror {
                self.mirror(EventMirror(session: session, link: link, name: mirror))
            }
            return finish(kind, outcome)
        } catch {
            return finish(kind, .failure(report(error, to: link)))
        }
    }

    /// Updates the event mirror after a successful pass. Its failure is the journal's only (once
    /// until it changes): the items themselves are in sync, which is what `sync status` tells.
    private func mirror(_ mirror: EventMirror) {
        switch mirror.run() {
        case .success(let summary):
            if mirrorFailure != nil { journal.log(.notice, "the mirror \"\(mirror.name)\" works again") }
            mirrorFailure = nil
            if summary != EventMirror.Summary() {
                journal.log(.info, "mirror \"\(mirror.name)\": wrote \(summary.written), deleted \(summary.deleted)")
            }
        case .failure(let failure):
            if failure.words != mirrorFailure { journal.log(.warning, failure.words) }
            mirrorFailure = failure.words
        }
    }

    /// A failure before any pass could begin (no password, no task list) goes to reminderd all
    /// the same, for `sync status`; unless the connection to it is what failed.
    private func report(_ failure: PassFailure, to link: any DaemonLink) -> PassFailure {
        do { _ = try link.call(.syncReport(.init(error: failure.words))) } catch {
            return PassFailure(words: error.description, kind: .daemonLost, dropsSession: false)
        }
        return failure
    }

    private func finish(_ kind: SyncPass.Kind, _ outcome: Result<SyncPass.Summary, PassFailure>) -> PassFailure.Kind? {
        switch outcome {
        case .success(let summary):
            if lastFailure != nil { journal.log(.notice, "sync works again") }
            lastFailure = nil
            if summary != SyncPass.Summary() {
                journal.log(
                    .info, "pulled \(summary.pulled), removed \(summary.removed), pushed \(summary.pushed), "
                        + "\(summary.conflicts) conflict\(summary.conflicts == 1 ? "" : "s")")
            }
            manager.notify("STATUS=in sync with \(settings.calendar)")
            schedule.passEnded(kind, failure: nil, now: bootClockMilliseconds(), random: &random)
            return nil
        case .failure(let failure):
            if failure.dropsSession { session = nil }
            if failure.words != lastFailure { journal.log(.warning, failure.words) }
            lastFailure = failure.words
            manager.notify("STATUS=\(failure.words)")
            schedule.passEnded(kind, failure: failure.kind, now: bootClockMilliseconds(), random: &random)
            return failure.kind
        }
    }
}
