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
///
/// `init` builds every part (nothing runs yet but the timer sources, which stay idle until the
/// engine arms them); `run` starts them in order — engine (and with it the notifier's GLib
/// thread), socket server, signals, watchdog — and stopping undoes that in reverse.
public final class Daemon: Sendable {
    let options: DaemonOptions
    let logger: Logger
    let managerNotifier: ManagerNotifier
    /// Held, never read: the lock lasts as long as the daemon.
    let storeLock: StoreLock
    let store: ReminderStore
    let notifier: DBusNotifier
    let engine: ReminderEngine
    let driver: TimerDriver
    /// Held so their sources stay alive; they call the engine themselves.
    let clockWatch: ClockWatch?
    let localtimeWatch: LocaltimeWatch?
    /// The socket's path from the options or the config, resolved once.
    let socketPath: String

    public init(options: DaemonOptions, logger: Logger) throws(DaemonError) {
        self.options = options
        self.logger = logger
        managerNotifier = ManagerNotifier(logger: logger)
        let configuration: Configuration
        switch ConfigFile.load(explicitPath: options.configPath) {
        case .success(let loaded): configuration = DaemonLocale.applied(to: loaded)
        case .failure(let error): throw .config(error)
        }
        Translation.bindCatalogs()
        Daemon.chooseLanguage(configuration, logger: logger)
        let zone: TimeZoneRules
        do { zone = try ZoneDatabase.shared.zone(configured: configuration.timeZone) } catch {
            // With no zone in the config, it came from the environment: name that.
            let tz = configuration.timeZone == nil ? environmentVariable("TZ") : nil
            throw .timeZone(environmentTZ: tz?.isEmpty == false ? tz : nil, error)
        }
        let testClock: TestClock
        switch TestClock.environment {
        case .success(let clock): testClock = clock
        case .failure(let error): throw .testClock(error)
        }
        if testClock.shift != 0 {
            logger.warning("\(TestClock.variable)=\(testClock.shift): the clock is shifted for tests")
        }
        let queue = DispatchQueue(label: "reminderd.engine")
        let storePath = options.storePath ?? ReminderStore.defaultPath()
        do { storeLock = try StoreLock(storePath: storePath) } catch { throw .storeLock(error) }
        do {
            // A row set aside as unreadable is named once, with its column and value, so that
            // the one row edited by hand can be found and repaired.
            store = try ReminderStore(path: storePath, groupCommit: queue) { row in
                logger.error("a stored row cannot be read and is left out: \(row)")
            }
        } catch { throw .store(error) }
        notifier = DBusNotifier(indicator: configuration.indicator, logger: logger)
        let clock: @Sendable () -> Int64 = { testClock.now() }
        let engine = ReminderEngine(
            store: store, notifier: notifier, configuration: configuration, zone: zone, clock: clock, logger: logger,
            queue: queue)
        let driver = TimerDriver(queue: queue, clock: testClock) { engine.advance() }
        clockWatch = ClockWatch(queue: queue) {
            logger.info("the clock changed; re-evaluating the schedule")
            driver.reset()
            engine.advance()
        }
        localtimeWatch =
            ZoneDatabase.followsLocaltime
            ? LocaltimeWatch(path: ZoneDatabase.localtimePath, queue: queue) {
                Daemon.systemZoneMayHaveChanged(engine: engine, driver: driver, logger: logger)
            } : nil
        self.engine = engine
        self.driver = driver
        socketPath = options.socketPath ?? SocketPath.resolve(configured: configuration.socketPath)
    }

    /// Starts everything, reports READY=1, and serves until SIGTERM or SIGINT, then exits 0.
    /// Returns only by throwing, when a part could not start.
    public func run() throws(DaemonError) -> Never {
        let startFailure: DaemonError? = engine.queue.sync { [engine, driver, managerNotifier, store] in
            engine.deadlineChanged = { deadline in driver.arm(deadline) }
            engine.statusChanged = { status in managerNotifier.status(status) }
            do throws(ReminderStoreError) { try engine.start() } catch {
                return .engineStart(diskFull: ReminderStore.diskFull(at: store.path), error)
            }
            return nil
        }
        if let startFailure { throw startFailure }
        // Start-up's decoded rows and planned events are freed by now, megabytes at 100k items
        // between chunks still in use, where glibc's own trimming (the heap's top) never reaches.
        MallocTuning.trim()
        let server: SocketServer
        do {
            server = try SocketServer(
                listenFD: Systemd.listenFileDescriptors().first, path: socketPath, queue: engine.queue, store: store,
                version: ReminderVersion.current,
                handler: { [self] method, parameters, caller in
                    // Already on the engine's queue.
                    method == .reload ? reload() : engine.perform(method, parameters, caller: caller)
                }, logger: logger)
        } catch {
            throw .socket(path: socketPath, error)
        }
        server.start()
        let signalSources = handleSignals(server: server)
        let watchdog = startWatchdog()
        let status = engine.queue.sync { engine.statusLine() }
        managerNotifier.send("READY=1\nSTATUS=\(status)")
        logger.info("reminderd \(ReminderVersion.current) ready: \(status); socket \(socketPath)")
        withExtendedLifetime((signalSources, watchdog)) { dispatchMain() }
    }

    /// The language of pop-ups and menu: the config's `language`, else the daemon's environment,
    /// the systemd user manager's as it started reminderd. A locale that is not installed gives
    /// English; logged when the config named it (an environment's is silent, as in any program).
    static func chooseLanguage(_ configuration: Configuration, logger: Logger) {
        let name = configuration.language ?? Translation.environmentLocaleName()
        if !Translation.choose(localeName: name), configuration.language != nil {
            logger.warning("locale \(name) is not installed (see locale -a): pop-ups and menu in English")
        }
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
                engine.apply(DaemonLocale.applied(to: configuration), zone: zone)
                Daemon.chooseLanguage(configuration, logger: logger)
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
    static func systemZoneMayHaveChanged(engine: ReminderEngine, driver: TimerDriver, logger: Logger) {
        guard engine.configuration.timeZone == nil, let zone = try? ZoneDatabase.shared.systemZone(),
            zone != engine.zone
        else {
            return
        }
        logger.info("the system time zone is now \(zone.identifier); recomputing fire times")
        driver.reset()
        engine.apply(engine.configuration, zone: zone)
    }

    /// SIGHUP reloads; SIGTERM and SIGINT stop. The sources are returned to be kept alive.
    private func handleSignals(server: SocketServer) -> [DispatchSourceSignal] {
        [SIGTERM, SIGINT, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { [self] in
                if number == SIGHUP {
                    engine.queue.async { _ = self.reload() }
                } else {
                    stop(server: server)
                }
            }
            source.activate()
            return source
        }
    }

    /// STOPPING=1, then a prompt, clean exit, undoing the start in reverse: the socket stops
    /// accepting and the replies owed to clients go out (at most ten seconds for their flush);
    /// the engine records when it was last running and that is flushed (at most ten seconds
    /// more); the notifier's GLib loop quits and its thread is joined; at most a second is spent
    /// on a slow manager.
    private func stop(server: SocketServer) -> Never {
        managerNotifier.send("STOPPING=1")
        logger.info("stopping")
        server.stop(timeout: .seconds(10))
        let flushed = DispatchSemaphore(value: 0)
        engine.queue.sync {
            engine.writeBeforeStop()
            store.whenDurable(through: store.commitCount) { _ in flushed.signal() }
        }
        if flushed.wait(timeout: .now() + .seconds(10)) == .timedOut {
            logger.error("the store's last flush did not finish within 10 s; stopping anyway")
        }
        notifier.stop()
        managerNotifier.drain(timeout: .seconds(1))
        exit(0)
    }

    /// WATCHDOG=1 from the engine's own queue, at half the interval, so a stuck queue is noticed.
    private func startWatchdog() -> DispatchSourceTimer? {
        guard let usec = Systemd.watchdogMicroseconds() else { return nil }
        let timer = DispatchSource.makeTimerSource(queue: engine.queue)
        let interval = DispatchTimeInterval.microseconds(Int(usec / 2))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
        timer.setEventHandler { [managerNotifier] in managerNotifier.send("WATCHDOG=1") }
        timer.activate()
        return timer
    }
}
