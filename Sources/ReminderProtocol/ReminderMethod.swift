import ReminderCore
import ReminderJSON

/// The methods of `io.reminderd.Reminders`, each named here once: its name on the wire (the raw
/// value), whether it only reads, and the declaration of the parameters it takes, from which the
/// interface description's parameter lists are written. Adding a method is a case here (with its
/// parameters in `RequestCalls.swift` and its case in `ReminderRequest`), its reply type, and its
/// engine function (docs/ARCHITECTURE.md).
public enum ReminderMethod: String, CaseIterable, Sendable {
    case add = "Add"
    case list = "List"
    case get = "Get"
    case edit = "Edit"
    case remove = "Remove"
    case done = "Done"
    case undo = "Undo"
    case snooze = "Snooze"
    case upcoming = "Upcoming"
    case explain = "Explain"
    case history = "History"
    case summary = "Summary"
    case status = "Status"
    case pause = "Pause"
    case resume = "Resume"
    case reload = "Reload"
    case importItems = "Import"
    case export = "Export"
    case calendar = "Calendar"
    case report = "Report"
    case showSample = "ShowSample"
    // For reminderd-sync, the process that syncs with a CalDAV server (docs/SYNC.md).
    case syncBegin = "SyncBegin"
    case syncPulled = "SyncPulled"
    case syncPending = "SyncPending"
    case syncPushed = "SyncPushed"
    case syncReport = "SyncReport"
    case syncStatus = "SyncStatus"
    case syncWait = "SyncWait"
    case syncNow = "SyncNow"

    /// The method by its full varlink name (`io.reminderd.Reminders.List`); nil for another
    /// interface's or an unknown one.
    public init?(qualifiedName: String) {
        let prefix = ReminderInterface.name + "."
        guard qualifiedName.hasPrefix(prefix) else { return nil }
        self.init(rawValue: String(qualifiedName.dropFirst(prefix.count)))
    }

    /// `io.reminderd.Reminders.<name>`, what a call carries.
    public var qualifiedName: String { "\(ReminderInterface.name).\(rawValue)" }

    /// The method only reads: it changes nothing the timer or systemd's status line depend on.
    public var isQuery: Bool {
        switch self {
        case .list, .get, .upcoming, .explain, .history, .summary, .status, .export, .calendar, .report, .showSample,
            .syncPending, .syncStatus, .syncWait, .syncNow:
            return true
        case .add, .edit, .remove, .done, .undo, .snooze, .pause, .resume, .reload, .importItems, .syncBegin,
            .syncPulled, .syncPushed, .syncReport:
            return false
        }
    }

    /// The method, when it succeeds, changes items or their state here, so reminderd-sync has
    /// changes to push. The `Sync…` methods do not: what they change came from the server. A
    /// switch without `default`, so a new method has to say.
    public var changesItems: Bool {
        switch self {
        case .add, .edit, .remove, .done, .undo, .snooze, .importItems:
            return true
        case .list, .get, .upcoming, .explain, .history, .summary, .report, .showSample, .status, .pause, .resume,
            .reload, .export, .calendar, .syncBegin, .syncPulled, .syncPending, .syncPushed, .syncReport, .syncStatus, .syncWait,
            .syncNow:
            return false
        }
    }

    /// The declaration of the parameters the method takes (`RequestCalls.swift`); any other is
    /// refused.
    public var declaration: any CallParameters.Type {
        switch self {
        case .add: ReminderRequest.Add.self
        case .list: ReminderRequest.List.self
        case .get, .remove, .undo, .explain: ReminderRequest.OneItem.self
        case .edit: ReminderRequest.Edit.self
        case .done: ReminderRequest.Done.self
        case .snooze: ReminderRequest.Snooze.self
        case .upcoming: ReminderRequest.Upcoming.self
        case .history: ReminderRequest.History.self
        case .summary, .status, .resume, .reload, .showSample, .syncStatus, .syncWait, .syncNow: NoParameters.self
        case .pause: ReminderRequest.Pause.self
        case .importItems: ReminderRequest.Import.self
        case .export: ReminderRequest.Export.self
        case .calendar: ReminderRequest.Calendar.self
        case .report: ReminderRequest.Report.self
        case .syncBegin: ReminderRequest.SyncBegin.self
        case .syncPulled: ReminderRequest.SyncPulled.self
        case .syncPending: ReminderRequest.SyncPending.self
        case .syncPushed: ReminderRequest.SyncPushed.self
        case .syncReport: ReminderRequest.SyncReport.self
        }
    }

    /// The parameters the method takes, by name.
    public var parameterNames: Set<String> { Set(declaration.parameterNames) }
}

extension VarlinkCall {
    /// A call of one of the interface's methods.
    public init(_ method: ReminderMethod, parameters: [String: JSONValue] = [:]) {
        self.init(method: method.qualifiedName, parameters: parameters)
    }
}
