/// The UTC offsets of one IANA zone over time, and the spec's one rule for turning a wall-clock
/// time into an instant.
///
/// Built from a TZif file (RFC 8536) with its POSIX footer rule expanded through
/// `LocalDate.supportedYears`, so every lookup is one binary search over a flat array — fast
/// enough for `plan` to compute millions of fire times a second, and exactly the data that
/// Python's `zoneinfo` and the C library read.
public struct TimeZoneRules: Sendable, Equatable {
    public let identifier: String
    /// Instants (Unix seconds) at which the offset changes, ascending.
    let transitions: [Int64]
    /// The offset (seconds east of UTC) in force from `transitions[k]` on.
    let offsetsAfter: [Int32]
    /// The offset before the first transition.
    let initialOffset: Int32
    /// For transition k, the wall-clock span that is skipped (gap) or repeated (overlap):
    /// `[transition + min(before, after), transition + max(before, after))` in local seconds.
    let windowStart: [Int64]
    let windowEnd: [Int64]

    public static let utc = TimeZoneRules.fixed(identifier: "UTC", offset: 0)

    /// A zone with one fixed offset, such as UTC.
    public static func fixed(identifier: String, offset: Int32) -> TimeZoneRules {
        TimeZoneRules(identifier: identifier, initialOffset: offset, changes: [])
    }

    /// Builds the lookup tables from `(instant, offsetAfter)` changes, dropping changes that leave
    /// the offset as it was (a change of abbreviation or of the DST flag alone).
    init(identifier: String, initialOffset: Int32, changes: [(Int64, Int32)]) {
        var transitions: [Int64] = []
        var offsets: [Int32] = []
        var windowStart: [Int64] = []
        var windowEnd: [Int64] = []
        var current = initialOffset
        for (instant, offset) in changes where offset != current {
            if let last = transitions.last, last == instant {
                // Two changes at one instant: the later one wins.
                offsets[offsets.count - 1] = offset
                let before = offsets.count >= 2 ? offsets[offsets.count - 2] : initialOffset
                windowStart[windowStart.count - 1] = instant + Int64(min(before, offset))
                windowEnd[windowEnd.count - 1] = instant + Int64(max(before, offset))
                current = offset
                continue
            }
            transitions.append(instant)
            offsets.append(offset)
            windowStart.append(instant + Int64(min(current, offset)))
            windowEnd.append(instant + Int64(max(current, offset)))
            current = offset
        }
        self.identifier = identifier
        self.transitions = transitions
        self.offsetsAfter = offsets
        self.initialOffset = initialOffset
        self.windowStart = windowStart
        self.windowEnd = windowEnd
    }

    /// The UTC offset in seconds east at `instant`.
    public func offset(at instant: Int64) -> Int32 {
        let k = TimeZoneRules.lastIndex(in: transitions, atOrBefore: instant)
        return k < 0 ? initialOffset : offsetsAfter[k]
    }

    /// The wall-clock reading at `instant`, in local seconds (see `LocalDateTime.localSeconds`).
    public func localSeconds(at instant: Int64) -> Int64 {
        instant + Int64(offset(at: instant))
    }

    public func localDateTime(at instant: Int64) -> LocalDateTime {
        LocalDateTime(localSeconds: localSeconds(at: instant))
    }

    /// The result of resolving a wall-clock time.
    public struct Resolution: Sendable, Equatable {
        public let instant: Int64
        /// How far a time inside a DST gap was moved forward (0 when the time exists).
        public let gapShift: Int64
    }

    /// The spec's rule: a wall-clock time that does not exist means the instant the gap shifts it
    /// to (02:30 → 03:30 when 02:00 jumps to 03:00); one that occurs twice means the earlier
    /// instant. Both are "read the time with the offset in force before the change".
    public func resolve(localSeconds local: Int64) -> Resolution {
        let k = TimeZoneRules.lastIndex(in: windowStart, atOrBefore: local)
        if k < 0 { return Resolution(instant: local - Int64(initialOffset), gapShift: 0) }
        let after = offsetsAfter[k]
        if local >= windowEnd[k] { return Resolution(instant: local - Int64(after), gapShift: 0) }
        let before = k == 0 ? initialOffset : offsetsAfter[k - 1]
        let shift = after > before ? Int64(after - before) : 0
        return Resolution(instant: local - Int64(before), gapShift: shift)
    }

    public func resolve(_ dateTime: LocalDateTime) -> Resolution {
        resolve(localSeconds: dateTime.localSeconds)
    }

    /// The index of the last element of ascending `values` that is ≤ `value`, or -1.
    static func lastIndex(in values: [Int64], atOrBefore value: Int64) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let mid = (low + high) >> 1
            if values[mid] <= value { low = mid + 1 } else { high = mid }
        }
        return low - 1
    }

    /// Every offset change, for tests and for `explain`.
    public var changes: [(instant: Int64, offset: Int32)] {
        zip(transitions, offsetsAfter).map { ($0, $1) }
    }

    public static func == (lhs: TimeZoneRules, rhs: TimeZoneRules) -> Bool {
        lhs.identifier == rhs.identifier && lhs.transitions == rhs.transitions
            && lhs.offsetsAfter == rhs.offsetsAfter && lhs.initialOffset == rhs.initialOffset
    }
}
