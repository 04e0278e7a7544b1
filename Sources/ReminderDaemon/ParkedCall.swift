import ReminderProtocol

/// A call answered later, not when it came: `SyncWait` (until reminderd-sync has work),
/// `SyncNow` (until the pass it asked for is reported), and a call put aside while another
/// program holds the store's lock (`LockedCalls`). Its connection keeps the call's place in
/// its reply order, so replies to calls made after it on that connection wait behind it — varlink
/// answers a connection's calls in order, which is why reminderd-sync holds `SyncWait` on a
/// connection of its own.
///
/// Whoever keeps the call answers it once. If the connection closes first, `drop` tells the
/// keeper (`dropped`) to forget it, so a vanished client leaves nothing behind.
public final class ParkedCall: @unchecked Sendable {  // confined to the engine's queue, as connections are
    private var deliver: ((VarlinkReply, _ acknowledgesChange: Bool) -> Void)?
    /// Set by the call's keeper: run once if the connection closes before the answer.
    var dropped: (() -> Void)?

    /// `deliver` takes the answer to where the call's reply goes (its place in the connection's
    /// replies, or a test's record).
    init(deliver: @escaping (VarlinkReply) -> Void) { self.deliver = { reply, _ in deliver(reply) } }

    /// `deliver` also hears whether the answer acknowledges a change the call made (its reply
    /// then becomes a failure should the flush of that change fail).
    init(acknowledging deliver: @escaping (VarlinkReply, _ acknowledgesChange: Bool) -> Void) {
        self.deliver = deliver
    }

    /// Not answered yet, and its connection is open.
    var isOpen: Bool { deliver != nil }

    /// Answers the call; a second answer, or one after its connection closed, goes nowhere.
    /// `acknowledgesChange`: the call changed something, which the reply confirms.
    func answer(_ reply: VarlinkReply, acknowledgesChange: Bool = false) {
        guard let deliver else { return }
        self.deliver = nil
        dropped = nil
        deliver(reply, acknowledgesChange)
    }

    /// The connection closed before the answer: the keeper forgets the call.
    func drop() {
        deliver = nil
        let dropped = self.dropped
        self.dropped = nil
        dropped?()
    }
}

/// Where a call came from, for the methods that answer later: `park` keeps the call's place in
/// the caller's replies and returns the call to answer. Asked only by a method that does park, so
/// every other call costs nothing.
public protocol CallParking {
    func park() -> ParkedCall
    /// A handle on the caller's connection that keeps no place in its replies, for a keeper
    /// that must learn when the caller goes (a sync pass ends with its connection): `dropped`
    /// runs when the connection closes; `answer`, whatever the reply, writes nothing and lets
    /// the handle go.
    func watch() -> ParkedCall
    /// The caller's connection, so that its later calls wait behind one put aside
    /// (`LockedCalls`); nil when the caller has none to name.
    var connectionID: UInt64? { get }
}

extension CallParking {
    public var connectionID: UInt64? { nil }
}
