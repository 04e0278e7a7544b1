import CivilTime
import Foundation
import Logging
import ReminderCore
import ReminderJSON
import ReminderProtocol
import ReminderStore
import Synchronization
import Testing

@testable import ReminderDaemon

/// A clock the test sets: the engine reads time only through it.
final class ManualClock: Sendable {
    private let value: Mutex<Int64>
    init(_ now: Int64) { value = Mutex(now) }
    var now: Int64 { value.withLock { $0 } }
    func set(_ now: Int64) { value.withLock { $0 = now } }
}

/// A notification server the test plays: it records every pop-up, answers with increasing ids —
/// or holds the answer (a stalled server) until the test completes it with a success, a refusal
/// or a timeout — and sends the engine what a real one would: button presses, closes, the server
/// vanishing and appearing with its capabilities.
final class RecordingNotifier: Notifier, @unchecked Sendable {  // all state behind `lock`
    /// How `show` answers.
    enum Answer {
        case accept
        /// Holds the completion until `completeStalled`.
        case stall
        case fail(NotifierError)
    }

    private let lock = NSLock()
    private var shown: [NotificationRequest] = []
    private var ids: [UInt32] = []
    private var next: UInt32 = 1
    private var held: [@Sendable (Result<UInt32, NotifierError>) -> Void] = []
    private var closedIds: [UInt32] = []
    private var server: ServerInfo?
    private var answering = Answer.accept
    private var events: (@Sendable (NotifierEvent) -> Void)?
    private var holdingDoNotDisturb = false
    private var heldDoNotDisturb: [@Sendable (String?) -> Void] = []
    private var watcher = false
    private var indicatorViews: [IndicatorView] = []

    /// A server named `name` with `capabilities`, or none on the bus (nil).
    init(capabilities: [String]? = ["actions"], name: String = "test") {
        server = capabilities.map { ServerInfo(name: name, vendor: "", version: "", capabilities: $0, process: "1 1") }
    }

    /// Every pop-up asked for, in order (accepted or not).
    var requests: [NotificationRequest] { lock.withLock { shown } }
    /// The id each accepted pop-up got, in order.
    var acceptedIds: [UInt32] { lock.withLock { ids } }
    /// The ids the engine asked to close.
    var closed: [UInt32] { lock.withLock { closedIds } }
    /// How many `show` calls are held.
    var stalled: Int { lock.withLock { held.count } }
    var answer: Answer {
        get { lock.withLock { answering } }
        set { lock.withLock { answering = newValue } }
    }

    func start(events: @escaping @Sendable (NotifierEvent) -> Void) { lock.withLock { self.events = events } }

    func show(_ request: NotificationRequest, completion: @escaping @Sendable (Result<UInt32, NotifierError>) -> Void) {
        let result: Result<UInt32, NotifierError>? = lock.withLock {
            shown.append(request)
            switch answering {
            case .accept: return .success(issueId())
            case .stall:
                held.append(completion)
                return nil
            case .fail(let error): return .failure(error)
            }
        }
        if let result { completion(result) }
    }

    /// Answers the oldest held `show`: accepted (with a new id) or failed.
    func completeStalled(_ answer: Answer) {
        let (completion, result):
            ((@Sendable (Result<UInt32, NotifierError>) -> Void)?, Result<UInt32, NotifierError>) =
                lock.withLock {
                    guard !held.isEmpty else { return (nil, .failure(.refused(reason: "nothing held"))) }
                    let completion = held.removeFirst()
                    switch answer {
                    case .accept, .stall: return (completion, .success(issueId()))
                    case .fail(let error): return (completion, .failure(error))
                    }
                }
        completion?(result)
    }

    /// Must hold `lock`.
    private func issueId() -> UInt32 {
        defer { next += 1 }
        ids.append(next)
        return next
    }

    func close(id: UInt32) { lock.withLock { closedIds.append(id) } }
    func serverInfo() -> ServerInfo? { lock.withLock { server } }
    /// Whether `doNotDisturb` holds its answer until `completeDoNotDisturb` (a server slow to say).
    var holdDoNotDisturb: Bool {
        get { lock.withLock { holdingDoNotDisturb } }
        set { lock.withLock { holdingDoNotDisturb = newValue } }
    }

    func doNotDisturb(completion: @escaping @Sendable (String?) -> Void) {
        let answerNow: Bool = lock.withLock {
            if holdingDoNotDisturb { heldDoNotDisturb.append(completion) }
            return !holdingDoNotDisturb
        }
        if answerNow { completion(nil) }
    }

    /// Answers the held `doNotDisturb` questions: no do-not-disturb (nil) or why.
    func completeDoNotDisturb(_ reason: String?) {
        let held = lock.withLock {
            defer { heldDoNotDisturb.removeAll() }
            return heldDoNotDisturb
        }
        for completion in held { completion(reason) }
    }
    func stop() {}

    /// Sends the engine an event, as the GLib thread would.
    func emit(_ event: NotifierEvent) {
        let events = lock.withLock { self.events }
        events?(event)
    }

    func press(_ action: String, on id: UInt32) { emit(.actionInvoked(id: id, action: action)) }

    /// The server leaves the bus: its pop-ups are gone, held calls are never answered.
    func vanish() {
        lock.withLock {
            server = nil
            held.removeAll()
        }
        emit(.serverVanished)
    }

    /// A server takes the name and says what it can do.
    func appear(capabilities: [String] = ["actions"]) {
        lock.withLock {
            server = ServerInfo(name: "test", vendor: "", version: "", capabilities: capabilities, process: "1 1")
        }
        emit(.serverAppeared)
    }

    /// A StatusNotifierWatcher comes onto the bus (true) or leaves it, as the exporter tells.
    func watcher(present: Bool) {
        lock.withLock { watcher = present }
        emit(.indicatorHostChanged)
    }

    /// Every panel indicator view the engine handed over, in order.
    var views: [IndicatorView] { lock.withLock { indicatorViews } }
}

/// The panel indicator's exporter, as `DBusNotifier+Indicator` is one.
extension RecordingNotifier: IndicatorExporter {
    var indicatorHostPresent: Bool { lock.withLock { watcher } }
    func showIndicator(_ view: IndicatorView) { lock.withLock { indicatorViews.append(view) } }
}

/// An engine on a fresh store, a manual clock and a `RecordingNotifier`, driven the way the
/// daemon drives it (commands and `advance()` on its queue), in milliseconds.
final class EngineHarness {
    static let start: Int64 = 1_795_000_000  // 2026-11-18T11:06:40Z

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "reminderd-engine-\(UUID().uuidString)")
    let clock: ManualClock
    private(set) var notifier: RecordingNotifier
    private(set) var engine: ReminderEngine
    private(set) var configuration: Configuration
    private(set) var zone: TimeZoneRules

    init(
        notifier: RecordingNotifier = RecordingNotifier(),
        configuration: Configuration = Configuration(timeZone: "UTC", quietHours: nil), zone: TimeZoneRules = .utc
    ) throws {
        clock = ManualClock(EngineHarness.start)
        self.notifier = notifier
        self.configuration = configuration
        self.zone = zone
        engine = try EngineHarness.makeEngine(directory, clock, notifier, configuration, zone)
    }

    private static func makeEngine(
        _ directory: URL, _ clock: ManualClock, _ notifier: RecordingNotifier, _ configuration: Configuration,
        _ zone: TimeZoneRules
    ) throws -> ReminderEngine {
        let store = try ReminderStore(path: directory.appendingPathComponent("store.sqlite").path)
        let engine = ReminderEngine(
            store: store, notifier: notifier, configuration: configuration, zone: zone, clock: { clock.now },
            logger: Logger(label: "test"))
        try engine.queue.sync { try engine.start() }
        return engine
    }

    /// A new engine on the same store, as after the daemon died (the old one is simply dropped,
    /// with whatever it had in flight) and was started again — with a config edited meanwhile.
    func restart(
        notifier: RecordingNotifier = RecordingNotifier(), configuration: Configuration? = nil,
        zone: TimeZoneRules? = nil
    ) throws {
        self.notifier = notifier
        if let configuration { self.configuration = configuration }
        if let zone { self.zone = zone }
        engine = try EngineHarness.makeEngine(directory, clock, notifier, self.configuration, self.zone)
        settle()
    }

    /// `reminderctl reload` (or SIGHUP, or the system zone changing) with new settings.
    func reload(_ configuration: Configuration, zone: TimeZoneRules? = nil) {
        self.configuration = configuration
        if let zone { self.zone = zone }
        engine.queue.sync { engine.apply(configuration, zone: self.zone) }
        settle()
    }

    /// Lets everything the engine queued (completions, events) run, then checks the engine's
    /// invariants (`ReminderEngine.checkInvariant`).
    func settle() {
        engine.queue.sync {}
        engine.queue.sync {}
        #expect(engine.queue.sync { engine.checkInvariant() } == [])
    }

    /// Moves the clock `seconds` past the start and runs what came due, as the timer would.
    func advance(to seconds: Int64) {
        clock.set(EngineHarness.start + seconds)
        engine.queue.sync { engine.advance() }
        settle()
    }

    func perform(_ method: String, _ parameters: [String: JSONValue] = [:]) -> VarlinkReply {
        engine.queue.sync { engine.perform(ReminderMethod(rawValue: method)!, parameters) }
    }

    /// A coupon expiring `seconds` after the start, with reminders at `leads` before.
    func addCoupon(expiresIn seconds: Int64, leads: [String], title: String = "Deal") -> String {
        let expires = LocalDateTime(localSeconds: EngineHarness.start + seconds)
        let reply = perform(
            "Add",
            [
                "item": .object([
                    "kind": .string("coupon"), "title": .string(title), "expires": .string(expires.description),
                    "lead": .array(leads.map { .string($0) }),
                ])
            ])
        guard case .success(let parameters) = reply, case .string(let id)? = parameters["id"] else {
            Issue.record("add failed: \(reply)")
            return ""
        }
        return id
    }

    /// The item's history events, oldest first.
    func history(_ itemId: String) -> [String] {
        let reply = perform("History", ["item": .string(itemId)])
        guard case .success(let parameters) = reply, case .array(let entries)? = parameters["entries"] else {
            Issue.record("history failed: \(reply)")
            return []
        }
        return entries.reversed().compactMap { entry in
            if case .object(let fields) = entry, case .string(let event)? = fields["event"] { return event }
            return nil
        }
    }

    /// One field of `Status`.
    func status(_ field: String) -> JSONValue? {
        guard case .success(let parameters) = perform("Status"), case .object(let status)? = parameters["status"] else {
            return nil
        }
        return status[field]
    }

    /// Sends a notifier event and lets the engine handle it.
    func emit(_ event: NotifierEvent) {
        notifier.emit(event)
        settle()
    }
}

/// Runs `method` on the engine's queue, as the socket server does.
func call(_ engine: ReminderEngine, _ method: String, _ parameters: [String: JSONValue] = [:]) -> VarlinkReply {
    engine.queue.sync { engine.perform(ReminderMethod(rawValue: method)!, parameters) }
}

extension VarlinkReply {
    /// The reply as a client reads it off the socket: a streamed one written (on the engine's
    /// queue, as the server writes it) and read back as `.success`; the others as they are.
    var asRead: VarlinkReply {
        guard case .streamed = self else { return self }
        do { return try VarlinkReply(bytes: Array(bytes.dropLast())) } catch {
            Issue.record("a streamed reply does not read back: \(error)")
            return self
        }
    }
}

/// `call`'s reply when it succeeded; a failure is recorded as the test's issue.
@discardableResult
func ok(_ engine: ReminderEngine, _ method: String, _ parameters: [String: JSONValue] = [:]) -> [String: JSONValue] {
    let reply = call(engine, method, parameters)
    guard case .success(let result) = reply else {
        Issue.record("\(method) failed: \(reply)")
        return [:]
    }
    return result
}
