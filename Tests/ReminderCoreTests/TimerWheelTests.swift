import ReminderCore
import ReminderTestSupport
import Testing

@Suite struct TimerWheelTests {
    let start: Int64 = 1_795_000_000  // 2026-11-18

    @Test func anEntryExpiresAtItsDeadlineAndNotBefore() {
        var wheel = TimerWheel(now: start)
        wheel.insert(deadline: start + 3 * 86_400 + 17, payload: 7)
        #expect(wheel.nextDeadline() == start + 3 * 86_400 + 17)
        var expired: [TimerWheel.Expired] = []
        wheel.advance(to: start + 3 * 86_400 + 16, into: &expired)
        #expect(expired.isEmpty)
        #expect(wheel.nextDeadline() == start + 3 * 86_400 + 17)
        wheel.advance(to: start + 3 * 86_400 + 17, into: &expired)
        #expect(expired.map(\.payload) == [7])
        #expect(wheel.isEmpty)
        #expect(wheel.nextDeadline() == nil)
    }

    @Test func cancelledAndStaleHandlesDoNothing() {
        var wheel = TimerWheel(now: start)
        let first = wheel.insert(deadline: start + 100, payload: 1)
        let cancelled = wheel.cancel(first)
        #expect(cancelled)
        let again = wheel.cancel(first)
        #expect(!again)
        let second = wheel.insert(deadline: start + 200, payload: 2)  // reuses the index
        let stale = wheel.cancel(first)
        #expect(!stale)
        #expect(wheel.deadline(of: first) == nil)
        #expect(wheel.deadline(of: second) == start + 200)
        #expect(wheel.count == 1)
    }

    @Test func cancelledEntriesNeitherFireNorCountAsNext() {
        var wheel = TimerWheel(now: start)
        let soon = wheel.insert(deadline: start + 10, payload: 1)
        wheel.insert(deadline: start + 5000, payload: 2)
        #expect(wheel.nextDeadline() == start + 10)
        let cancelled = wheel.cancel(soon)
        #expect(cancelled)
        #expect(wheel.nextDeadline() == start + 5000)
        var expired: [TimerWheel.Expired] = []
        wheel.advance(to: start + 6000, into: &expired)
        #expect(expired.map(\.payload) == [2])
    }

    @Test func manyCancelsAreSweptAndTheirSpaceReused() {
        var wheel = TimerWheel(now: start)
        for round in 0..<20 {
            let handles = (0..<10_000).map {
                wheel.insert(deadline: start + 86_400 * 100 + Int64($0), payload: UInt64(round))
            }
            for handle in handles { wheel.cancel(handle) }
        }
        #expect(wheel.isEmpty)
        #expect(wheel.capacity < 40_000)
        #expect(wheel.nextDeadline() == nil)
    }

    @Test func pastDeadlinesAreDueAtOnce() {
        var wheel = TimerWheel(now: start)
        wheel.insert(deadline: start - 3600, payload: 1)
        wheel.insert(deadline: start, payload: 2)
        #expect(wheel.nextDeadline() == start - 3600)
        var expired: [TimerWheel.Expired] = []
        wheel.advance(to: start, into: &expired)
        #expect(Set(expired.map(\.payload)) == [1, 2])
    }

    @Test func deadlinesDecadesAheadWaitInTheOverflow() {
        var wheel = TimerWheel(now: start)
        let far = start + 60 * 31_556_952  // 60 years
        wheel.insert(deadline: far, payload: 9)
        wheel.insert(deadline: start + 5, payload: 1)
        #expect(wheel.nextDeadline() == start + 5)
        var expired: [TimerWheel.Expired] = []
        wheel.advance(to: start + 5, into: &expired)
        #expect(wheel.nextDeadline() == far)
        wheel.advance(to: far - 1, into: &expired)
        #expect(expired.map(\.payload) == [1])
        wheel.advance(to: far + 10, into: &expired)
        #expect(expired.map(\.payload) == [1, 9])
    }

    @Test func aBigJumpExpiresEverythingInDeadlineOrder() {
        var wheel = TimerWheel(now: start)
        var generator = SplitMix64(seed: 42)
        var deadlines: [Int64] = []
        for i in 0..<5_000 {
            let deadline = start + Int64.random(in: 0...(400 * 86_400), using: &generator)
            deadlines.append(deadline)
            wheel.insert(deadline: deadline, payload: UInt64(i))
        }
        var expired: [TimerWheel.Expired] = []
        wheel.advance(to: start + 500 * 86_400, into: &expired)
        #expect(expired.map(\.deadline) == deadlines.sorted())
        #expect(wheel.isEmpty)
    }

    /// Random inserts, cancels and advances, checked after every step against a plain array.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func agreesWithASortedArrayReference(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var now = start + Int64.random(in: 0..<86_400, using: &generator)
        var wheel = TimerWheel(now: now)
        var reference: [UInt64: (deadline: Int64, handle: TimerWheel.Handle)] = [:]
        var nextPayload: UInt64 = 0
        // Offsets chosen to land on slot and level boundaries as well as anywhere.
        let boundaries: [Int64] = [
            0, 1, 63, 64, 65, 4095, 4096, 4097, 262_143, 262_144, 16_777_216, 1 << 30, (1 << 30) + 1, 40 * 31_556_952,
        ]
        for _ in 0..<4_000 {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0...4:
                let offset: Int64
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: offset = boundaries.randomElement(using: &generator)! - (now & 63)
                case 1: offset = -Int64.random(in: 0...100_000, using: &generator)
                case 2: offset = Int64.random(in: 0...(50 * 31_556_952), using: &generator)
                default: offset = Int64.random(in: 0...(3 * 86_400), using: &generator)
                }
                let deadline = now + offset
                let handle = wheel.insert(deadline: deadline, payload: nextPayload)
                reference[nextPayload] = (deadline, handle)
                nextPayload += 1
            case 5...6:
                if let victim = reference.keys.randomElement(using: &generator) {
                    let cancelled = wheel.cancel(reference[victim]!.handle)
                    #expect(cancelled)
                    reference[victim] = nil
                }
            default:
                let step: Int64
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: step = Int64.random(in: 0...70, using: &generator)
                case 1: step = Int64.random(in: 0...(5 * 86_400), using: &generator)
                default: step = Int64.random(in: 0...(30 * 31_556_952), using: &generator)
                }
                now += step
                var expired: [TimerWheel.Expired] = []
                wheel.advance(to: now, into: &expired)
                let due = reference.filter { $0.value.deadline <= now }
                #expect(Set(expired.map(\.payload)) == Set(due.keys))
                #expect(expired.map(\.deadline) == expired.map(\.deadline).sorted())
                for payload in due.keys { reference[payload] = nil }
            }
            #expect(wheel.count == reference.count)
            let earliest = reference.values.map(\.deadline).min()
            #expect(wheel.nextDeadline() == earliest.map { max($0, 0) })
        }
    }
}
