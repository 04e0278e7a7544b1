import Dispatch
import ReminderCore
import ReminderJSON
import ReminderProtocol
import Testing

@testable import ReminderDaemon

/// A client connection the test plays, for calls the engine parks (`SyncWait`, `SyncNow`): each
/// parked call's answer is recorded; `close` drops the unanswered ones and the watches (a pass
/// begun on it), as a closed socket does.
final class ParkingCaller: CallParking, @unchecked Sendable {  // touched on the engine queue, or by the test between its queue.sync calls
    private var calls: [ParkedCall] = []
    private var watches: [ParkedCall] = []
    /// The answers to its parked calls, in the order they came.
    private(set) var answers: [VarlinkReply] = []

    func park(on queue: DispatchQueue) -> ParkedCall {
        let call = ParkedCall(on: queue) { [weak self] reply in self?.answers.append(reply) }
        calls.append(call)
        return call
    }

    /// Its calls parked and not answered yet.
    var open: Int { calls.filter(\.isOpen).count }

    func watch(on queue: DispatchQueue) -> ParkedCall {
        let watch = ParkedCall(on: queue) { _ in }
        watches.append(watch)
        return watch
    }

    func close() {
        for call in calls + watches { call.drop() }
    }
}

extension ReminderEngine {
    /// A call from a one-off client that cannot wait, for the tests of every method but the
    /// parked ones (they are called with a `ParkingCaller`); a parked call is the test's failure.
    /// Its connection closes after the reply, so a pass it began is over at once.
    func perform(_ method: ReminderMethod, _ parameters: [String: JSONValue]) -> VarlinkReply {
        let caller = ParkingCaller()
        defer { caller.close() }
        guard let reply = perform(method, parameters, caller: caller) else {
            Issue.record("\(method.rawValue) was parked; call it with a ParkingCaller")
            return .failure(VarlinkError(name: "test.Parked", parameters: [:]))
        }
        return reply.asRead
    }
}

extension EngineHarness {
    /// Calls `method` from `caller` on the engine's queue: its reply, or nil when it was parked.
    func perform(_ method: String, from caller: ParkingCaller) -> VarlinkReply? {
        let reply = engine.queue.sync { engine.perform(ReminderMethod(rawValue: method)!, [:], caller: caller) }
        settle()
        return reply
    }

    /// Closes `caller` on the engine's queue, as the socket server does when a client goes.
    func close(_ caller: ParkingCaller) {
        engine.queue.sync { caller.close() }
        settle()
    }

    /// `SyncBegin` from `caller`, as reminderd-sync starts a pass on its connection for calls.
    func begin(from caller: ParkingCaller) {
        let parameters: [String: JSONValue] = [
            "collection": .string("https://dav.example/alice/reminderd/"), "account": .string("alice@dav.example"),
        ]
        let reply = engine.queue.sync { engine.perform(.syncBegin, parameters, caller: caller) }
        #expect(reply.map { if case .success = $0 { true } else { false } } == true)
        settle()
    }

    /// `SyncReport` with `error`, as reminderd-sync sends at the end of a pass.
    func report(error: String?) {
        let reply = perform("SyncReport", error.map { ["error": .string($0)] } ?? [:])
        #expect(reply == .success([:]))
        settle()
    }
}

/// `SyncWait`'s answer.
func waitReply(_ reason: SyncWaitReply.Reason, _ uids: [String] = []) -> VarlinkReply {
    .success(SyncWaitReply(reason: reason, uids: uids).parameters)
}

/// `SyncFailed` with `reason`.
func syncFailed(_ reason: Wording) -> VarlinkReply {
    .failure(
        VarlinkError(name: ReminderInterface.ErrorName.syncFailed, parameters: VarlinkError.reasonParameters(reason)))
}
