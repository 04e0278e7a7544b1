internal import CNotify
import ReminderCore

/// The panel indicator: a StatusNotifierItem (`org.kde.StatusNotifierItem`) whose menu is a
/// `com.canonical.dbusmenu`, exported on the notifier's own connection and registered with the
/// `org.kde.StatusNotifierWatcher` whenever one owns that name (again after it restarts). Without
/// a watcher nothing is worked out and nothing wakes up: the engine asks `indicatorHostPresent`
/// before composing. What it shows is `IndicatorView`, composed on the engine's queue
/// (`IndicatorComposer`); this only answers the host's calls from it and signals what changed.
/// All on the GLib thread but `indicatorHostPresent` and `showIndicator`.
extension DBusNotifier: IndicatorExporter {
    static let itemPath = "/StatusNotifierItem"
    static let menuPath = "/MenuBar"
    static let itemInterface = "org.kde.StatusNotifierItem"
    static let menuInterface = "com.canonical.dbusmenu"
    static let watcherName = "org.kde.StatusNotifierWatcher"
    static let watcherPath = "/StatusNotifierWatcher"
    /// The freedesktop icon a host shows while something is due today (`NeedsAttention`).
    static let attentionIconName = "appointment-soon"

    var indicatorHostPresent: Bool { watcherPresent.withLock { $0 } }

    func showIndicator(_ view: IndicatorView) {
        onGLibThread { [self] in updateIndicator(view) }
    }

    // MARK: - On the GLib thread

    /// Exports the item and its menu on `connection` and watches for a watcher to register with.
    func exportIndicator(_ connection: OpaquePointer) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        for (path, interface) in [
            (DBusNotifier.itemPath, DBusNotifier.itemInterface), (DBusNotifier.menuPath, DBusNotifier.menuInterface),
        ] {
            var error: UnsafeMutablePointer<GError>?
            let id = g_dbus_connection_register_object(
                connection, path, g_dbus_node_info_lookup_interface(IndicatorInterfaces.node, interface),
                IndicatorInterfaces.vtable, me, nil, &error)
            if id == 0 {
                logger.error("cannot export the panel indicator's \(interface) at \(path): \(GLibError.take(error))")
            } else {
                indicatorObjects.append(id)
            }
        }
        guard indicatorObjects.count == 2 else { return withdrawIndicator(connection) }
        watcherWatchID = g_bus_watch_name_on_connection(
            connection, DBusNotifier.watcherName, G_BUS_NAME_WATCHER_FLAGS_NONE,
            { _, _, _, data in DBusNotifier.from(data).watcherAppeared() },
            { _, _, data in DBusNotifier.from(data).watcherVanished() }, me, nil)
    }

    /// Undoes `exportIndicator` (the connection is closing).
    func withdrawIndicator(_ connection: OpaquePointer) {
        if watcherWatchID != 0 { g_bus_unwatch_name(watcherWatchID) }
        watcherWatchID = 0
        for id in indicatorObjects { g_dbus_connection_unregister_object(connection, id) }
        indicatorObjects = []
        if watcherPresent.withLock({ $0 }) { watcherVanished() }
    }

    /// A watcher took the name (at start, or it restarted): the item registers with it, by our
    /// unique name (the item is then at its default path, `/StatusNotifierItem`).
    private func watcherAppeared() {
        guard let connection, let unique = g_dbus_connection_get_unique_name(connection) else { return }
        var children = [g_variant_new_string(unique)]
        let parameters = children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 1) }
        call(
            "RegisterStatusNotifierItem", parameters, on: DBusNotifier.watcherName, of: DBusNotifier.watcherName,
            at: DBusNotifier.watcherPath, returning: "()"
        ) { [self] result in
            if case .failure(let error) = result {
                logger.warning("the panel's StatusNotifierWatcher refused the indicator: \(error)")
            } else {
                logger.info("the panel indicator is registered with the StatusNotifierWatcher")
            }
        }
        watcherPresent.withLock { $0 = true }
        events?(.indicatorHostChanged)
    }

    private func watcherVanished() {
        watcherPresent.withLock { $0 = false }
        events?(.indicatorHostChanged)
    }

    /// Keeps `view`, its entries numbered (`IndicatorMenuIds`), and signals the hosts what differs
    /// from the view before.
    func updateIndicator(_ view: IndicatorView) {
        var view = view
        view.menu = indicatorIds.assign(view.menu)
        let old = indicatorView
        indicatorView = view
        guard old != view, let connection, !indicatorObjects.isEmpty else { return }
        func emit(_ path: String, _ interface: String, _ name: String, _ parameters: OpaquePointer?) {
            var error: UnsafeMutablePointer<GError>?
            if g_dbus_connection_emit_signal(connection, nil, path, interface, name, parameters, &error) == 0 {
                logger.warning("cannot signal the panel indicator's \(name): \(GLibError.take(error))")
            }
        }
        if old?.status != view.status {
            var children = [g_variant_new_string(view.status)]
            emit(
                DBusNotifier.itemPath, DBusNotifier.itemInterface, "NewStatus",
                children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 1) })
        }
        if old?.toolTipTitle != view.toolTipTitle || old?.toolTipBody != view.toolTipBody {
            emit(DBusNotifier.itemPath, DBusNotifier.itemInterface, "NewToolTip", nil)
        }
        if old?.menu != view.menu {
            indicatorRevision &+= 1
            var children = [g_variant_new_uint32(indicatorRevision), g_variant_new_int32(0)]
            emit(
                DBusNotifier.menuPath, DBusNotifier.menuInterface, "LayoutUpdated",
                children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 2) })
        }
    }

    /// The signature of each method's arguments: a call with others is refused (GDBus checks
    /// them against the introspection data as well; this does not rely on it).
    static let indicatorSignatures = [
        "GetLayout": "(iias)", "GetGroupProperties": "(aias)", "GetProperty": "(is)", "Event": "(isvu)",
        "EventGroup": "(a(isvu))", "AboutToShow": "(i)", "AboutToShowGroup": "(ai)", "ContextMenu": "(ii)",
        "Activate": "(ii)", "SecondaryActivate": "(ii)", "Scroll": "(is)",
    ]

    /// A method of the item or its menu, called by any program on the bus (a host, or not): its
    /// arguments are checked — their signature, then each id against the menu — and a bad one
    /// answered with a D-Bus error, never acted on.
    func indicatorCall(_ interface: String, _ method: String, _ parameters: OpaquePointer, _ invocation: OpaquePointer)
    {
        let signature = String(cString: g_variant_get_type_string(parameters))
        let expected = DBusNotifier.indicatorSignatures[method]
        guard expected == signature else {
            return g_dbus_method_invocation_return_dbus_error(
                invocation, "org.freedesktop.DBus.Error.InvalidArgs",
                "\(interface).\(method) takes \(expected ?? "no such method"), not \(signature)")
        }
        func reply(_ values: [OpaquePointer?]) {
            var values = values
            g_dbus_method_invocation_return_value(
                invocation,
                values.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) })
        }
        func int32(_ index: gsize) -> Int32 { DBusNotifier.child(parameters, index, g_variant_get_int32) }
        func idList(_ list: OpaquePointer) -> [Int32] {
            (0..<g_variant_n_children(list)).map { DBusNotifier.child(list, $0, g_variant_get_int32) }
        }
        let ids = indicatorIds
        switch (interface, method) {
        case (DBusNotifier.menuInterface, "GetLayout"):
            guard let parent = ids.live[int32(0)] else { return unknownId(invocation, int32(0)) }
            reply([g_variant_new_uint32(indicatorRevision), IndicatorVariants.layout(parent, depth: int32(1))])
        case (DBusNotifier.menuInterface, "GetGroupProperties"):
            // Ids the menu does not hold are left out, as dbusmenu says; none asked: every entry.
            let asked = DBusNotifier.child(parameters, 0, idList)
            let items =
                asked.isEmpty ? IndicatorVariants.all(ids.live[0]?.children ?? []) : asked.compactMap { ids.live[$0] }
            let array = DBusNotifier.builder("a(ia{sv})")
            for item in items {
                var pair = [g_variant_new_int32(item.id), IndicatorVariants.properties(item)]
                g_variant_builder_add_value(
                    array, pair.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 2) })
            }
            reply([g_variant_builder_end(array)])
            g_variant_builder_unref(array)
        case (DBusNotifier.menuInterface, "GetProperty"):
            guard let item = ids.live[int32(0)] else { return unknownId(invocation, int32(0)) }
            let name = DBusNotifier.child(parameters, 1, DBusNotifier.string)
            let properties = IndicatorVariants.properties(item)
            guard let value = g_variant_lookup_value(properties, name, nil) else {
                g_variant_unref(g_variant_ref_sink(properties))
                return g_dbus_method_invocation_return_dbus_error(
                    invocation, "com.canonical.dbusmenu.Error.UnknownProperty", "no property \(name) on item")
            }
            g_variant_unref(g_variant_ref_sink(properties))
            reply([g_variant_new_variant(value)])
            g_variant_unref(value)
        case (DBusNotifier.menuInterface, "Event"):
            guard menuEvent(id: int32(0), DBusNotifier.child(parameters, 1, DBusNotifier.string)) else {
                return unknownId(invocation, int32(0))
            }
            reply([])
        case (DBusNotifier.menuInterface, "EventGroup"):
            var errors: [Int32] = []
            let group = DBusNotifier.child(parameters, 0) { list in
                (0..<g_variant_n_children(list)).map { index in
                    DBusNotifier.child(list, index) {
                        (DBusNotifier.child($0, 0, g_variant_get_int32), DBusNotifier.child($0, 1, DBusNotifier.string))
                    }
                }
            }
            for (id, event) in group where !menuEvent(id: id, event) { errors.append(id) }
            // dbusmenu: an error only when every event named an unknown id.
            if !group.isEmpty && errors.count == group.count { return unknownId(invocation, errors[0]) }
            reply([IndicatorVariants.int32Array(errors)])
        case (DBusNotifier.menuInterface, "AboutToShow"):
            guard ids.live[int32(0)] != nil else { return unknownId(invocation, int32(0)) }
            reply([g_variant_new_boolean(0)])
        case (DBusNotifier.menuInterface, "AboutToShowGroup"):
            let unknown = DBusNotifier.child(parameters, 0, idList).filter { ids.live[$0] == nil }
            reply([DBusNotifier.emptyArray("ai"), IndicatorVariants.int32Array(unknown)])
        default:
            // The item's Activate, SecondaryActivate, ContextMenu and Scroll: the menu is all it offers
            // (ItemIsMenu), so a click is left to the host, which shows the menu.
            reply([])
        }
    }

    private func unknownId(_ invocation: OpaquePointer, _ id: Int32) {
        g_dbus_method_invocation_return_dbus_error(
            invocation, "com.canonical.dbusmenu.Error.UnknownId", "no menu item \(id) (the menu changed)")
    }

    /// A host's event on menu entry `id`; false when no entry ever had that id. A click runs the
    /// entry's action on the engine's queue while the menu holds it; on an entry it no longer
    /// holds, it is refused in words there (`IndicatorAction.withdrawn`). Other events (hovered,
    /// opened, closed) change nothing.
    private func menuEvent(id: Int32, _ event: String) -> Bool {
        let click = indicatorIds.click(id)
        if event == "clicked", let action = click.action { events?(.indicatorClicked(action)) }
        return click.known
    }

    /// A property of the item, read by the host (and by `GetAll`).
    func indicatorProperty(_ name: String) -> OpaquePointer? {
        let view = indicatorView
        switch name {
        case "Category": return g_variant_new_string("ApplicationStatus")
        case "Id": return g_variant_new_string(applicationName)
        case "Title": return g_variant_new_string(applicationName)
        case "Status": return g_variant_new_string(view?.status ?? "Passive")
        case "WindowId": return g_variant_new_int32(0)
        case "IconName": return g_variant_new_string(DBusNotifier.iconName)
        case "AttentionIconName": return g_variant_new_string(DBusNotifier.attentionIconName)
        case "OverlayIconName", "AttentionMovieName", "IconThemePath": return g_variant_new_string("")
        case "IconPixmap", "AttentionIconPixmap", "OverlayIconPixmap": return DBusNotifier.emptyArray("a(iiay)")
        case "ItemIsMenu": return g_variant_new_boolean(1)
        case "Menu": return g_variant_new_object_path(DBusNotifier.menuPath)
        case "ToolTip":
            var fields = [
                g_variant_new_string(DBusNotifier.iconName), DBusNotifier.emptyArray("a(iiay)"),
                g_variant_new_string(view?.toolTipTitle ?? applicationName),
                g_variant_new_string(view?.toolTipBody ?? ""),
            ]
            return fields.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 4) }
        // The menu's.
        case "Version": return g_variant_new_uint32(3)
        case "TextDirection": return g_variant_new_string("ltr")
        case "Status@menu": return g_variant_new_string("normal")
        case "IconThemePath@menu": return DBusNotifier.emptyArray("as")
        default: return nil
        }
    }

    static func emptyArray(_ type: String) -> OpaquePointer? {
        let builder = DBusNotifier.builder(type)
        defer { g_variant_builder_unref(builder) }
        return g_variant_builder_end(builder)
    }
}

/// The menu as dbusmenu's values.
enum IndicatorVariants {
    /// An item and, `depth` levels down (any negative depth: all), its children: `(ia{sv}av)`.
    static func layout(_ item: IndicatorMenuItem, depth: Int32) -> OpaquePointer? {
        let children = DBusNotifier.builder("av")
        if depth != 0 {
            for child in item.children {
                g_variant_builder_add_value(
                    children, g_variant_new_variant(layout(child, depth: depth < 0 ? -1 : depth - 1)))
            }
        }
        var fields = [g_variant_new_int32(item.id), properties(item), g_variant_builder_end(children)]
        g_variant_builder_unref(children)
        return fields.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 3) }
    }

    /// An item's properties, `a{sv}`: only those that differ from dbusmenu's defaults.
    static func properties(_ item: IndicatorMenuItem) -> OpaquePointer? {
        let dictionary = DBusNotifier.builder("a{sv}")
        defer { g_variant_builder_unref(dictionary) }
        func put(_ key: String, _ value: OpaquePointer?) {
            g_variant_builder_add_value(
                dictionary, g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value)))
        }
        if item.isSeparator {
            put("type", g_variant_new_string("separator"))
        } else if item.id != 0 {
            put("label", g_variant_new_string(item.label))
            if !item.enabled { put("enabled", g_variant_new_boolean(0)) }
        }
        if !item.children.isEmpty || item.id == 0 { put("children-display", g_variant_new_string("submenu")) }
        return g_variant_builder_end(dictionary)
    }

    /// An `ai`.
    static func int32Array(_ values: [Int32]) -> OpaquePointer? {
        let array = DBusNotifier.builder("ai")
        defer { g_variant_builder_unref(array) }
        for value in values { g_variant_builder_add_value(array, g_variant_new_int32(value)) }
        return g_variant_builder_end(array)
    }

    /// Every item below the root, depth first.
    static func all(_ items: [IndicatorMenuItem]) -> [IndicatorMenuItem] {
        items.flatMap { [$0] + all($0.children) }
    }
}
