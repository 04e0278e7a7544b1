internal import CNotify
import Foundation
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
/// capabilities are known, so no pop-up goes out without the buttons it supports.
// @unchecked Sendable: `connection`, `sharedConnection`, `gnomeSettings`, `shown`, `events`, the
// watch, subscription and closed-handler ids, `generation` and `reconnectDelay` are touched only
// on the GLib thread; `thread` only by `start`, before that thread exists; `info` only behind its
// Mutex.
public final class DBusNotifier: Notifier, @unchecked Sendable {
    private static let busName = "org.freedesktop.Notifications"
    private static let objectPath = "/org/freedesktop/Notifications"
    private static let interface = "org.freedesktop.Notifications"
    private static let longestReconnectDelay: guint = 30
    /// The themed icon installed with the package (and named by the desktop entry): GNOME shows a
    /// generic one without it.
    private static let iconName = "reminderd"

    private let context: OpaquePointer
    private let loop: OpaquePointer
    private let logger: Logger
    private let applicationName: String
    private var thread: Thread?
    private var events: (@Sendable (NotifierEvent) -> Void)?
    /// Our own session-bus connection; nil while the bus is away.
    private var connection: OpaquePointer?
    private var watchID: guint = 0
    private var subscriptions: [guint] = []
    private var closedHandler: gulong = 0
    private var reconnectDelay: guint = 1
    /// Ids of our pop-ups on screen: the server's signals reach every client, so others' are
    /// ignored.
    private var shown: Set<UInt32> = []
    /// Bumped whenever the server changes, so a late answer about the previous one is ignored.
    private var generation = 0
    /// GNOME's notification settings, when its schema is installed.
    private var gnomeSettings: UnsafeMutablePointer<GSettings>?
    /// GLib's shared session-bus connection, held so it stays set not to exit on close.
    private var sharedConnection: OpaquePointer?
    private let info = Mutex<ServerInfo?>(nil)

    public init(applicationName: String = "reminderd", logger: Logger) {
        self.applicationName = applicationName
        self.logger = logger
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
    }

    deinit {
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    public func start(events: @escaping @Sendable (NotifierEvent) -> Void) {
        let thread = Thread { [self] in
            g_main_context_push_thread_default(context)
            self.events = events
            watchGnomeSettings()
            if !connect() { scheduleReconnect() }
            g_main_loop_run(loop)
            disconnect()
            g_main_context_pop_thread_default(context)
        }
        thread.name = "reminderd-glib"
        self.thread = thread
        thread.start()
    }

    public func stop() {
        g_main_loop_quit(loop)
    }

    public func serverInfo() -> ServerInfo? {
        info.withLock { $0 }
    }

    public func doNotDisturb(completion: @escaping @Sendable (String?) -> Void) {
        onGLibThread { [self] in completion(doNotDisturbReason()) }
    }

    public func show(
        _ request: NotificationRequest, completion: @escaping @Sendable (Result<UInt32, NotifierError>) -> Void
    ) {
        onGLibThread { [self] in
            guard info.withLock({ $0 != nil }) else {
                completion(.failure(.noServer(reason: "no notification server owns \(DBusNotifier.busName)")))
                return
            }
            if !request.bypassDoNotDisturb, let reason = doNotDisturbReason() {
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

    public func close(id: UInt32) {
        onGLibThread { [self] in
            var children = [g_variant_new_uint32(id)]
            let parameters = children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 1) }
            call("CloseNotification", parameters, returning: "()") { [self] result in
                if case .failure(let error) = result { logger.warning("cannot close pop-up \(id): \(error)") }
            }
        }
    }

    // MARK: - On the GLib thread: the connection

    /// Opens our own connection to the session bus and starts listening on it.
    private func connect() -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            logger.error("no D-Bus session bus: \(DBusNotifier.take(error))")
            return false
        }
        defer { g_free(address) }
        let flags = GDBusConnectionFlags(
            G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            logger.error(
                "cannot connect to the D-Bus session bus at \(String(cString: address)): \(DBusNotifier.take(error))")
            return false
        }
        self.connection = connection
        reconnectDelay = 1
        g_dbus_connection_set_exit_on_close(connection, 0)
        let me = Unmanaged.passUnretained(self).toOpaque()
        let closed: @convention(c) (OpaquePointer?, gboolean, UnsafeMutablePointer<GError>?, gpointer?) -> Void = {
            _, _, error, data in
            DBusNotifier.from(data).busClosed(reason: error?.pointee.message.map { String(cString: $0) })
        }
        closedHandler = reminderd_signal_connect(
            UnsafeMutableRawPointer(connection), "closed", unsafeBitCast(closed, to: GCallback.self), me)
        subscriptions = [
            g_dbus_connection_signal_subscribe(
                connection, nil, DBusNotifier.interface, "ActionInvoked", DBusNotifier.objectPath, nil,
                G_DBUS_SIGNAL_FLAGS_NONE,
                { _, _, _, _, _, parameters, data in DBusNotifier.from(data).actionInvoked(parameters) }, me, nil),
            g_dbus_connection_signal_subscribe(
                connection, nil, DBusNotifier.interface, "NotificationClosed", DBusNotifier.objectPath, nil,
                G_DBUS_SIGNAL_FLAGS_NONE,
                { _, _, _, _, _, parameters, data in DBusNotifier.from(data).notificationClosed(parameters) }, me,
                nil),
            // Do-not-disturb may change: the server's `Inhibited` property, dunst's `paused`.
            g_dbus_connection_signal_subscribe(
                connection, nil, "org.freedesktop.DBus.Properties", "PropertiesChanged", DBusNotifier.objectPath, nil,
                G_DBUS_SIGNAL_FLAGS_NONE,
                { _, _, _, _, _, _, data in DBusNotifier.from(data).events?(.doNotDisturbChanged) }, me, nil),
        ]
        // Watching asks only whether the name has an owner; it never starts a server.
        watchID = g_bus_watch_name_on_connection(
            connection, DBusNotifier.busName, G_BUS_NAME_WATCHER_FLAGS_NONE,
            { _, _, _, data in DBusNotifier.from(data).serverAppeared() },
            { _, _, data in DBusNotifier.from(data).serverVanished() }, me, nil)
        return true
    }

    private func disconnect() {
        guard let connection else { return }
        if watchID != 0 { g_bus_unwatch_name(watchID) }
        watchID = 0
        for id in subscriptions { g_dbus_connection_signal_unsubscribe(connection, id) }
        subscriptions = []
        if closedHandler != 0 { g_signal_handler_disconnect(UnsafeMutableRawPointer(connection), closedHandler) }
        closedHandler = 0
        g_object_unref(UnsafeMutableRawPointer(connection))
        self.connection = nil
    }

    /// The bus went away (it was restarted, or it crashed): whatever server was on it is gone
    /// too. reminderd keeps running and connects again when the bus is back.
    private func busClosed(reason: String?) {
        logger.error("the D-Bus session bus connection closed (\(reason ?? "the bus went away")); reconnecting")
        disconnect()
        serverVanished()
        scheduleReconnect()
    }

    /// Tries to connect again after `reconnectDelay` seconds, doubling it up to 30 s; wakes only
    /// while the bus is away.
    private func scheduleReconnect() {
        let source = g_timeout_source_new_seconds(reconnectDelay)
        reconnectDelay = min(reconnectDelay * 2, DBusNotifier.longestReconnectDelay)
        g_source_set_callback(
            source,
            { data in
                let me = DBusNotifier.from(data)
                if me.connect() {
                    me.logger.notice("connected to the D-Bus session bus again")
                } else {
                    me.scheduleReconnect()
                }
                return 0
            }, Unmanaged.passUnretained(self).toOpaque(), nil)
        g_source_attach(source, context)
        g_source_unref(source)
    }

    // MARK: - On the GLib thread: the server

    /// A server took the name: it counts as there once it said what it can do.
    private func serverAppeared() {
        generation += 1
        let asked = generation
        call("GetCapabilities", nil, returning: "(as)") { [self] result in
            var capabilities: [String] = []
            switch result {
            case .success(let reply):
                if let list = g_variant_get_child_value(reply, 0) {
                    defer { g_variant_unref(list) }
                    for index in 0..<g_variant_n_children(list) {
                        capabilities.append(
                            DBusNotifier.child(list, index) { String(cString: g_variant_get_string($0, nil)) })
                    }
                }
            case .failure(let error):
                // Still a server: its pop-ups go out without buttons (with the command to type).
                logger.warning("the notification server did not say what it can do: \(error)")
            }
            call("GetServerInformation", nil, returning: "(ssss)") { [self] result in
                guard asked == generation else { return }
                var fields = ["", "", ""]
                if case .success(let reply) = result {
                    for index in 0..<3 {
                        fields[index] = DBusNotifier.child(reply, gsize(index)) {
                            String(cString: g_variant_get_string($0, nil))
                        }
                    }
                }
                info.withLock {
                    $0 = ServerInfo(name: fields[0], vendor: fields[1], version: fields[2], capabilities: capabilities)
                }
                events?(.serverAppeared)
            }
        }
    }

    private func serverVanished() {
        generation += 1
        info.withLock { $0 = nil }
        shown.removeAll()
        events?(.serverVanished)
    }

    private func actionInvoked(_ parameters: OpaquePointer?) {
        guard let parameters else { return }
        let id = DBusNotifier.child(parameters, 0, g_variant_get_uint32)
        guard shown.contains(id) else { return }
        let action = DBusNotifier.child(parameters, 1) { String(cString: g_variant_get_string($0, nil)) }
        events?(.actionInvoked(id: id, action: action))
    }

    private func notificationClosed(_ parameters: OpaquePointer?) {
        guard let parameters else { return }
        let id = DBusNotifier.child(parameters, 0, g_variant_get_uint32)
        guard shown.remove(id) != nil else { return }
        let reason = DBusNotifier.child(parameters, 1, g_variant_get_uint32)
        events?(.closed(id: id, reason: Int32(truncatingIfNeeded: reason)))
    }

    /// Calls a method of the notification server, never starting one; `handle` gets the reply
    /// (valid only during the call) or the failure in the notifier's terms.
    private func call(
        _ method: String, _ parameters: OpaquePointer?, returning replyType: String, timeout: Int32 = -1,
        _ handle: @escaping (Result<OpaquePointer, NotifierError>) -> Void
    ) {
        guard let connection else {
            if let parameters { g_variant_unref(g_variant_ref_sink(parameters)) }
            handle(.failure(.noServer(reason: "not connected to the D-Bus session bus")))
            return
        }
        let type = g_variant_type_new(replyType)  // copied by the call
        defer { g_variant_type_free(type) }
        g_dbus_connection_call(
            connection, DBusNotifier.busName, DBusNotifier.objectPath, DBusNotifier.interface, method, parameters,
            type, G_DBUS_CALL_FLAGS_NO_AUTO_START, timeout, nil,
            { source, result, data in
                let reply = Unmanaged<Box<(Result<OpaquePointer, NotifierError>) -> Void>>.fromOpaque(data!)
                    .takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                if let value = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) {
                    defer { g_variant_unref(value) }
                    reply.body(.success(value))
                } else {
                    reply.body(.failure(DBusNotifier.classify(error)))
                }
            }, Unmanaged.passRetained(Box(handle)).toOpaque())
    }

    /// A failed call in the engine's terms: no server; no answer (the server may still act on
    /// it); or a refusal.
    private static func classify(_ error: UnsafeMutablePointer<GError>?) -> NotifierError {
        guard let error else { return .refused(reason: "unknown error") }
        let remote = g_dbus_error_get_remote_error(error).map { name in
            defer { g_free(name) }
            return String(cString: name)
        }
        let timedOut = g_error_matches(error, g_io_error_quark(), gint(G_IO_ERROR_TIMED_OUT.rawValue)) != 0
        let closed = g_error_matches(error, g_io_error_quark(), gint(G_IO_ERROR_CLOSED.rawValue)) != 0
        let message = take(error)
        switch remote {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            return .noServer(reason: message)
        case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout",
            "org.freedesktop.DBus.Error.TimedOut":
            return .timedOut(reason: message)
        default:
            if timedOut { return .timedOut(reason: message) }
            if closed { return .noServer(reason: message) }
            return .refused(reason: message)
        }
    }

    /// `Notify`'s `(susssasa{sv}i)`.
    private func notifyParameters(_ request: NotificationRequest) -> OpaquePointer? {
        let actions = DBusNotifier.builder("as")
        for action in request.actions {
            g_variant_builder_add_value(actions, g_variant_new_string(action.key))
            g_variant_builder_add_value(actions, g_variant_new_string(action.label))
        }
        let hints = DBusNotifier.builder("a{sv}")
        func hint(_ key: String, _ value: OpaquePointer?) {
            g_variant_builder_add_value(
                hints, g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value)))
        }
        let urgency: UInt8
        switch request.urgency {
        case .low: urgency = 0
        case .normal: urgency = 1
        case .critical: urgency = 2
        }
        hint("urgency", g_variant_new_byte(urgency))
        hint("category", g_variant_new_string(request.category))
        hint("desktop-entry", g_variant_new_string("reminderd"))
        if request.resident { hint("resident", g_variant_new_boolean(1)) }
        var children = [
            g_variant_new_string(applicationName), g_variant_new_uint32(request.replacesId),
            g_variant_new_string(DBusNotifier.iconName),
            g_variant_new_string(request.summary), g_variant_new_string(request.body), g_variant_builder_end(actions),
            g_variant_builder_end(hints), g_variant_new_int32(request.timeoutMilliseconds),
        ]
        g_variant_builder_unref(actions)
        g_variant_builder_unref(hints)
        return children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    // MARK: - On the GLib thread: do-not-disturb

    /// Hears when GNOME's `show-banners` setting changes.
    private func watchGnomeSettings() {
        guard let source = g_settings_schema_source_get_default(),
            let schema = g_settings_schema_source_lookup(source, "org.gnome.desktop.notifications", 1)
        else { return }
        g_settings_schema_unref(schema)
        // GSettings' dconf backend talks over GLib's shared session-bus connection, which by
        // default raises SIGTERM when the bus closes: reminderd would stop (and exit 0, so
        // systemd would not restart it). Its own connection reconnects instead.
        var error: UnsafeMutablePointer<GError>?
        if let shared = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) {
            g_dbus_connection_set_exit_on_close(shared, 0)
            sharedConnection = shared
        } else {
            DBusNotifier.take(error)
        }
        gnomeSettings = g_settings_new("org.gnome.desktop.notifications")
        let changed: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, gpointer?) -> Void = { _, _, data in
            DBusNotifier.from(data).events?(.doNotDisturbChanged)
        }
        if let gnomeSettings {
            reminderd_signal_connect(
                UnsafeMutableRawPointer(gnomeSettings), "changed::show-banners",
                unsafeBitCast(changed, to: GCallback.self), Unmanaged.passUnretained(self).toOpaque())
        }
    }

    /// Why the desktop is in do-not-disturb, or nil: the server's `Inhibited` property, dunst's
    /// `paused`, or GNOME's `show-banners` turned off.
    private func doNotDisturbReason() -> String? {
        if boolProperty("org.freedesktop.Notifications", "Inhibited") == true {
            return "the notification server is inhibited"
        }
        if boolProperty("org.dunstproject.cmd0", "paused") == true { return "dunst is paused" }
        if let gnomeSettings, g_settings_get_boolean(gnomeSettings, "show-banners") == 0 {
            return "GNOME's notification banners are off"
        }
        return nil
    }

    /// A boolean property of the notification server's object, or nil when it has none.
    private func boolProperty(_ interface: String, _ name: String) -> Bool? {
        guard let connection else { return nil }
        var children = [g_variant_new_string(interface), g_variant_new_string(name)]
        let parameters = children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 2) }
        var error: UnsafeMutablePointer<GError>?
        guard
            let reply = g_dbus_connection_call_sync(
                connection, DBusNotifier.busName, DBusNotifier.objectPath, "org.freedesktop.DBus.Properties",
                "Get", parameters, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, 1000, nil, &error)
        else {
            DBusNotifier.take(error)
            return nil
        }
        defer { g_variant_unref(reply) }
        guard let boxed = g_variant_get_child_value(reply, 0) else { return nil }
        defer { g_variant_unref(boxed) }
        guard let value = g_variant_get_variant(boxed) else { return nil }
        defer { g_variant_unref(value) }
        guard g_variant_is_of_type(value, g_variant_type_checked_("b")) != 0 else { return nil }
        return g_variant_get_boolean(value) != 0
    }

    // MARK: - Helpers

    /// Runs `body` on the GLib thread.
    private func onGLibThread(_ body: @escaping () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        g_main_context_invoke(
            context,
            { data in
                let box = Unmanaged<Box<() -> Void>>.fromOpaque(data!).takeRetainedValue()
                box.body()
                return 0
            }, box)
    }

    private final class Box<Body> {
        let body: Body
        init(_ body: Body) { self.body = body }
    }

    /// A builder of values of `type` (a string the builder copies, so it need not outlive this).
    private static func builder(_ type: String) -> UnsafeMutablePointer<GVariantBuilder>? {
        let variantType = g_variant_type_new(type)
        defer { g_variant_type_free(variantType) }
        return g_variant_builder_new(variantType)
    }

    /// Child `index` of a tuple or array, read by `read`.
    private static func child<T>(_ value: OpaquePointer, _ index: gsize, _ read: (OpaquePointer) -> T) -> T {
        let child = g_variant_get_child_value(value, index)!
        defer { g_variant_unref(child) }
        return read(child)
    }

    private static func from(_ data: gpointer?) -> DBusNotifier {
        Unmanaged<DBusNotifier>.fromOpaque(data!).takeUnretainedValue()
    }

    /// Frees a GError, returning its message.
    @discardableResult
    private static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}
