import CivilTime
import Dispatch
import Glibc
import Logging
import ReminderCore
import ReminderPlatform
import ReminderProtocol
import ReminderStore

/// Where the daemon keeps and finds things; nil means the default.
public struct DaemonOptions: Sendable {
    public var configPath: String?
    public var storePath: String?
    public var socketPath: String?

    public init(configPath: String? = nil, storePath: String? = nil, socketPath: String? = nil) {
        self.configPath = configPath
        self.storePath = storePath
        self.socketPath = socketPath
    }
}

/// Puts the parts together and runs them: config, store, engine, timer driver, clock watch,
/// notifier, socket server, signals and systemd's notifications.
public final class Daemon: @unchecked Sendable {  // set up once on the main thread, then read-only
    let options: DaemonOptions
    let logger: Logger
    var engine: ReminderEngine!
    var storeLock: StoreLock?
    var server: SocketServer!
    var notifier: DBusNotifier!
    var driver: TimerDriver!
    var clockWatch: ClockWatch?
    var localtimeWatch: LocaltimeWatch?
    var signalSources: [DispatchSourceSignal] = []
    var watchdog: DispatchSourceTimer?
    let managerNotifier: ManagerNotifier

    public init(options: DaemonOptions, logger: Logger) {
        self.options = options
        self.logger = logger
        managerNotifier = ManagerNotifier(logger: logger)
    }

    /// Starts everything, reports READY=1, and serves until SIGTERM. Returns only on a start-up
    /// failure, with the message to print.
    public func run() -> String {
        let configuration: Configuration
        switch ConfigFile.load(explicitPath: options.configPath) {
        case .success(let loaded): configuration = loaded
        case .failure(let error): return "config: \(error)"
        }
        let zone: TimeZoneRules
        do { zone = try ZoneDatabase.shared.zone(configured: configuration.timeZone) } catch {
            // With no zone in the config, it came from the environment: name that.
            if configuration.timeZone == nil, let tz = environmentVariable("TZ"), !tz.isEmpty {
                return "TZ=\"\(tz)\" (the environment's time zone; the config names none): \(error)"
            }
            return "config: timeZone: \(error)"
        }
        let queue = DispatchQueue(label: "reminderd.engine")
        let storePath = options.storePath ?? ReminderStore.defaultPath()
        do { storeLock = try StoreLock(storePath: storePath) } catch { return "\(error)" }
        let store: ReminderStore
        do { store = try ReminderStore(path: storePath, groupCommit: queue) } catch { return "\(error)" }
        notifier = DBusNotifier(logger: logger)
        let clock: @Sendable () -> Int64 = { Int64(time(nil)) }
        engine = ReminderEngine(
            store: store, notifier: notifier, configuration: configuration, zone: zone, clock: clock, logger: logger,
            queue: queue)
        let engine = self.engine!
        driver = TimerDriver(queue: engine.queue) { [weak self] in
            self?.driver.reset()
            engine.advance()
        }
        clockWatch = ClockWatch(queue: engine.queue) { [weak self] in
            self?.logger.info("the clock changed; re-evaluating the schedule")
            self?.driver.reset()
            engine.advance()
        }
        if ZoneDatabase.followsLocaltime {
            localtimeWatch = LocaltimeWatch(path: ZoneDatabase.localtimePath, queue: engine.queue) { [weak self] in
                self?.systemZoneMayHaveChanged()
            }
        }
        let driver = self.driver!
        let startFailure: String? = engine.queue.sync {
            engine.deadlineChanged = { deadline in driver.arm(deadline) }
            engine.statusChanged = { [managerNotifier] status in managerNotifier.status(status) }
            do { try engine.start() } catch {
                return ReminderStore.diskFull(at: store.path).map { "\($0): \(error)" } ?? "\(error)"
            }
            return nil
        }
        if let startFailure { return startFailure }

        let socketPath = options.socketPath ?? SocketPath.resolve(configured: configuration.socketPath)
        do {
            server = try SocketServer(
                listenFD: Systemd.listenFileDescriptors().first, path: socketPath, queue: engine.queue, store: store,
                version: ReminderVersion.current,
                handler: { [weak self] method, parameters in
                    // Already on the engine's queue.
                    guard let self else { return .failure(VarlinkError(name: ReminderInterface.ErrorName.internal)) }
                    return method == .reload ? self.reload() : engine.perform(method, parameters)
                }, logger: logger)
        } catch {
            return "\(error)"
        }
        server.start()
        handleSignals()
        startWatchdog()
        let status = engine.queue.sync { engine.statusLine() }
        managerNotifier.send("READY=1\nSTATUS=\(status)")
        logger.info("reminderd \(ReminderVersion.current) ready: \(status); socket \(socketPath)")
        dispatchMain()
    }

    /// Re-reads the config: RELOADING=1, then READY=1; a bad config is refused and the old one kept.
    /// Runs on the engine's queue, so the notifications only go to their own queue.
    func reload() -> VarlinkReply {
        managerNotifier.send("RELOADING=1")
        defer { managerNotifier.send("READY=1") }
        switch ConfigFile.load(explicitPath: options.configPath) {
        case .failure(let error):
            logger.error("reload refused, keeping the old config: \(error)")
            return .failure(.invalidConfig(field: error.path, reason: error.message))
        case .success(let configuration):
            do {
                let zone = try ZoneDatabase.shared.zone(configured: configuration.timeZone)
                engine.apply(configuration, zone: zone)
                logger.info("config reloaded")
                return .success([:])
            } catch {
                logger.error("reload refused, keeping the old config: \(error)")
                // With no zone in the config, it came from $TZ.
                let field = configuration.timeZone == nil ? "TZ" : "timeZone"
                return .failure(.invalidConfig(field: field, reason: "\(error)"))
            }
        }
    }

    /// Reschedules everything when the system zone changed and the config names none.
    func systemZoneMayHaveChanged() {
        guard engine.configuration.timeZone == nil, let zone = try? ZoneDatabase.shared.systemZone(),
            zone != engine.zone
        else {
            return
        }
        logger.info("the system time zone is now \(zone.identifier); recomputing fire times")
        driver.reset()
        engine.apply(engine.configuration, zone: zone)
    }

    private func handleSignals() {
        for number in [SIGTERM, SIGINT, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { [weak self] in
                guard let self else { return }
                if number == SIGHUP {
                    self.engine.queue.async { _ = self.reload() }
                } else {
                    self.stop()
                }
            }
            source.activate()
            signalSources.append(source)
        }
    }

    /// STOPPING=1, then a prompt, clean exit: the replies owed to clients go out first (at most
    /// ten seconds for their flush), and at most a second is spent on a slow manager.
    private func stop() -> Never {
        managerNotifier.send("STOPPING=1")
        logger.info("stopping")
        server.stop(timeout: .seconds(10))
        engine.queue.sync {
            do { try engine.recordLastSeen(Int64(time(nil))) } catch { logger.error("\(error)") }
        }
        notifier.stop()
        managerNotifier.drain(timeout: .seconds(1))
        exit(0)
    }

    /// WATCHDOG=1 from the engine's own queue, at half the interval, so a stuck queue is noticed.
    private func startWatchdog() {
        guard let usec = Systemd.watchdogMicroseconds() else { return }
        let timer = DispatchSource.makeTimerSource(queue: engine.queue)
        let interval = DispatchTimeInterval.microseconds(Int(usec / 2))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
        timer.setEventHandler { [managerNotifier] in managerNotifier.send("WATCHDOG=1") }
        timer.activate()
        watchdog = timer
    }
}

extension ReminderEngine {
    /// New settings (after a reload): every item is rescheduled under them.
    func apply(_ configuration: Configuration, zone: TimeZoneRules) {
        dispatchPrecondition(condition: .onQueue(queue))
        self.configuration = configuration
        self.zone = zone
        self.rules = FireTimeRules(zone: zone, configuration: configuration)
        let now = clock()
        do { try store.pruneHistory(before: now - Int64(configuration.historyDays) * 86_400) } catch {
            logger.error("cannot prune history: \(error)")
        }
        for id in order { reschedule(id, now: now) }
        publish()
    }
}
