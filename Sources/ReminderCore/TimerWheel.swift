/// A hierarchical timing wheel with one-second resolution, after tokio's: five levels of 64
/// slots (64 s, 68 min, 73 h, 194 d, 34 y) and an overflow list beyond.
///
/// It is a pure value: it never reads a clock. `advance(to:into:)` is told what time it is;
/// `nextDeadline()` says when that next matters, exactly (not a slot boundary), so a driver that
/// sleeps until then wakes only when something is due.
///
/// Entries live in parallel arrays (struct of arrays) linked by `UInt32` indices into per-slot
/// doubly linked lists, so insert and cancel are O(1), no object or closure is allocated per
/// entry, and a pending entry costs 30 bytes plus the payload's size beyond 8. A slot's level is
/// given by the highest bit in which its deadline differs from the wheel's current time; entries
/// cascade to lower levels as time reaches their slot. Handles carry a generation, so a stale
/// handle (its entry fired or was cancelled, its index reused) cancels nothing.
public struct TimerWheel<Payload: Sendable>: Sendable {
    public struct Handle: Hashable, Sendable {
        let index: UInt32
        let generation: UInt32
    }

    /// An entry that `advance` found due.
    public struct Expired: Sendable {
        public let handle: Handle
        /// Unix seconds.
        public let deadline: Int64
        public let payload: Payload
    }

    static var levelCount: Int { 5 }
    static var slotBits: UInt64 { 6 }
    static var slotMask: UInt64 { 63 }
    /// List ids: `level * 64 + slot` for slots, then the two extra lists.
    static var pendingList: UInt16 { 320 }
    static var overflowList: UInt16 { 321 }
    static var freeMarker: UInt16 { .max }
    static var none: UInt32 { .max }

    /// The wheel's notion of now: every entry in a slot has a deadline after it.
    public private(set) var elapsed: UInt64
    private var deadlines: [UInt64] = []
    private var payloads: [Payload] = []
    private var next: [UInt32] = []
    private var prev: [UInt32] = []
    private var generations: [UInt32] = []
    /// Which list an entry is on, or `freeMarker`.
    private var lists: [UInt16] = []
    private var heads = [UInt32](repeating: TimerWheel.none, count: 322)
    /// Bit s of `occupied[level]` is set when that level's slot s is non-empty.
    private var occupied = [UInt64](repeating: 0, count: 5)
    private var freeHead = TimerWheel.none
    /// The earliest overflow entry's 2^30-second block: when the wheel gets there, the overflow
    /// list is sorted back into the levels.
    private var overflowBlock: UInt64 = .max
    /// `nextDeadline()`'s answer while nothing has changed that could alter it.
    private var cachedNextDeadline: UInt64?? = .none
    public private(set) var count = 0

    /// A wheel whose current time is `now` (Unix seconds).
    public init(now: Int64) {
        elapsed = UInt64(max(now, 0))
    }

    public var isEmpty: Bool { count == 0 }

    /// Bytes held per entry slot (the arrays' element sizes), for the benchmark's memory figure.
    public static var bytesPerEntry: Int {
        MemoryLayout<UInt64>.stride + MemoryLayout<Payload>.stride + 3 * MemoryLayout<UInt32>.stride
            + MemoryLayout<UInt16>.stride
    }

    /// Allocated entry slots (the arrays' capacity), for memory accounting.
    public var capacity: Int { deadlines.capacity }

    public mutating func reserveCapacity(_ n: Int) {
        deadlines.reserveCapacity(n)
        payloads.reserveCapacity(n)
        next.reserveCapacity(n)
        prev.reserveCapacity(n)
        generations.reserveCapacity(n)
        lists.reserveCapacity(n)
    }

    /// Schedules `payload` at `deadline` (Unix seconds). A deadline at or before the wheel's
    /// current time is due at the next `advance`.
    @discardableResult
    public mutating func insert(deadline: Int64, payload: Payload) -> Handle {
        let when = UInt64(max(deadline, 0))
        let index: UInt32
        if freeHead != TimerWheel.none {
            index = freeHead
            freeHead = next[Int(index)]
            deadlines[Int(index)] = when
            payloads[Int(index)] = payload
        } else {
            index = UInt32(deadlines.count)
            precondition(index < TimerWheel.none, "TimerWheel holds at most 2^32-1 entries")
            deadlines.append(when)
            payloads.append(payload)
            next.append(TimerWheel.none)
            prev.append(TimerWheel.none)
            generations.append(0)
            lists.append(TimerWheel.freeMarker)
        }
        link(index)
        count += 1
        if case .some(let cached) = cachedNextDeadline, cached.map({ when < $0 }) ?? true {
            cachedNextDeadline = .some(when)
        }
        return Handle(index: index, generation: generations[Int(index)])
    }

    /// Removes the entry; returns its payload, or `nil` when the handle is stale.
    @discardableResult
    public mutating func cancel(_ handle: Handle) -> Payload? {
        let i = Int(handle.index)
        guard i < generations.count, generations[i] == handle.generation, lists[i] != TimerWheel.freeMarker else {
            return nil
        }
        if case .some(.some(let cached)) = cachedNextDeadline, cached == deadlines[i] {
            cachedNextDeadline = .none
        }
        unlink(handle.index)
        release(handle.index)
        return payloads[i]
    }

    /// The deadline of a pending entry, or `nil` when the handle is stale.
    public func deadline(of handle: Handle) -> Int64? {
        let i = Int(handle.index)
        guard i < generations.count, generations[i] == handle.generation, lists[i] != TimerWheel.freeMarker else {
            return nil
        }
        return Int64(deadlines[i])
    }

    /// The earliest pending deadline (Unix seconds), or `nil` when empty. It is at or before the
    /// current time for entries inserted in the past.
    public mutating func nextDeadline() -> Int64? {
        if case .some(let cached) = cachedNextDeadline { return cached.map { Int64($0) } }
        let result = computeNextDeadline()
        cachedNextDeadline = .some(result)
        return result.map { Int64($0) }
    }

    /// Moves the wheel's time to `now` and appends every entry due by then to `expired`, in
    /// deadline order. Time never goes back: an earlier `now` expires nothing.
    public mutating func advance(to now: Int64, into expired: inout [Expired]) {
        let now = UInt64(max(now, 0))
        cachedNextDeadline = .none
        // Entries inserted with deadlines already past are the earliest of all.
        let firstPending = expired.count
        while heads[Int(TimerWheel.pendingList)] != TimerWheel.none {
            let i = heads[Int(TimerWheel.pendingList)]
            unlink(i)
            retire(i, into: &expired)
        }
        expired[firstPending...].sort { $0.deadline < $1.deadline }
        while let (list, start) = firstOccupiedList(), start <= now {
            elapsed = start
            var i = heads[Int(list)]
            heads[Int(list)] = TimerWheel.none
            if list == TimerWheel.overflowList {
                overflowBlock = .max
            } else {
                occupied[Int(list >> 6)] &= ~(1 << UInt64(list & 63))
            }
            // Entries due exactly now fire; the rest move to a lower level (or stay in overflow).
            while i != TimerWheel.none {
                let following = next[Int(i)]
                if deadlines[Int(i)] <= elapsed { retire(i, into: &expired) } else { link(i) }
                i = following
            }
        }
        if now > elapsed { elapsed = now }
    }

    // MARK: - Lists

    /// The list an entry with deadline `when` belongs on, relative to `elapsed`.
    private func listFor(_ when: UInt64) -> UInt16 {
        if when <= elapsed { return TimerWheel.pendingList }
        let masked = (elapsed ^ when) | TimerWheel.slotMask
        let significant = 63 - UInt64(masked.leadingZeroBitCount)
        let level = significant / TimerWheel.slotBits
        if level >= UInt64(TimerWheel.levelCount) { return TimerWheel.overflowList }
        let slot = (when >> (level * TimerWheel.slotBits)) & TimerWheel.slotMask
        return UInt16(level << 6 | slot)
    }

    private mutating func link(_ index: UInt32) {
        let i = Int(index)
        let list = listFor(deadlines[i])
        lists[i] = list
        prev[i] = TimerWheel.none
        next[i] = heads[Int(list)]
        if next[i] != TimerWheel.none { prev[Int(next[i])] = index }
        heads[Int(list)] = index
        if list < TimerWheel.pendingList {
            occupied[Int(list >> 6)] |= 1 << UInt64(list & 63)
        } else if list == TimerWheel.overflowList {
            overflowBlock = min(overflowBlock, TimerWheel.block(of: deadlines[i]))
        }
    }

    private mutating func unlink(_ index: UInt32) {
        let i = Int(index)
        let list = lists[i]
        if prev[i] != TimerWheel.none { next[Int(prev[i])] = next[i] } else { heads[Int(list)] = next[i] }
        if next[i] != TimerWheel.none { prev[Int(next[i])] = prev[i] }
        if heads[Int(list)] == TimerWheel.none, list < TimerWheel.pendingList {
            occupied[Int(list >> 6)] &= ~(1 << UInt64(list & 63))
        } else if list == TimerWheel.overflowList, TimerWheel.block(of: deadlines[i]) == overflowBlock {
            overflowBlock = minimum(of: TimerWheel.overflowList).map(TimerWheel.block(of:)) ?? .max
        }
    }

    private mutating func release(_ index: UInt32) {
        let i = Int(index)
        lists[i] = TimerWheel.freeMarker
        generations[i] &+= 1
        next[i] = freeHead
        freeHead = index
        count -= 1
    }

    /// Hands an unlinked entry to `expired` and frees its index.
    private mutating func retire(_ index: UInt32, into expired: inout [Expired]) {
        let i = Int(index)
        expired.append(Expired(handle: Handle(index: index, generation: generations[i]), deadline: Int64(deadlines[i]), payload: payloads[i]))
        release(index)
    }

    /// The 2^30-second block a deadline falls in; entries of the current block fit the levels.
    private static func block(of when: UInt64) -> UInt64 { when & ~((1 << 30) - 1) }

    /// The non-empty slot list with the earliest slot start, and that start. Every entry on a lower
    /// level is due before any entry on a higher one, and overflow entries after all of them.
    private func firstOccupiedList() -> (UInt16, UInt64)? {
        for level in 0..<TimerWheel.levelCount where occupied[level] != 0 {
            let shift = UInt64(level) * TimerWheel.slotBits
            let current = (elapsed >> shift) & TimerWheel.slotMask
            let rotated = occupied[level].rotatedRight(by: current)
            let slot = (current + UInt64(rotated.trailingZeroBitCount)) & TimerWheel.slotMask
            let levelStart = elapsed & ~((1 << (shift + TimerWheel.slotBits)) - 1)
            return (UInt16(UInt64(level) << 6 | slot), levelStart + slot << shift)
        }
        if heads[Int(TimerWheel.overflowList)] != TimerWheel.none { return (TimerWheel.overflowList, overflowBlock) }
        return nil
    }

    private func computeNextDeadline() -> UInt64? {
        if let pending = minimum(of: TimerWheel.pendingList) { return pending }
        guard let (list, start) = firstOccupiedList() else { return nil }
        // A level-0 slot holds one second; a higher slot or the overflow list must be searched.
        return list < 64 ? start : minimum(of: list)
    }

    private func minimum(of list: UInt16) -> UInt64? {
        var i = heads[Int(list)]
        var result: UInt64?
        while i != TimerWheel.none {
            result = min(result ?? .max, deadlines[Int(i)])
            i = next[Int(i)]
        }
        return result
    }
}

extension UInt64 {
    fileprivate func rotatedRight(by n: UInt64) -> UInt64 {
        n == 0 ? self : (self >> n) | (self << (64 - n))
    }
}
