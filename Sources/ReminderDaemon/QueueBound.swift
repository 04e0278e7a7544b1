import Dispatch

/// A value that may be touched only on one serial queue, checked at run time on every access,
/// like swift-nio's `NIOLoopBoundBox`: a class that keeps some state on a queue is `Sendable`
/// through this box instead of an `@unchecked Sendable` and a "confined to …" comment that
/// nothing checks. Creating the box is allowed anywhere (set-up runs before the queue does).
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
}
