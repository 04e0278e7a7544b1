internal import CNotify

#if canImport(Glibc)
    import Glibc
#endif

/// The session-bus connection: our own, watched for the server's name and for the signals we
/// act on, and opened again when the bus comes back. All on the GLib thread.
extension DBusNotifier {
    /// Opens our own connection to the session bus and starts listening on it. A bus that is not
    /// there — no address (no `DBUS_SESSION_BUS_ADDRESS`, no `$XDG_RUNTIME_DIR/bus`, no X11 to
    /// autolaunch one), or nothing answering at it — is a state reminderd works in (reminders
    /// wait, the CLI works): it is said once, at info, until a connection succeeds, not as an
    /// error at every retry.
    func connect() -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            busAway("no D-Bus session bus (\(GLibError.take(error)))")
            return false
        }
        defer { g_free(address) }
        let flags = GDBusConnectionFlags(
            G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            busAway("no D-Bus session bus answering at \(String(cString: address)) (\(GLibError.take(error)))")
            return false
        }
        busAbsenceSaid = false
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
            subscribe(connection, DBusNotifier.interface, "ActionInvoked") { _, sender, _, _, _, parameters, data in
                DBusNotifier.from(data).actionInvoked(sender: sender, parameters)
            },
            subscribe(connection, DBusNotifier.interface, "NotificationClosed") {
                _, sender, _, _, _, parameters, data in
                DBusNotifier.from(data).notificationClosed(sender: sender, parameters)
            },
            // Do-not-disturb may change: the server's `Inhibited` property, dunst's `paused`.
            subscribe(connection, "org.freedesktop.DBus.Properties", "PropertiesChanged") {
                _, sender, _, _, _, parameters, data in
                let me = DBusNotifier.from(data)
                guard let parameters = me.fromServer(.propertiesChanged, sender: sender, parameters) else { return }
                me.serverPropertiesChanged(parameters)
            },
        ]
        // Watching asks only whether the name has an owner; it never starts a server.
        watchID = g_bus_watch_name_on_connection(
            connection, DBusNotifier.busName, G_BUS_NAME_WATCHER_FLAGS_NONE,
            { _, _, owner, data in DBusNotifier.from(data).serverAppeared(owner: owner.map { String(cString: $0) } ?? "") },
            { _, _, data in DBusNotifier.from(data).serverVanished() }, me, nil)
        if indicatorEnabled { exportIndicator(connection) }
        return true
    }

    /// Subscribes to `member` of `interface` on the notification server's object, sent by the
    /// server: the bus delivers only the name owner's for this rule, but GDBus (before 2.80)
    /// hands a signal another rule brought to every subscription whose rule names a well-known
    /// sender, so the handlers check the sender too (`fromServer`).
    private func subscribe(
        _ connection: OpaquePointer, _ interface: String, _ member: String, _ callback: GDBusSignalCallback
    ) -> guint {
        g_dbus_connection_signal_subscribe(
            connection, DBusNotifier.busName, interface, member, DBusNotifier.objectPath, nil, G_DBUS_SIGNAL_FLAGS_NONE, callback,
            Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// Says once, until a connection succeeds, that the bus is away and why.
    private func busAway(_ reason: String) {
        guard !busAbsenceSaid else { return }
        busAbsenceSaid = true
        logger.info("\(reason): pop-ups wait until a session bus is there; trying again, less and less often")
    }

    func disconnect() {
        guard let connection else { return }
        withdrawIndicator(connection)
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
    func scheduleReconnect() {
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

    /// The process of the connection `owner` ("PID start-time", `ServerInfo.process`): the bus
    /// says its PID, `/proc` when it started (a PID alone may be another process's by now).
    /// Nil when either cannot say. On the GLib thread.
    func serverProcess(_ owner: String, _ handle: @escaping (String?) -> Void) {
        var children = [g_variant_new_string(owner)]
        let parameters = children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 1) }
        call(
            "GetConnectionUnixProcessID", parameters, on: "org.freedesktop.DBus", of: "org.freedesktop.DBus",
            at: "/org/freedesktop/DBus", returning: "(u)"
        ) { result in
            guard case .success(let reply) = result else { return handle(nil) }
            let pid = DBusNotifier.child(reply, 0, g_variant_get_uint32)
            handle(DBusNotifier.startTime(of: pid).map { "\(pid) \($0)" })
        }
    }

    /// Field 22 of `/proc/PID/stat` (clock ticks after boot), read after the command name's
    /// closing parenthesis, since the name itself may hold spaces and parentheses.
    static func startTime(of pid: UInt32) -> String? {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let close = line.lastIndex(of: ")") else { return nil }
        // After ")": state is field 3, so start time (22) is the 20th.
        let fields = line[line.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? String(fields[19]) : nil
    }
}
