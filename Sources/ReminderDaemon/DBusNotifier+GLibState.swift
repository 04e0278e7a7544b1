internal import CNotify
import Logging

/// A value that may be touched only on the GLib thread, checked at run time on every access as
/// `QueueBound` checks a queue: that thread owns the notifier's `GMainContext` from before it
/// first touches the value until after it last does (`g_main_context_push_thread_default`
/// acquires the context, the loop runs in it), and no other thread ever acquires it.
/// The context and its loop are GLib's thread-safe objects, made and freed here.
final class GLibBound<Value>: @unchecked Sendable {  // `stored` is read and written only by the context's owner, checked
    let context: OpaquePointer
    let loop: OpaquePointer
    private var stored: Value

    init(_ value: Value) {
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
        stored = value
    }

    deinit {
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    /// The value; traps when read or written off the thread that owns the context.
    var value: Value {
        get {
            precondition(g_main_context_is_owner(context) != 0, "GLib-thread state touched off the GLib thread")
            return stored
        }
        set {
            precondition(g_main_context_is_owner(context) != 0, "GLib-thread state touched off the GLib thread")
            stored = newValue
        }
    }
}

extension DBusNotifier {
    /// What the GLib thread keeps (`glib`); each property below reads or writes it through the check.
    struct GLibState {
        var events: (@Sendable (NotifierEvent) -> Void)?
        var connection: OpaquePointer?
        var watchID: guint = 0
        var subscriptions: [guint] = []
        var closedHandler: gulong = 0
        var reconnectDelay: guint = 1
        var busAbsenceSaid = false
        var serverOwner: String?
        var ignoredSignals = 0
        var shown: Set<UInt32> = []
        var generation = 0
        var gnomeSettings: UnsafeMutablePointer<GSettings>?
        var sharedConnection: OpaquePointer?
        var doNotDisturbState = DoNotDisturb()
        var indicatorView: IndicatorView?
        var indicatorIds = IndicatorMenuIds()
        var indicatorRevision: UInt32 = 0
        var indicatorObjects: [guint] = []
        var watcherWatchID: guint = 0
    }

    var context: OpaquePointer { glib.context }
    var loop: OpaquePointer { glib.loop }

    /// Told of the server's and the user's doings (set as the GLib thread starts).
    var events: (@Sendable (NotifierEvent) -> Void)? {
        get { glib.value.events }
        set { glib.value.events = newValue }
    }
    /// Our own session-bus connection; nil while the bus is away.
    var connection: OpaquePointer? {
        get { glib.value.connection }
        set { glib.value.connection = newValue }
    }
    var watchID: guint {
        get { glib.value.watchID }
        set { glib.value.watchID = newValue }
    }
    var subscriptions: [guint] {
        get { glib.value.subscriptions }
        set { glib.value.subscriptions = newValue }
    }
    var closedHandler: gulong {
        get { glib.value.closedHandler }
        set { glib.value.closedHandler = newValue }
    }
    var reconnectDelay: guint {
        get { glib.value.reconnectDelay }
        set { glib.value.reconnectDelay = newValue }
    }
    /// Whether the bus's absence was logged since the last connection (`connect`).
    var busAbsenceSaid: Bool {
        get { glib.value.busAbsenceSaid }
        set { glib.value.busAbsenceSaid = newValue }
    }
    /// The unique name that owns `busName` now: only its signals are taken (`+Signals`).
    var serverOwner: String? {
        get { glib.value.serverOwner }
        set { glib.value.serverOwner = newValue }
    }
    /// Signals ignored as not the server's or not as documented (`+Signals`).
    var ignoredSignals: Int {
        get { glib.value.ignoredSignals }
        set { glib.value.ignoredSignals = newValue }
    }
    /// Ids of our pop-ups on screen: the server's signals reach every client, so others' are
    /// ignored.
    var shown: Set<UInt32> {
        get { glib.value.shown }
        set { glib.value.shown = newValue }
    }
    /// Bumped whenever the server changes, so a late answer about the previous one is ignored.
    var generation: Int {
        get { glib.value.generation }
        set { glib.value.generation = newValue }
    }
    /// GNOME's notification settings, when its schema is installed.
    var gnomeSettings: UnsafeMutablePointer<GSettings>? {
        get { glib.value.gnomeSettings }
        set { glib.value.gnomeSettings = newValue }
    }
    /// GLib's shared session-bus connection, held so it stays set not to exit on close.
    var sharedConnection: OpaquePointer? {
        get { glib.value.sharedConnection }
        set { glib.value.sharedConnection = newValue }
    }
    var doNotDisturbState: DoNotDisturb {
        get { glib.value.doNotDisturbState }
        set { glib.value.doNotDisturbState = newValue }
    }
    /// The panel indicator (`+Indicator`): what it shows (nil until the engine first says), its
    /// menu's ids (stable while an entry is shown, whichever host fetched when), layout revision,
    /// registered objects and the watch on the StatusNotifierWatcher's name.
    var indicatorView: IndicatorView? {
        get { glib.value.indicatorView }
        set { glib.value.indicatorView = newValue }
    }
    var indicatorIds: IndicatorMenuIds {
        get { glib.value.indicatorIds }
        set { glib.value.indicatorIds = newValue }
    }
    var indicatorRevision: UInt32 {
        get { glib.value.indicatorRevision }
        set { glib.value.indicatorRevision = newValue }
    }
    var indicatorObjects: [guint] {
        get { glib.value.indicatorObjects }
        set { glib.value.indicatorObjects = newValue }
    }
    var watcherWatchID: guint {
        get { glib.value.watcherWatchID }
        set { glib.value.watcherWatchID = newValue }
    }
}
