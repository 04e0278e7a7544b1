/// A hierarchical timing wheel with one-second resolution, after tokio's: five levels of 64
/// slots (64 s, 68 min, 73 h, 194 d, 34 y) and an overflow list beyond.
///
/// It is a pure value: it never reads a clock. `advance(to:into:)` is told what time it is;
/// `nextDeadline()` says when that next matters, exactly (not a slot boundary), so a driver that
/// sleeps until then wakes only when something is due.
///
/// Entries live in parallel arrays (struct of arrays) linked by `UInt32` indices into per-slot
/// lists, so no object or closure is allocated per entry and a pending entry costs 24 bytes with
/// its 64-bit payload. An entry's level is given by the highest bit in which its deadline differs from
/// the wheel's current time; entries cascade to lower levels as time reaches their slot, and the
/// first non-empty slot is found from a per-level occupancy mask (rotate, count trailing zeros).
///
/// Insert is O(1). Cancel is O(1) and touches one word: it bumps the entry's generation, which
/// both invalidates its handle and leaves it in its slot as a tombstone that is freed when the
/// slot is next visited (or by a sweep once tombstones outnumber live entries, so memory stays
/// bounded). A generation is odd while its entry is pending, so a stale handle — its entry fired
/// or was cancelled, its index reused — never matches and cancels nothing.
public struct TimerWheel: Sendable {
    /// What the caller stores with an entry: an index or id of its own.
    public typealias Payload = UInt64

    public struct Handle: Hashable, Sendable {
        let index: UInt32
        let generation: UInt32

        /// A handle of no entry (its generation is even, as no pending entry's is), for a
        /// caller's slot before its entry is made.
        public static let none = Handle(index: .max, generation: 0)
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
    static var pendingList: Int { 320 }
    static var overflowList: Int { 321 }
    static var listCount: Int { 322 }
    static var none: UInt32 { .max }

    /// The wheel's notion of now: every entry in a slot has a deadline after it.
    public private(set) var elapsed: UInt64
    private var deadlines: [UInt64] = []
    private var payloads: [Payload] = []
    /// The next entry on the same list, or on the free list.
    private var next: [UInt32] = []
    /// Odd while the entry is pending; bumped when it fires or is cancelled, and on reuse.
    private var generations: [UInt32] = []
    private var heads = [UInt32](repeating: TimerWheel.none, count: TimerWheel.listCount)
    /// Bit s of `occupied[level]` is set when that level's slot s holds entries (maybe only
    /// tombstones).
    private var occupied = [UInt64](repeating: 0, count: TimerWheel.levelCount)
    private var freeHead = TimerWheel.none
    /// The 2^30-second block of the earliest overflow entry: when the wheel reaches it, the
    /// overflow list is sorted back into the levels.
    private var overflowBlock: UInt64 = .max
    /// `nextDeadline()`'s answer while nothing has changed that could alter it.
    private var cachedNextDeadline: UInt64?? = .none
    /// Cancelled entries still linked in their slots.
    private var tombstones = 0
    /// Pending entries.
    public private(set) var count = 0

    /// A wheel whose current time is `now` (Unix seconds).
    public init(now: Int64) {
        elapsed = UInt64(max(now, 0))
    }

    public var isEmpty: Bool { count == 0 }

    /// Bytes per entry slot (the arrays' element sizes), for the benchmark's memory figure.
    public static var bytesPerEntry: Int {
        2 * MemoryLayout<UInt64>.stride + 2 * MemoryLayout<UInt32>.stride
    }

    /// Allocated entry slots (the arrays' capacity), for memory accounting.
    public var capacity: Int { deadlines.capacity }

    public mutating func reserveCapacity(_ n: Int) {
        deadlines.reserveCapacity(n)
        payloads.reserveCapacity(n)
        next.reserveCapacity(n)
        generations.reserveCapacity(n)
    }

    /// Schedules `payload` at `deadline` (Unix seconds). A deadline at or before the wheel's
    /// current time is due at the next `advance`.
    @discardableResult
    public mutating func insert(deadline: Int64, payload: Payload) -> Handle {
        let when = UInt64(max(deadline, 0))
        let index: UInt32
        if freeHead != TimerWheel.none {
            index = freeHead
            let i = Int(index)
            freeHead = next[i]
            deadlines[i] = when
            payloads[i] = payload
            generations[i] &+= 1
        } else {
            index = UInt32(deadlines.count)
            precondition(index < TimerWheel.none, "TimerWheel holds at most 2^32-1 entries")
            deadlines.append(when)
            payloads.append(payload)
            next.append(TimerWheel.none)
            generations.append(1)
        }
        link(index)
        count += 1
        if case .some(let cached) = cachedNextDeadline, cached.map({ when < $0 }) ?? true {
            cachedNextDeadline = .some(when)
        }
        return Handle(index: index, generation: generations[Int(index)])
    }

    /// Cancels a pending entry; `false` when the handle is stale (fired, cancelled, reused).
    @discardableResult
    public mutating func cancel(_ handle: Handle) -> Bool {
        let i = Int(handle.index)
        guard i < generations.count, generations[i] == handle.generation else { return false }
        generations[i] &+= 1
        count -= 1
        tombstones += 1
        cachedNextDeadline = .none
        if tombstones > max(count, 4096) { sweep() }
        return true
    }

    /// The deadline of a pending entry, or `nil` when the handle is stale.
    public func deadline(of handle: Handle) -> Int64? {
        let i = Int(handle.index)
        guard i < generations.count, generations[i] == handle.generation else { return nil }
        return Int64(deadlines[i])
    }

    /// The earliest pending deadline (Unix seconds), or `nil` when empty. It is at or before the
    /// current time for entries inserted in the past.
    public mutating func nextDeadline() -> Int64? {
        if case .some(let cached) = cachedNextDeadline { return cached.map { Int64($0) } }
        var result: UInt64?
        if heads[TimerWheel.pendingList] != TimerWheel.none {
            result = purgeAndMinimum(of: TimerWheel.pendingList)
        }
        while result == nil, let (list, start) = firstOccupiedList() {
            // A level-0 slot is one second wide; a wider slot or the overflow must be searched.
            // Either way its tombstones are freed here, and a slot of only tombstones is skipped.
            if let earliest = purgeAndMinimum(of: list) { result = list < 64 ? start : earliest }
        }
        cachedNextDeadline = .some(result)
        return result.map { Int64($0) }
    }

    /// Moves the wheel's time to `now` and appends every entry due by then to `expired`, in
    /// deadline order. Time never goes back: an earlier `now` expires nothing.
    public mutating func advance(to now: Int64, into expired: inout [Expired]) {
        let now = UInt64(max(now, 0))
        cachedNextDeadline = .none
        // Entries inserted with deadlines already past are the earliest of all.
        let firstPast = expired.count
        var i = detach(TimerWheel.pendingList)
        while i != TimerWheel.none {
            let following = next[Int(i)]
            if isPending(i) { retire(i, into: &expired) } else { reclaim(i) }
            i = following
        }
        expired[firstPast...].sort { $0.deadline < $1.deadline }
        while let (list, start) = firstOccupiedList(), start <= now {
            elapsed = start
            // Entries due exactly now fire; the rest move to a lower level (or stay in overflow).
            var i = detach(list)
            while i != TimerWheel.none {
                let following = next[Int(i)]
                if !isPending(i) {
                    reclaim(i)
                } else if deadlines[Int(i)] <= elapsed {
                    retire(i, into: &expired)
                } else {
                    link(i)
                }
                i = following
            }
        }
        if now > elapsed { elapsed = now }
    }

    // MARK: - Lists

    private func isPending(_ index: UInt32) -> Bool { generations[Int(index)] & 1 == 1 }

    /// The list an entry with deadline `when` belongs on, relative to `elapsed`.
    private func listFor(_ when: UInt64) -> Int {
        if when <= elapsed { return TimerWheel.pendingList }
        let masked = (elapsed ^ when) | TimerWheel.slotMask
        let level = (63 - UInt64(masked.leadingZeroBitCount)) / TimerWheel.slotBits
        if level >= UInt64(TimerWheel.levelCount) { return TimerWheel.overflowList }
        let slot = (when >> (level * TimerWheel.slotBits)) & TimerWheel.slotMask
        return Int(level << 6 | slot)
    }

    private mutating func link(_ index: UInt32) {
        let i = Int(index)
        let list = listFor(deadlines[i])
        next[i] = heads[list]
        heads[list] = index
        if list < TimerWheel.pendingList {
            occupied[list >> 6] |= 1 << UInt64(list & 63)
        } else if list == TimerWheel.overflowList {
            overflowBlock = min(overflowBlock, TimerWheel.block(of: deadlines[i]))
        }
    }

    /// Empties a list and returns its old head.
    private mutating func detach(_ list: Int) -> UInt32 {
        let head = heads[list]
        heads[list] = TimerWheel.none
        if list < TimerWheel.pendingList {
            occupied[list >> 6] &= ~(1 << UInt64(list & 63))
        } else if list == TimerWheel.overflowList {
            overflowBlock = .max
        }
        return head
    }

    /// Puts an index on the free list.
    private mutating func release(_ index: UInt32) {
        next[Int(index)] = freeHead
        freeHead = index
    }

    /// Frees a cancelled entry found still linked in a list.
    private mutating func reclaim(_ index: UInt32) {
        tombstones -= 1
        release(index)
    }

    /// Hands a pending entry to `expired` and frees its index.
    private mutating func retire(_ index: UInt32, into expired: inout [Expired]) {
        let i = Int(index)
        expired.append(
            Expired(
                handle: Handle(index: index, generation: generations[i]), deadline: Int64(deadlines[i]),
                payload: payloads[i]))
        generations[i] &+= 1
        count -= 1
        release(index)
    }

    /// Rebuilds `list` without its tombstones and returns its earliest pending deadline.
    private mutating func purgeAndMinimum(of list: Int) -> UInt64? {
        var i = detach(list)
        var earliest: UInt64?
        while i != TimerWheel.none {
            let following = next[Int(i)]
            if isPending(i) {
                earliest = min(earliest ?? .max, deadlines[Int(i)])
                link(i)
            } else {
                reclaim(i)
            }
            i = following
        }
        return earliest
    }

    /// Frees every tombstone in every list.
    private mutating func sweep() {
        for list in 0..<TimerWheel.listCount where heads[list] != TimerWheel.none {
            _ = purgeAndMinimum(of: list)
        }
    }

    /// The 2^30-second block a deadline falls in; entries of the current block fit the levels.
    private static func block(of when: UInt64) -> UInt64 { when & ~((1 << 30) - 1) }

    /// The non-empty list with the earliest slot start, and that start. Every entry on a lower
    /// level is due before any entry on a higher one, and overflow entries after all of them.
    private func firstOccupiedList() -> (Int, UInt64)? {
        for level in 0..<TimerWheel.levelCount where occupied[level] != 0 {
            let shift = UInt64(level) * TimerWheel.slotBits
            let current = (elapsed >> shift) & TimerWheel.slotMask
            let rotated = occupied[level].rotatedRight(by: current)
            let slot = (current + UInt64(rotated.trailingZeroBitCount)) & TimerWheel.slotMask
            let levelStart = elapsed & ~((1 << (shift + TimerWheel.slotBits)) - 1)
            return (Int(UInt64(level) << 6 | slot), levelStart + slot << shift)
        }
        if heads[TimerWheel.overflowList] != TimerWheel.none { return (TimerWheel.overflowList, overflowBlock) }
        return nil
    }
}

extension UInt64 {
    fileprivate func rotatedRight(by n: UInt64) -> UInt64 {
        n == 0 ? self : (self >> n) | (self << (64 - n))
    }
}
