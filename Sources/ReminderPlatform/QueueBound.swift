import Dispatch

/// A value that may be touched only on one serial queue, checked at run time on every access,
/// like swift-nio's `NIOLoopBoundBox`: a class that keeps some state on a queue is `Sendable`
/// through this box instead of an unchecked conformance and a "confined to …" comment that
/// nothing checks. Creating the box is allowed anywhere (set-up runs before the queue does).
/// Its value's members read through it (`running.connections`), each access checked. Here, not
/// in the daemon, so the store's group commit and its connection use it too; inlinable, so the
/// engine's hot paths pay the check and not a generic call.
@dynamicMemberLookup
public final class QueueBound<Value>: @unchecked Sendable {  // `stored` is read and written only on `queue`, checked
    public let queue: DispatchQueue
    @usableFromInline var stored: Value

    @inlinable
    public init(_ value: Value, queue: DispatchQueue) {
        self.queue = queue
        stored = value
    }

    /// The value; traps when read or written off `queue`.
    @inlinable
    public var value: Value {
        get {
            dispatchPrecondition(condition: .onQueue(queue))
            return stored
        }
        _modify {
            dispatchPrecondition(condition: .onQueue(queue))
            yield &stored
        }
    }

    /// A member of the value; traps when read or written off `queue`.
    @inlinable
    public subscript<Member>(dynamicMember member: WritableKeyPath<Value, Member>) -> Member {
        get { value[keyPath: member] }
        _modify { yield &value[keyPath: member] }
    }
}
