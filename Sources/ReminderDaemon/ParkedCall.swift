import Dispatch
import ReminderPlatform
import ReminderProtocol

/// A call answered later, not when it came: `SyncWait` (until reminderd-sync has work),
/// `SyncNow` (until the pass it asked for is reported), and a call put aside while another
/// program holds the store's lock (`LockedCalls`). Its connection keeps the call's place in
/// its reply order, so replies to calls made after it on that connection wait behind it — varlink
/// answers a connection's calls in order, which is why reminderd-sync holds `SyncWait` on a
/// connection of its own.
///
/// Whoever keeps the call answers it once. If the connection closes first, `drop` tells the
/// keeper (`dropped`) to forget it, so a vanished client leaves nothing behind. It lives on the
/// engine's queue, as connections do; its state is in a box that checks so on every access.
public final class ParkedCall: Sendable {
    struct State {
        var deliver: ((VarlinkReply, _ acknowledgesChange: Bool) -> Void)?
        var dropped: (() -> Void)?
    }

    private let state: QueueBound<State>

    /// `deliver` takes the answer to where the call's reply goes (its place in the connection's
    /// replies, or a test's record); the call is answered on `queue`.
    init(on queue: DispatchQueue, deliver: @escaping (VarlinkReply) -> Void) {
        state = QueueBound(State(deliver: { reply, _ in deliver(reply) }), queue: queue)
    }

    /// `deliver` also hears whether the answer acknowledges a change the call made (its reply
    /// then becomes a failure should the flush of that change fail).
    init(on queue: DispatchQueue, acknowledging deliver: @escaping (VarlinkReply, _ acknowledgesChange: Bool) -> Void) {
        state = QueueBound(State(deliver: deliver), queue: queue)
    }

    /// Set by the call's keeper: run once if the connection closes before the answer.
    var dropped: (() -> Void)? {
        get { state.dropped }
        set { state.dropped = newValue }
    }

    /// Not answered yet, and its connection is open.
    var isOpen: Bool { state.deliver != nil }

    /// Answers the call; a second answer, or one after its connection closed, goes nowhere.
    /// `acknowledgesChange`: the call changed something, which the reply confirms.
    func answer(_ reply: VarlinkReply, acknowledgesChange: Bool = false) {
        guard let deliver = state.deliver else { return }
        state.value = State()
        deliver(reply, acknowledgesChange)
    }

    /// The connection closed before the answer: the keeper forgets the call.
    func drop() {
        let dropped = state.dropped
        state.value = State()
        dropped?()
    }
}

/// Where a call came from, for the methods that answer later: `park` keeps the call's place in
/// the caller's replies and returns the call to answer on `queue`. Asked only by a method that does park, so
/// every other call costs nothing.
public protocol CallParking {
    func park(on queue: DispatchQueue) -> ParkedCall
    /// A handle on the caller's connection that keeps no place in its replies, for a keeper
    /// that must learn when the caller goes (a sync pass ends with its connection): `dropped`
    /// runs when the connection closes; `answer`, whatever the reply, writes nothing and lets
    /// the handle go.
    func watch(on queue: DispatchQueue) -> ParkedCall
    /// The caller's connection, so that its later calls wait behind one put aside
    /// (`LockedCalls`); nil when the caller has none to name.
    var connectionID: UInt64? { get }
}

extension CallParking {
    public var connectionID: UInt64? { nil }
}
