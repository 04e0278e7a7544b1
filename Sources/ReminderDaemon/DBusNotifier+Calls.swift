internal import CNotify

/// Method calls to the notification server and the GLib plumbing under them.
extension DBusNotifier {
    /// Calls a method of the notification server (or of `destination`), never starting one; `handle` gets the reply
    /// (valid only during the call) or the failure in the notifier's terms. On the GLib thread.
    func call(
        _ method: String, _ parameters: OpaquePointer?, on interface: String = DBusNotifier.interface,
        of destination: String = DBusNotifier.busName, at path: String = DBusNotifier.objectPath,
        returning replyType: String, timeout: Int32 = -1,
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
            connection, destination, path, interface, method, parameters, type,
            G_DBUS_CALL_FLAGS_NO_AUTO_START, timeout, nil,
            { source, result, data in
                let reply = Unmanaged<Box<(Result<OpaquePointer, NotifierError>) -> Void>>.fromOpaque(data!)
                    .takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                if let value = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) {
                    defer { g_variant_unref(value) }
                    reply.body(.success(value))
                } else {
                    reply.body(.failure(NotifierError.taking(error)))
                }
            }, Unmanaged.passRetained(Box(handle)).toOpaque())
    }

    /// `Notify`'s `(susssasa{sv}i)`.
    func notifyParameters(_ request: NotificationRequest) -> OpaquePointer? {
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

    /// Runs `body` on the GLib thread.
    func onGLibThread(_ body: @escaping () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        g_main_context_invoke(
            context,
            { data in
                let box = Unmanaged<Box<() -> Void>>.fromOpaque(data!).takeRetainedValue()
                box.body()
                return 0
            }, box)
    }

    final class Box<Body> {
        let body: Body
        init(_ body: Body) { self.body = body }
    }

    /// A builder of values of `type` (a string the builder copies, so it need not outlive this).
    static func builder(_ type: String) -> UnsafeMutablePointer<GVariantBuilder>? {
        let variantType = g_variant_type_new(type)
        defer { g_variant_type_free(variantType) }
        return g_variant_builder_new(variantType)
    }

    /// Child `index` of a tuple or array, read by `read`.
    static func child<T>(_ value: OpaquePointer, _ index: gsize, _ read: (OpaquePointer) -> T) -> T {
        let child = g_variant_get_child_value(value, index)!
        defer { g_variant_unref(child) }
        return read(child)
    }

    /// A string value.
    static func string(_ value: OpaquePointer) -> String {
        String(cString: g_variant_get_string(value, nil))
    }

    /// An array of strings (`as`).
    static func strings(_ list: OpaquePointer) -> [String] {
        (0..<g_variant_n_children(list)).map { child(list, $0, string) }
    }

    static func from(_ data: gpointer?) -> DBusNotifier {
        Unmanaged<DBusNotifier>.fromOpaque(data!).takeUnretainedValue()
    }
}
