import ReminderCore

/// A pop-up to show: the text of `NotificationText` plus what the server needs.
public struct NotificationRequest: Sendable, Equatable {
    public var summary: String
    public var body: String
    public var urgency: NotificationText.Urgency
    public var category: String
    /// `(key, label)` pairs: `done`, `snooze-1h`, …, `snooze-last-minute`, `undo`.
    public var actions: [(key: String, label: String)]
    /// The server id of the pop-up this one replaces (0 for a new one).
    public var replacesId: UInt32
    /// Milliseconds; -1 = the server's default, 0 = until dismissed.
    public var timeoutMilliseconds: Int32
    /// Keep the pop-up after a button is pressed (servers with `persistence`).
    public var resident: Bool
    /// Show even when the desktop is in do-not-disturb: a reminder due today (critical by
    /// `NotificationText`'s rule, whatever urgency the server is sent), a group with one such.
    public var bypassDoNotDisturb: Bool

    public init(
        summary: String, body: String, urgency: NotificationText.Urgency, category: String,
        actions: [(key: String, label: String)] = [], replacesId: UInt32 = 0, timeoutMilliseconds: Int32 = -1,
        resident: Bool = false, bypassDoNotDisturb: Bool = true
    ) {
        self.summary = summary
        self.body = body
        self.urgency = urgency
        self.category = category
        self.actions = actions
        self.replacesId = replacesId
        self.timeoutMilliseconds = timeoutMilliseconds
        self.resident = resident
        self.bypassDoNotDisturb = bypassDoNotDisturb
    }

    public static func == (a: NotificationRequest, b: NotificationRequest) -> Bool {
        a.summary == b.summary && a.body == b.body && a.urgency == b.urgency && a.category == b.category
            && a.actions.map(\.key) == b.actions.map(\.key) && a.actions.map(\.label) == b.actions.map(\.label)
            && a.replacesId == b.replacesId && a.timeoutMilliseconds == b.timeoutMilliseconds
            && a.resident == b.resident && a.bypassDoNotDisturb == b.bypassDoNotDisturb
    }
}

/// What the notification server told us.
public enum NotifierEvent: Sendable, Equatable {
    /// A button was pressed on pop-up `id`.
    case actionInvoked(id: UInt32, action: String)
    /// Pop-up `id` closed: 1 expired, 2 dismissed by the user, 3 closed by a call, 4 other.
    case closed(id: UInt32, reason: Int32)
    /// A server took the bus name (again); pending reminders can go out.
    case serverAppeared
    case serverVanished
    /// The desktop's do-not-disturb may have changed (held reminders can go out if it ended).
    case doNotDisturbChanged
    /// A panel that hosts indicators (a StatusNotifierWatcher) came or went: the indicator is worked
    /// out again, or no longer.
    case indicatorHostChanged
    /// An entry of the panel indicator's menu was clicked.
    case indicatorClicked(IndicatorAction)
}

/// The server's name and what it can do.
public struct ServerInfo: Sendable, Equatable {
    public var name: String
    public var vendor: String
    public var version: String
    public var capabilities: [String]
    /// The server's process, "PID start-time" (`/proc/PID/stat`), which a restart of the server
    /// changes while its bus name and version stay; nil when the bus did not say.
    public var process: String?

    public init(name: String, vendor: String, version: String, capabilities: [String], process: String? = nil) {
        self.name = name
        self.vendor = vendor
        self.version = version
        self.capabilities = capabilities
        self.process = process
    }

    /// Who gave a pop-up its id: the same only for the same server process (ids are its own
    /// counter, started again by a restart). Nil when its process is not known.
    public var identity: String? {
        process.map { "\(name) \(vendor) \(version), process \($0)" }
    }
}

/// Why a pop-up was not shown.
public enum NotifierError: Error, Sendable, Equatable, CustomStringConvertible {
    case noServer(reason: String)
    case refused(reason: String)
    /// The desktop is in do-not-disturb; the pop-up was not sent.
    case inhibited(reason: String)
    /// The call got no answer in time: the server may show the pop-up (or already did), so it
    /// must not be sent to the same server again.
    case timedOut(reason: String)

    public var description: String {
        switch self {
        case .inhibited(let reason): return "the desktop is in do-not-disturb (\(reason))"
        case .noServer(let reason): return "no notification server: \(reason)"
        case .refused(let reason): return "the notification server refused: \(reason)"
        case .timedOut(let reason): return "the notification server did not answer: \(reason)"
        }
    }
}

/// Shows pop-ups. Completions and events may arrive on any thread; the engine hops them onto
/// its queue.
public protocol Notifier: AnyObject, Sendable {
    /// Starts watching the bus; `events` receives actions, closes and server changes.
    func start(events: @escaping @Sendable (NotifierEvent) -> Void)
    func show(_ request: NotificationRequest, completion: @escaping @Sendable (Result<UInt32, NotifierError>) -> Void)
    func close(id: UInt32)
    /// The server's name and capabilities, or nil when none is on the bus.
    func serverInfo() -> ServerInfo?
    /// Whether the desktop's own do-not-disturb is on, and by which setting.
    func doNotDisturb(completion: @escaping @Sendable (String?) -> Void)
    func stop()
}

/// The panel indicator's exporter (`DBusNotifier`), as the engine sees it.
protocol IndicatorExporter: AnyObject, Sendable {
    /// Whether a StatusNotifierWatcher is on the bus: the indicator is worked out only then.
    var indicatorHostPresent: Bool { get }
    /// Shows `view`; the exporter signals only what differs from the view shown before.
    func showIndicator(_ view: IndicatorView)
}
