import ReminderCore
import ReminderJSON

/// A call of `io.reminderd.Reminders`, read and checked in one place: the method, and its
/// parameters in their types with their defaults, declared once in a struct of the method's own
/// (`RequestCalls.swift`, `SyncCalls.swift`). Whether an id exists or a duration parses is the
/// engine's to say; here only the shape of the call is checked, with errors naming the parameter.
public enum ReminderRequest: Sendable, Equatable {
    case add(Add)
    case list(List)
    case get(OneItem)
    case edit(Edit)
    case remove(OneItem)
    case done(Done)
    case undo(OneItem)
    case snooze(Snooze)
    case upcoming(Upcoming)
    case explain(OneItem)
    case history(History)
    case summary
    case status
    case pause(Pause)
    case resume
    case reload
    case importItems(Import)
    case export(Export)
    case calendar(Calendar)
    case report(Report)
    /// A sample reminder's pop-up now, whatever the hour (`reminderctl try`).
    case showSample
    case syncBegin(SyncBegin)
    case syncPulled(SyncPulled)
    case syncPending(SyncPending)
    case syncPushed(SyncPushed)
    case syncReport(SyncReport)
    case syncStatus
    case syncWait
    case syncNow

    /// Reads `parameters` as a call of `method`, refusing an unknown parameter or one of the
    /// wrong type with `InvalidParameter`.
    public init(_ method: ReminderMethod, _ parameters: [String: JSONValue]) throws(VarlinkError) {
        let p = parameters
        switch method {
        case .add: self = .add(try Add(parameters: p))
        case .list: self = .list(try List(parameters: p))
        case .get: self = .get(try OneItem(parameters: p))
        case .edit: self = .edit(try Edit(parameters: p))
        case .remove: self = .remove(try OneItem(parameters: p))
        case .done: self = .done(try Done(parameters: p))
        case .undo: self = .undo(try OneItem(parameters: p))
        case .snooze: self = .snooze(try Snooze(parameters: p))
        case .upcoming: self = .upcoming(try Upcoming(parameters: p))
        case .explain: self = .explain(try OneItem(parameters: p))
        case .history: self = .history(try History(parameters: p))
        case .pause: self = .pause(try Pause(parameters: p))
        case .importItems: self = .importItems(try Import(parameters: p))
        case .export: self = .export(try Export(parameters: p))
        case .calendar: self = .calendar(try Calendar(parameters: p))
        case .report: self = .report(try Report(parameters: p))
        case .syncBegin: self = .syncBegin(try SyncBegin(parameters: p))
        case .syncPulled: self = .syncPulled(try SyncPulled(parameters: p))
        case .syncPending: self = .syncPending(try SyncPending(parameters: p))
        case .syncPushed: self = .syncPushed(try SyncPushed(parameters: p))
        case .syncReport: self = .syncReport(try SyncReport(parameters: p))
        case .summary: self = try .bare(.summary, p)
        case .status: self = try .bare(.status, p)
        case .resume: self = try .bare(.resume, p)
        case .reload: self = try .bare(.reload, p)
        case .showSample: self = try .bare(.showSample, p)
        case .syncStatus: self = try .bare(.syncStatus, p)
        case .syncWait: self = try .bare(.syncWait, p)
        case .syncNow: self = try .bare(.syncNow, p)
        }
    }

    /// `request`, of a method that takes no parameters, once `parameters` has none.
    private static func bare(_ request: ReminderRequest, _ parameters: [String: JSONValue]) throws(VarlinkError)
        -> ReminderRequest
    {
        _ = try NoParameters(parameters: parameters)
        return request
    }

    /// The call's parameters, typed; nil for a method that takes none.
    public var call: (any CallParameters)? {
        switch self {
        case .add(let call): call
        case .list(let call): call
        case .get(let call), .remove(let call), .undo(let call), .explain(let call): call
        case .edit(let call): call
        case .done(let call): call
        case .snooze(let call): call
        case .upcoming(let call): call
        case .history(let call): call
        case .pause(let call): call
        case .importItems(let call): call
        case .export(let call): call
        case .calendar(let call): call
        case .report(let call): call
        case .syncBegin(let call): call
        case .syncPulled(let call): call
        case .syncPending(let call): call
        case .syncPushed(let call): call
        case .syncReport(let call): call
        case .summary, .status, .resume, .reload, .showSample, .syncStatus, .syncWait, .syncNow: nil
        }
    }

    /// The call's parameters as a client writes them, the names `init` reads; nil is left out.
    public var parameters: [String: JSONValue] { call?.parameters ?? [:] }

    public var method: ReminderMethod {
        switch self {
        case .add: return .add
        case .list: return .list
        case .get: return .get
        case .edit: return .edit
        case .remove: return .remove
        case .done: return .done
        case .undo: return .undo
        case .snooze: return .snooze
        case .upcoming: return .upcoming
        case .explain: return .explain
        case .history: return .history
        case .summary: return .summary
        case .status: return .status
        case .pause: return .pause
        case .resume: return .resume
        case .reload: return .reload
        case .importItems: return .importItems
        case .export: return .export
        case .calendar: return .calendar
        case .report: return .report
        case .showSample: return .showSample
        case .syncBegin: return .syncBegin
        case .syncPulled: return .syncPulled
        case .syncPending: return .syncPending
        case .syncPushed: return .syncPushed
        case .syncReport: return .syncReport
        case .syncStatus: return .syncStatus
        case .syncWait: return .syncWait
        case .syncNow: return .syncNow
        }
    }
}

extension VarlinkError {
    /// `InvalidParameter`: which parameter, and what is wrong with it.
    public static func invalidParameter(_ parameter: String, _ reason: String) -> VarlinkError {
        VarlinkError(
            name: ReminderInterface.ErrorName.invalidParameter,
            parameters: ["parameter": .string(parameter), "reason": .string(reason)])
    }

    /// `NotDurable`: a change was saved but its flush to disk failed; `reason` says so in words.
    public static func notDurable(_ reason: String) -> VarlinkError {
        VarlinkError(name: ReminderInterface.ErrorName.notDurable, parameters: ["reason": .string(reason)])
    }

    /// `InvalidConfig`: the config key (or file, or `TZ`) at fault, and why.
    public static func invalidConfig(field: String, reason: String) -> VarlinkError {
        VarlinkError(
            name: ReminderInterface.ErrorName.invalidConfig,
            parameters: ["field": .string(field), "reason": .string(reason)])
    }
}
