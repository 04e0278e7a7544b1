internal import CNotify
import Dispatch
import Logging
import ReminderCore
import Synchronization

/// Pop-ups through the freedesktop notification interface on the session bus, whatever server
/// the desktop runs, spoken directly with GDBus.
///
/// Everything D-Bus runs on one dedicated thread that runs a `GMainLoop` on its own
/// `GMainContext`; callers' requests are queued onto it with `g_main_context_invoke`. The calls
/// are reminderd's own rather than libnotify's, for three promises libnotify cannot keep:
/// - `Notify` is asynchronous and waits for its answer however late it comes (libnotify gives
///   up after D-Bus's 25 s and reports a failure for a pop-up the server may still show, so a
///   retry showed it twice);
/// - no call asks the bus to start a server (`NO_AUTO_START`): reminderd waits for the desktop's
///   own server to take the name rather than launch whichever one is installed;
/// - the connection is reminderd's own, not GLib's shared one that raises SIGTERM when the bus
///   goes away: a lost bus is reconnected.
/// The bus name is watched, and the engine hears `serverAppeared` only once the new server's
/// capabilities and do-not-disturb are known, so no pop-up goes out without the buttons it
/// supports or into a do-not-disturb not yet read.
///
/// The parts: this file (the `Notifier` calls, the server's arrival), `+Signals` (its signals),
/// `+Connection` (the bus connection and its reconnection), `+Calls` (method calls and the
/// GLib plumbing), `+DoNotDisturb` (keeping `DoNotDisturb` up to date), `+Indicator` (the panel
/// indicator, exported on the same connection).
// Sendable: what the GLib thread keeps is in `glib`, a box that checks every access is on that
// thread (`DBusNotifier+GLibState.swift`); the server's info, whether a StatusNotifierWatcher is
// there and whether the thread started are behind Mutexes, for the engine to read.
public final class DBusNotifier: Notifier, Sendable {
    static let busName = "org.freedesktop.Notifications"
    static let objectPath = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"
    static let longestReconnectDelay: guint = 30
    /// The themed icon installed with the package (and named by the desktop entry): GNOME shows a
    /// generic one without it.
    static let iconName = "reminderd"
    /// How long `stop` waits for the GLib thread to finish (it never blocks on the bus, but a
    /// connection attempt to a hung bus could).
    static let stopSeconds = 2

    /// The GLib thread's context and loop, and its state.
    let glib = GLibBound(GLibState())
    let logger: Logger
    let applicationName: String
    let info = Mutex<ServerInfo?>(nil)
    /// Whether to offer a panel indicator (`+Indicator`).
    let indicatorEnabled: Bool
    let watcherPresent = Mutex(false)
    /// Signalled when the GLib thread has finished; whether it was started.
    private let finished = DispatchSemaphore(value: 0)
    private let started = Mutex(false)

    public init(applicationName: String = "reminderd", indicator: Bool = true, logger: Logger) {
        self.applicationName = applicationName
        indicatorEnabled = indicator
        self.logger = logger
    }

    public func start(events: @escaping @Sendable (NotifierEvent) -> Void) {
        let body = GLibThreadBody { [self] in
            g_main_context_push_thread_default(context)
            self.events = events
            watchGnomeSettings()
            if !connect() { scheduleReconnect() }
            g_main_loop_run(loop)
            reportIgnoredSignals()
            disconnect()
            g_main_context_pop_thread_default(context)
            finished.signal()
        }
        started.withLock { $0 = true }
        // A GLib thread, named as ps and gdb show it: Foundation's `Thread` would bring full
        // Foundation (and ICU's data) into the daemon for this one call.
        let thread = g_thread_new("reminderd-glib", { GLibThreadBody.run($0) }, Unmanaged.passRetained(body).toOpaque())
        g_thread_unref(thread)  // detached: `quitAndJoin` waits on `finished` instead
    }

    /// Quits the GLib loop and waits for its thread to close the connection and finish. The
    /// quit is queued onto the loop, so a stop right after `start` is not lost before the loop
    /// runs.
    public func stop() {
        if !quitAndJoin() {
            logger.warning("the D-Bus thread did not finish within \(DBusNotifier.stopSeconds) s; stopping anyway")
        }
    }

    /// Whether the GLib thread finished (or never started) within `stopSeconds`.
    func quitAndJoin() -> Bool {
        guard started.withLock({ $0 }) else { return true }
        onGLibThread { [self] in g_main_loop_quit(loop) }
        return finished.wait(timeout: .now() + .seconds(DBusNotifier.stopSeconds)) == .success
    }

    public func serverInfo() -> ServerInfo? {
        info.withLock { $0 }
    }

    public func doNotDisturb(completion: @escaping @Sendable (String?) -> Void) {
        onGLibThread { [self] in completion(doNotDisturbState.reason) }
    }

    public func show(
        _ request: NotificationRequest, completion: @escaping @Sendable (Result<UInt32, NotifierError>) -> Void
    ) {
        onGLibThread { [self] in
            guard info.withLock({ $0 != nil }) else {
                completion(.failure(.noServer(reason: "no notification server owns \(DBusNotifier.busName)")))
                return
            }
            if !request.bypassDoNotDisturb, let reason = doNotDisturbState.reason {
                completion(.failure(.inhibited(reason: reason)))
                return
            }
            // No timeout: a late answer still counts, and its id is then known (see the type's doc).
            call("Notify", notifyParameters(request), returning: "(u)", timeout: Int32.max) { [self] result in
                switch result {
                case .success(let reply):
                    let id = DBusNotifier.child(reply, 0, g_variant_get_uint32)
                    shown.insert(id)
                    completion(.success(id))
                case .failure(let error):
                    completion(.failure(error))
                }
            }
        }
    }

    /// Closes pop-up `id`. Only reminderd closes its pop-ups this way, and only once the engine
    /// has taken them off its own books, so the server's `NotificationClosed` for it (reason 3)
    /// would tell the engine nothing: the id is forgotten here and that signal ends on the GLib
    /// thread instead of waking the engine's queue (a Done button's close went there and back).
    public func close(id: UInt32) {
        onGLibThread { [self] in
            shown.remove(id)
            var children = [g_variant_new_uint32(id)]
            let parameters = children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 1) }
            call("CloseNotification", parameters, returning: "()") { [self] result in
                if case .failure(let error) = result { logger.warning("cannot close pop-up \(id): \(error)") }
            }
        }
    }

    // MARK: - On the GLib thread: the server

    /// A server (`owner`, its unique name) took the name: it counts as there once it said what it can do and whether it is
    /// in do-not-disturb.
    func serverAppeared(owner: String) {
        generation += 1
        serverOwner = owner
        let asked = generation
        call("GetCapabilities", nil, returning: "(as)") { [self] result in
            var capabilities: [String] = []
            switch result {
            case .success(let reply):
                capabilities = DBusNotifier.child(reply, 0, DBusNotifier.strings)
            case .failure(let error):
                // Still a server: its pop-ups go out without buttons (with the command to type).
                logger.warning("the notification server did not say what it can do: \(error)")
            }
            call("GetServerInformation", nil, returning: "(ssss)") { [self] result in
                var fields = ["", "", ""]
                if case .success(let reply) = result {
                    fields = (0..<3).map { DBusNotifier.child(reply, gsize($0), DBusNotifier.string) }
                }
                serverProcess(owner) { [self] process in
                    readServerDoNotDisturb(DoNotDisturb.Switch.serverProperties, asked: asked) { [self] _ in
                        info.withLock {
                            $0 = ServerInfo(
                                name: fields[0], vendor: fields[1], version: fields[2], capabilities: capabilities,
                                process: process)
                        }
                        events?(.serverAppeared)
                    }
                }
            }
        }
    }

    func serverVanished() {
        generation += 1
        serverOwner = nil
        info.withLock { $0 = nil }
        shown.removeAll()
        doNotDisturbState.serverVanished()
        events?(.serverVanished)
    }
}

/// The GLib thread's work, handed to `g_thread_new` through its `gpointer`.
private final class GLibThreadBody: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    static func run(_ data: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        Unmanaged<GLibThreadBody>.fromOpaque(data!).takeRetainedValue().body()
        return nil
    }
}
