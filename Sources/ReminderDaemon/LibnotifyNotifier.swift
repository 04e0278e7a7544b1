internal import CNotify
import Foundation
import ReminderCore
import Synchronization

/// Pop-ups through libnotify, whatever server the desktop runs.
///
/// libnotify delivers buttons and closes as GLib signals, so every libnotify call runs on one
/// dedicated thread that runs a `GMainLoop` on its own `GMainContext`; callers' requests are
/// queued onto it with `g_main_context_invoke`. Each shown `NotifyNotification` stays referenced
/// until the server closes it (libnotify drops button presses for released ones). The bus name
/// is watched, so the engine hears when a server appears or goes.
// @unchecked Sendable: `shown`, `events` and `watchID` are touched only on the GLib thread, `info` only
// behind its Mutex.
public final class LibnotifyNotifier: Notifier, @unchecked Sendable {
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private var thread: Thread?
    /// On the GLib thread only.
    private var shown: [UInt32: UnsafeMutablePointer<NotifyNotification>] = [:]
    private var events: (@Sendable (NotifierEvent) -> Void)?
    private var watchID: guint = 0
    /// The session bus, for reading do-not-disturb settings (GLib thread only).
    private var connection: OpaquePointer?
    /// GNOME's notification settings, when its schema is installed (GLib thread only).
    private var gnomeSettings: UnsafeMutablePointer<GSettings>?
    private let info = Mutex<ServerInfo?>(nil)
    private let applicationName: String

    public init(applicationName: String = "reminderd") {
        self.applicationName = applicationName
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
            notify_init(applicationName)
            refreshServerInfo()
            let me = Unmanaged.passUnretained(self).toOpaque()
            watchDoNotDisturb(me)
            watchID = g_bus_watch_name(
                G_BUS_TYPE_SESSION, "org.freedesktop.Notifications", G_BUS_NAME_WATCHER_FLAGS_NONE,
                { _, _, _, data in LibnotifyNotifier.from(data).serverChanged(appeared: true) },
                { _, _, data in LibnotifyNotifier.from(data).serverChanged(appeared: false) }, me, nil)
            g_main_loop_run(loop)
            if watchID != 0 { g_bus_unwatch_name(watchID) }
            for notification in shown.values { g_object_unref(UnsafeMutableRawPointer(notification)) }
            shown.removeAll()
            notify_uninit()
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
        onGLibThread { [self] in completion(showNow(request)) }
    }

    public func close(id: UInt32) {
        onGLibThread { [self] in
            guard let notification = shown[id] else { return }
            var error: UnsafeMutablePointer<GError>?
            if notify_notification_close(notification, &error) == 0 { LibnotifyNotifier.take(error) }
        }
    }

    // MARK: - On the GLib thread

    private func showNow(_ request: NotificationRequest) -> Result<UInt32, NotifierError> {
        if info.withLock({ $0 == nil }) { refreshServerInfo() }
        if !request.bypassDoNotDisturb, let reason = doNotDisturbReason() {
            return .failure(.inhibited(reason: reason))
        }
        guard let notification = notify_notification_new(request.summary, request.body, nil) else {
            return .failure(.refused(reason: "libnotify could not create a notification"))
        }
        let urgency: NotifyUrgency
        switch request.urgency {
        case .low: urgency = NOTIFY_URGENCY_LOW
        case .normal: urgency = NOTIFY_URGENCY_NORMAL
        case .critical: urgency = NOTIFY_URGENCY_CRITICAL
        }
        notify_notification_set_urgency(notification, urgency)
        notify_notification_set_category(notification, request.category)
        notify_notification_set_hint(notification, "desktop-entry", g_variant_new_string("reminderd"))
        notify_notification_set_timeout(notification, request.timeoutMilliseconds)
        if request.resident { notify_notification_set_hint(notification, "resident", g_variant_new_boolean(1)) }
        if request.replacesId != 0 { reminderd_notification_set_id(notification, gint(request.replacesId)) }
        let me = Unmanaged.passUnretained(self).toOpaque()
        for action in request.actions {
            notify_notification_add_action(
                notification, action.key, action.label,
                { notification, action, data in
                    guard let notification, let action else { return }
                    let id = UInt32(truncatingIfNeeded: reminderd_notification_id(notification))
                    LibnotifyNotifier.from(data).events?(.actionInvoked(id: id, action: String(cString: action)))
                }, me, nil)
        }
        let closed: @convention(c) (UnsafeMutablePointer<NotifyNotification>?, gpointer?) -> Void = {
            notification, data in
            guard let notification else { return }
            LibnotifyNotifier.from(data).closed(notification)
        }
        reminderd_signal_connect(
            UnsafeMutableRawPointer(notification), "closed", unsafeBitCast(closed, to: GCallback.self), me)
        var error: UnsafeMutablePointer<GError>?
        guard notify_notification_show(notification, &error) != 0 else {
            g_object_unref(UnsafeMutableRawPointer(notification))
            let message = LibnotifyNotifier.take(error)
            let absent = [
                "ServiceUnknown", "NameHasNoOwner", "not provided by any .service", "autolaunch", "Could not connect",
            ]
            if absent.contains(where: message.contains) {
                info.withLock { $0 = nil }
                return .failure(.noServer(reason: message))
            }
            return .failure(.refused(reason: message))
        }
        let id = UInt32(truncatingIfNeeded: reminderd_notification_id(notification))
        if let previous = shown.updateValue(notification, forKey: id), previous != notification {
            g_object_unref(UnsafeMutableRawPointer(previous))
        }
        return .success(id)
    }

    private func closed(_ notification: UnsafeMutablePointer<NotifyNotification>) {
        let id = UInt32(truncatingIfNeeded: reminderd_notification_id(notification))
        let reason = reminderd_notification_closed_reason(notification)
        if shown[id] == notification {
            shown[id] = nil
            g_object_unref(UnsafeMutableRawPointer(notification))
        }
        events?(.closed(id: id, reason: reason))
    }

    private func serverChanged(appeared: Bool) {
        if appeared {
            refreshServerInfo()
            events?(.serverAppeared)
        } else {
            info.withLock { $0 = nil }
            for notification in shown.values { g_object_unref(UnsafeMutableRawPointer(notification)) }
            shown.removeAll()
            events?(.serverVanished)
        }
    }

    /// Hears when do-not-disturb may change: the server's PropertiesChanged (the `Inhibited`
    /// property, dunst's `paused`) and GNOME's `show-banners` setting.
    private func watchDoNotDisturb(_ me: UnsafeMutableRawPointer) {
        var error: UnsafeMutablePointer<GError>?
        connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error)
        if error != nil { LibnotifyNotifier.take(error) }
        if let connection {
            g_dbus_connection_signal_subscribe(
                connection, nil, "org.freedesktop.DBus.Properties", "PropertiesChanged",
                "/org/freedesktop/Notifications", nil,
                G_DBUS_SIGNAL_FLAGS_NONE,
                { _, _, _, _, _, _, data in LibnotifyNotifier.from(data).events?(.doNotDisturbChanged) },
                me, nil)
        }
        if let source = g_settings_schema_source_get_default(),
            let schema = g_settings_schema_source_lookup(source, "org.gnome.desktop.notifications", 1)
        {
            g_settings_schema_unref(schema)
            gnomeSettings = g_settings_new("org.gnome.desktop.notifications")
            let changed: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, gpointer?) -> Void = { _, _, data in
                LibnotifyNotifier.from(data).events?(.doNotDisturbChanged)
            }
            if let gnomeSettings {
                reminderd_signal_connect(
                    UnsafeMutableRawPointer(gnomeSettings), "changed::show-banners",
                    unsafeBitCast(changed, to: GCallback.self), me)
            }
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
                connection, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                "org.freedesktop.DBus.Properties",
                "Get", parameters, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, 1000, nil, &error)
        else {
            LibnotifyNotifier.take(error)
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

    /// Asks the server for its name and capabilities (nil when none answers).
    private func refreshServerInfo() {
        var name: UnsafeMutablePointer<CChar>?
        var vendor: UnsafeMutablePointer<CChar>?
        var version: UnsafeMutablePointer<CChar>?
        var spec: UnsafeMutablePointer<CChar>?
        guard notify_get_server_info(&name, &vendor, &version, &spec) != 0 else {
            info.withLock { $0 = nil }
            return
        }
        defer { for text in [name, vendor, version, spec] { g_free(text) } }
        var capabilities: [String] = []
        var list = notify_get_server_caps()
        let head = list
        while let node = list {
            if let data = node.pointee.data {
                capabilities.append(String(cString: data.assumingMemoryBound(to: CChar.self)))
            }
            list = node.pointee.next
        }
        g_list_free_full(head, g_free)
        let server = ServerInfo(
            name: name.map { String(cString: $0) } ?? "", vendor: vendor.map { String(cString: $0) } ?? "",
            version: version.map { String(cString: $0) } ?? "", capabilities: capabilities)
        info.withLock { $0 = server }
    }

    /// Runs `body` on the GLib thread.
    private func onGLibThread(_ body: @escaping () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        g_main_context_invoke(
            context,
            { data in
                let box = Unmanaged<Box>.fromOpaque(data!).takeRetainedValue()
                box.body()
                return 0
            }, box)
    }

    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    private static func from(_ data: gpointer?) -> LibnotifyNotifier {
        Unmanaged<LibnotifyNotifier>.fromOpaque(data!).takeUnretainedValue()
    }

    /// Frees a GError, returning its message.
    @discardableResult
    private static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}
