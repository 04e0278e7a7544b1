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

    /// Keeps `view` and signals the host what differs from the view before.
    func updateIndicator(_ view: IndicatorView) {
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

    /// A method of the item or its menu, called by the host.
    func indicatorCall(_ interface: String, _ method: String, _ parameters: OpaquePointer, _ invocation: OpaquePointer)
    {
        let view = indicatorView ?? IndicatorComposer(entries: [], walletLeft: .zero, currency: "", paused: false).view
        func reply(_ values: [OpaquePointer?]) {
            var values = values
            g_dbus_method_invocation_return_value(
                invocation,
                values.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) })
        }
        func int32(_ index: gsize) -> Int32 { DBusNotifier.child(parameters, index, g_variant_get_int32) }
        switch (interface, method) {
        case (DBusNotifier.menuInterface, "GetLayout"):
            guard let parent = view.item(int32(0)) else { return unknownId(invocation, int32(0)) }
            indicatorServed = view
            reply([g_variant_new_uint32(indicatorRevision), IndicatorVariants.layout(parent, depth: int32(1))])
        case (DBusNotifier.menuInterface, "GetGroupProperties"):
            let ids = DBusNotifier.child(parameters, 0) { list in
                (0..<g_variant_n_children(list)).map { DBusNotifier.child(list, $0, g_variant_get_int32) }
            }
            let items = ids.isEmpty ? IndicatorVariants.all(view.menu) : ids.compactMap(view.item)
            let array = DBusNotifier.builder("a(ia{sv})")
            for item in items {
                var pair = [g_variant_new_int32(item.id), IndicatorVariants.properties(item)]
                g_variant_builder_add_value(
                    array, pair.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 2) })
            }
            reply([g_variant_builder_end(array)])
            g_variant_builder_unref(array)
        case (DBusNotifier.menuInterface, "GetProperty"):
            guard let item = view.item(int32(0)) else { return unknownId(invocation, int32(0)) }
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
            menuEvent(view, id: int32(0), DBusNotifier.child(parameters, 1, DBusNotifier.string))
            reply([])
        case (DBusNotifier.menuInterface, "EventGroup"):
            DBusNotifier.child(parameters, 0) { events in
                for index in 0..<g_variant_n_children(events) {
                    DBusNotifier.child(events, index) { event in
                        menuEvent(
                            view, id: DBusNotifier.child(event, 0, g_variant_get_int32),
                            DBusNotifier.child(event, 1, DBusNotifier.string))
                    }
                }
            }
            reply([DBusNotifier.emptyArray("ai")])
        case (DBusNotifier.menuInterface, "AboutToShow"):
            reply([g_variant_new_boolean(0)])
        case (DBusNotifier.menuInterface, "AboutToShowGroup"):
            reply([DBusNotifier.emptyArray("ai"), DBusNotifier.emptyArray("ai")])
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

    /// A host's event on menu item `id`: a click runs its action on the engine's queue. Ids are
    /// positions in a layout, which an item due sooner shifts: a click is read in the layout the
    /// host last fetched (it fetches again on `LayoutUpdated`), so a Done lands on the item shown.
    private func menuEvent(_ view: IndicatorView, id: Int32, _ event: String) {
        guard event == "clicked", let action = (indicatorServed ?? view).action(for: id) else { return }
        events?(.indicatorClicked(action))
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
    /// An item and, `depth` levels down (-1: all), its children: `(ia{sv}av)`.
    static func layout(_ item: IndicatorMenuItem, depth: Int32) -> OpaquePointer? {
        let children = DBusNotifier.builder("av")
        if depth != 0 {
            for child in item.children {
                g_variant_builder_add_value(children, g_variant_new_variant(layout(child, depth: depth - 1)))
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

    /// Every item below the root, depth first.
    static func all(_ items: [IndicatorMenuItem]) -> [IndicatorMenuItem] {
        items.flatMap { [$0] + all($0.children) }
    }
}

/// The interfaces' descriptions and the table of handlers GLib calls for them, made once.
enum IndicatorInterfaces {
    static let xml = """
        <node>
          <interface name="org.kde.StatusNotifierItem">
            <property name="Category" type="s" access="read"/>
            <property name="Id" type="s" access="read"/>
            <property name="Title" type="s" access="read"/>
            <property name="Status" type="s" access="read"/>
            <property name="WindowId" type="i" access="read"/>
            <property name="IconThemePath" type="s" access="read"/>
            <property name="IconName" type="s" access="read"/>
            <property name="IconPixmap" type="a(iiay)" access="read"/>
            <property name="OverlayIconName" type="s" access="read"/>
            <property name="OverlayIconPixmap" type="a(iiay)" access="read"/>
            <property name="AttentionIconName" type="s" access="read"/>
            <property name="AttentionIconPixmap" type="a(iiay)" access="read"/>
            <property name="AttentionMovieName" type="s" access="read"/>
            <property name="ToolTip" type="(sa(iiay)ss)" access="read"/>
            <property name="ItemIsMenu" type="b" access="read"/>
            <property name="Menu" type="o" access="read"/>
            <method name="ContextMenu"><arg name="x" type="i" direction="in"/><arg name="y" type="i" direction="in"/></method>
            <method name="Activate"><arg name="x" type="i" direction="in"/><arg name="y" type="i" direction="in"/></method>
            <method name="SecondaryActivate"><arg name="x" type="i" direction="in"/><arg name="y" type="i" direction="in"/></method>
            <method name="Scroll"><arg name="delta" type="i" direction="in"/><arg name="orientation" type="s" direction="in"/></method>
            <signal name="NewTitle"/>
            <signal name="NewIcon"/>
            <signal name="NewAttentionIcon"/>
            <signal name="NewOverlayIcon"/>
            <signal name="NewToolTip"/>
            <signal name="NewStatus"><arg name="status" type="s"/></signal>
          </interface>
          <interface name="com.canonical.dbusmenu">
            <property name="Version" type="u" access="read"/>
            <property name="TextDirection" type="s" access="read"/>
            <property name="Status" type="s" access="read"/>
            <property name="IconThemePath" type="as" access="read"/>
            <method name="GetLayout">
              <arg type="i" name="parentId" direction="in"/>
              <arg type="i" name="recursionDepth" direction="in"/>
              <arg type="as" name="propertyNames" direction="in"/>
              <arg type="u" name="revision" direction="out"/>
              <arg type="(ia{sv}av)" name="layout" direction="out"/>
            </method>
            <method name="GetGroupProperties">
              <arg type="ai" name="ids" direction="in"/>
              <arg type="as" name="propertyNames" direction="in"/>
              <arg type="a(ia{sv})" name="properties" direction="out"/>
            </method>
            <method name="GetProperty">
              <arg type="i" name="id" direction="in"/>
              <arg type="s" name="name" direction="in"/>
              <arg type="v" name="value" direction="out"/>
            </method>
            <method name="Event">
              <arg type="i" name="id" direction="in"/>
              <arg type="s" name="eventId" direction="in"/>
              <arg type="v" name="data" direction="in"/>
              <arg type="u" name="timestamp" direction="in"/>
            </method>
            <method name="EventGroup">
              <arg type="a(isvu)" name="events" direction="in"/>
              <arg type="ai" name="idErrors" direction="out"/>
            </method>
            <method name="AboutToShow">
              <arg type="i" name="id" direction="in"/>
              <arg type="b" name="needUpdate" direction="out"/>
            </method>
            <method name="AboutToShowGroup">
              <arg type="ai" name="ids" direction="in"/>
              <arg type="ai" name="updatesNeeded" direction="out"/>
              <arg type="ai" name="idErrors" direction="out"/>
            </method>
            <signal name="ItemsPropertiesUpdated">
              <arg type="a(ia{sv})" name="updatedProps"/>
              <arg type="a(ias)" name="removedProps"/>
            </signal>
            <signal name="LayoutUpdated">
              <arg type="u" name="revision"/>
              <arg type="i" name="parent"/>
            </signal>
            <signal name="ItemActivationRequested">
              <arg type="i" name="id"/>
              <arg type="u" name="timestamp"/>
            </signal>
          </interface>
        </node>
        """

    // nonisolated(unsafe): both are made once, never changed after, and only read (by GLib).
    nonisolated(unsafe) static let node: UnsafeMutablePointer<GDBusNodeInfo> = {
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(xml, &error) else {
            fatalError("the indicator's introspection XML does not parse: \(GLibError.take(error))")
        }
        return node
    }()

    nonisolated(unsafe) static let vtable: UnsafeMutablePointer<GDBusInterfaceVTable> = {
        let table = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)
        table.initialize(to: GDBusInterfaceVTable())
        table.pointee.method_call = { _, _, _, interface, method, parameters, invocation, data in
            DBusNotifier.from(data).indicatorCall(
                String(cString: interface!), String(cString: method!), parameters!, invocation!)
        }
        table.pointee.get_property = { _, _, _, interface, name, _, data in
            let name = String(cString: name!)
            let menu = String(cString: interface!) == DBusNotifier.menuInterface
            // The menu's Status and IconThemePath differ from the item's of the same names.
            let key = menu && (name == "Status" || name == "IconThemePath") ? name + "@menu" : name
            return DBusNotifier.from(data).indicatorProperty(key)
        }
        return table
    }()
}
