internal import CNotify

/// Keeps `doNotDisturbState` up to date on the GLib thread: the server's properties are read
/// when it appears and then followed through its `PropertiesChanged`; GNOME's `show-banners`
/// through GSettings' `changed` signal. A pop-up then asks no one, and the engine hears
/// `doNotDisturbChanged` only when a switch really changed.
extension DBusNotifier {
    /// Reads GNOME's `show-banners` now and whenever it changes.
    func watchGnomeSettings() {
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
            GLibError.take(error)
        }
        guard let settings = g_settings_new("org.gnome.desktop.notifications") else { return }
        gnomeSettings = settings
        let changed: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, gpointer?) -> Void = { _, _, data in
            let me = DBusNotifier.from(data)
            if me.readGnomeBanners() { me.events?(.doNotDisturbChanged) }
        }
        reminderd_signal_connect(
            UnsafeMutableRawPointer(settings), "changed::show-banners", unsafeBitCast(changed, to: GCallback.self),
            Unmanaged.passUnretained(self).toOpaque())
        // After connecting: GSettings announces changes only of a key read while a handler was on.
        readGnomeBanners()
    }

    /// Takes `show-banners` into the state (a local read, no D-Bus call); true when it changed.
    @discardableResult
    private func readGnomeBanners() -> Bool {
        guard let gnomeSettings else { return false }
        return doNotDisturbState.set(.gnomeBannersOff, g_settings_get_boolean(gnomeSettings, "show-banners") == 0)
    }

    /// Reads the server properties behind `switches` one after the other (a server without one
    /// has it off), then calls `done` with whether any changed — unless the server changed
    /// meanwhile (`asked` is the generation they were asked of).
    func readServerDoNotDisturb(
        _ switches: [DoNotDisturb.Switch], asked: Int, changed: Bool = false, _ done: @escaping (Bool) -> Void
    ) {
        guard asked == generation else { return }
        guard let setting = switches.first, let property = setting.property else {
            done(changed)
            return
        }
        var children = [g_variant_new_string(property.interface), g_variant_new_string(property.name)]
        let parameters = children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 2) }
        call("Get", parameters, on: "org.freedesktop.DBus.Properties", returning: "(v)", timeout: 1000) {
            [self] result in
            guard asked == generation else { return }
            var value = false
            if case .success(let reply) = result {
                value = DBusNotifier.child(reply, 0) { DBusNotifier.boolean(inVariant: $0) } ?? false
            }
            let now = doNotDisturbState.set(setting, value) || changed
            readServerDoNotDisturb(Array(switches.dropFirst()), asked: asked, changed: now, done)
        }
    }

    /// `PropertiesChanged(s interface, a{sv} changed, as invalidated)` from the server's object,
    /// checked to be the server's and of that type (`fromServer`).
    func serverPropertiesChanged(_ parameters: OpaquePointer) {
        let interface = DBusNotifier.child(parameters, 0, DBusNotifier.string)
        var changed: [String: Bool] = [:]
        DBusNotifier.child(parameters, 1) { dictionary in
            for index in 0..<g_variant_n_children(dictionary) {
                DBusNotifier.child(dictionary, index) { entry in
                    let name = DBusNotifier.child(entry, 0, DBusNotifier.string)
                    changed[name] = DBusNotifier.child(entry, 1) { DBusNotifier.boolean(inVariant: $0) }
                }
            }
        }
        let invalidated = DBusNotifier.child(parameters, 2, DBusNotifier.strings)
        let heard = doNotDisturbState.propertiesChanged(
            interface: interface, changed: changed, invalidated: invalidated)
        if heard.changed { events?(.doNotDisturbChanged) }
        if !heard.reread.isEmpty {
            readServerDoNotDisturb(heard.reread, asked: generation) { [self] changed in
                if changed { events?(.doNotDisturbChanged) }
            }
        }
    }

    /// The boolean inside a `v`, or nil when it holds something else.
    private static func boolean(inVariant boxed: OpaquePointer) -> Bool? {
        guard let value = g_variant_get_variant(boxed) else { return nil }
        defer { g_variant_unref(value) }
        guard g_variant_is_of_type(value, g_variant_type_checked_("b")) != 0 else { return nil }
        return g_variant_get_boolean(value) != 0
    }
}
