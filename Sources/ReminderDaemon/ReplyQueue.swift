import ReminderProtocol
import ReminderStore

/// One connection's replies, in the order its calls came, each held until the changes it shows
/// or acknowledges are settled by the group commit (SocketServer).
///
/// Each reply waits for its own flush, not for the connection's: a change pipelined behind
/// another is acknowledged only by the flush that covers it. When that flush fails, a reply that
/// acknowledges a change becomes a `NotDurable` error saying the change is saved but not
/// confirmed on disk (a retry would add it twice); any other reply goes out as it was.
///
/// Every call has its place `reserve`d when it is read (`ConnectionState`) and its reply `fill`ed
/// once the engine answered it — at once, or later for a parked call (`ParkedCall`); the replies
/// queued after it wait behind it, in call order.
struct ReplyQueue {
    private struct Entry {
        /// Nil while its call is parked.
        var reply: VarlinkReply?
        var acknowledgesChange: Bool
        var settled = false
    }

    private var entries: [Entry] = []
    /// The number of `entries[0]`; numbers go on increasing as replies are taken.
    private var firstNumber = 0

    var isEmpty: Bool { entries.isEmpty }

    /// Queues `reply`; returns its number for `settle`.
    mutating func add(_ reply: VarlinkReply, acknowledgesChange: Bool) -> Int {
        entries.append(Entry(reply: reply, acknowledgesChange: acknowledgesChange))
        return firstNumber + entries.count - 1
    }

    /// Keeps the place of a call's reply until it is answered; returns its number for `fill`.
    mutating func reserve() -> Int {
        entries.append(Entry(reply: nil, acknowledgesChange: false))
        return firstNumber + entries.count - 1
    }

    /// Puts a call's reply in its place; it goes out once `settle`d, as any other.
    mutating func fill(_ number: Int, with reply: VarlinkReply, acknowledgesChange: Bool = false) {
        let index = number - firstNumber
        guard entries.indices.contains(index) else { return }
        entries[index].reply = reply
        entries[index].acknowledgesChange = acknowledgesChange
    }

    /// The call of reply `number` gets none after all: the replies behind it no longer wait.
    mutating func withdraw(_ number: Int) {
        let index = number - firstNumber
        guard entries.indices.contains(index), entries[index].reply == nil else { return }
        entries[index].settled = true
    }

    /// What became of the changes reply `number` waited for. True when that turned an
    /// acknowledgement into a `NotDurable` error.
    @discardableResult
    mutating func settle(_ number: Int, _ durability: Durability) -> Bool {
        let index = number - firstNumber
        guard entries.indices.contains(index), entries[index].reply != nil else { return false }
        if case .notConfirmed(let reason) = durability, entries[index].acknowledgesChange,
            case .success? = entries[index].reply
        {
            entries[index].reply = .failure(.notDurable("saved but not confirmed on disk: \(reason)"))
            entries[index].settled = true
            return true
        }
        entries[index].settled = true
        return false
    }

    /// Removes and returns the replies that may go out now: the settled ones before the first
    /// that still waits.
    mutating func takeReady() -> [VarlinkReply] {
        let count = entries.prefix { $0.settled }.count
        guard count > 0 else { return [] }
        let ready = entries[..<count].compactMap(\.reply)
        entries.removeFirst(count)
        firstNumber += count
        return ready
    }
}
