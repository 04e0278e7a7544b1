import Dispatch

/// A value that may be touched only on one serial queue, checked at run time on every access,
/// like swift-nio's `NIOLoopBoundBox`: a class that keeps some state on a queue is `Sendable`
/// through this box instead of an `@unchecked Sendable` and a "confined to …" comment that
/// nothing checks. Creating the box is allowed anywhere (set-up runs before the queue does).
/// Its value's members read through it (`running.connections`), each access checked.
@dynamicMemberLookup
final class QueueBound<Value>: @unchecked Sendable {  // `stored` is read and written only on `queue`, checked
    let queue: DispatchQueue
    private var stored: Value

    init(_ value: Value, queue: DispatchQueue) {
        self.queue = queue
        stored = value
    }

    /// The value; traps when read or written off `queue`.
    var value: Value {
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
    subscript<Member>(dynamicMember member: WritableKeyPath<Value, Member>) -> Member {
        get { value[keyPath: member] }
        _modify { yield &value[keyPath: member] }
    }
}
