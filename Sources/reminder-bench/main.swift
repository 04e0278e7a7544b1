// reminder-bench: the scheduling core's speed and memory, each figure beside its baseline
// measured in the same run, printed as a table with ratios and the targets they are held to.
//
//     swift run -c release reminder-bench [--quick]
//
// Timings are the median of several runs; memory is the heap growth that glibc's mallinfo2 reports.

import CivilTime
import CMallocInfo
import Dispatch
import Foundation
import HeapModule
import ReminderCore
import ReminderPlatform
import ReminderTestSupport

#if canImport(Glibc)
    import Glibc
#endif

let quick = CommandLine.arguments.contains("--quick")
let runs = quick ? 1 : 5
let million = quick ? 100_000 : 1_000_000
let dispatchCount = quick ? 20_000 : 1_000_000
let now: Int64 = 1_795_000_000
let year: Int64 = 365 * 86_400

var random = SplitMix64(seed: 2026)
let deadlines = (0..<million).map { _ in now + Int64.random(in: 1...year, using: &random) }

/// A heap element ordered by deadline, as a Heap-based scheduler would hold it.
struct HeapEntry: Comparable {
    let deadline: Int64
    let id: UInt64
    static func < (a: HeapEntry, b: HeapEntry) -> Bool { (a.deadline, a.id) < (b.deadline, b.id) }
}

// MARK: - Insert

let wheelInsert = median(runs) {
    var wheel = TimerWheel(now: now)
    return time(million) {
        for (i, deadline) in deadlines.enumerated() { wheel.insert(deadline: deadline, payload: UInt64(i)) }
    }
}
let heapInsert = median(runs) {
    var heap = Heap<HeapEntry>()
    return time(million) {
        for (i, deadline) in deadlines.enumerated() { heap.insert(HeapEntry(deadline: deadline, id: UInt64(i))) }
    }
}
let dispatchQueue = DispatchQueue(label: "bench.dispatch")
var dispatchTimers: [DispatchSourceTimer] = []
let dispatchInsert = median(quick ? 1 : 3) {
    for timer in dispatchTimers { timer.cancel() }
    dispatchTimers = []
    dispatchTimers.reserveCapacity(dispatchCount)
    return time(dispatchCount) {
        for deadline in deadlines.prefix(dispatchCount) { dispatchTimers.append(idleDispatchTimer(deadline)) }
    }
}
let dispatchCancel = time(dispatchTimers.count) {
    for timer in dispatchTimers { timer.cancel() }
}
dispatchTimers = []

/// One Dispatch timer per reminder, the way a naive scheduler would hold it (cancelled before
/// it fires).
func idleDispatchTimer(_ deadline: Int64) -> DispatchSourceTimer {
    let timer = DispatchSource.makeTimerSource(queue: dispatchQueue)
    timer.schedule(wallDeadline: .now() + .seconds(Int(deadline - now)))
    timer.setEventHandler(handler: nothing)
    timer.activate()
    return timer
}

/// The handler of timers that never fire.
let nothing: @Sendable () -> Void = {}

// MARK: - Cancel

/// Nanoseconds per cancel of `cancels` entries from a wheel holding `size`, in random or in
/// insertion order (the latter holds the memory hierarchy equal between the two sizes).
func wheelCancel(size: Int, cancels: Int, shuffled: Bool) -> Double {
    median(runs) {
        var wheel = TimerWheel(now: now)
        var handles = deadlines.prefix(size).enumerated().map {
            wheel.insert(deadline: $0.element, payload: UInt64($0.offset))
        }
        var order = SplitMix64(seed: UInt64(size))
        if shuffled { handles.shuffle(using: &order) }
        let victims = handles.prefix(cancels)
        return time(cancels) { for handle in victims { wheel.cancel(handle) } }
    }
}
let cancelCount = 5_000
let cancelSmallRandom = wheelCancel(size: 10_000, cancels: cancelCount, shuffled: true)
let cancelLargeRandom = wheelCancel(size: million, cancels: cancelCount, shuffled: true)
let cancelSmallOrdered = wheelCancel(size: 10_000, cancels: cancelCount, shuffled: false)
let cancelLargeOrdered = wheelCancel(size: million, cancels: cancelCount, shuffled: false)

// MARK: - A burst of 100k due at once

let burst = 100_000
let wheelBurst = median(runs) {
    var wheel = TimerWheel(now: now)
    for i in 0..<burst { wheel.insert(deadline: now + 86_400, payload: UInt64(i)) }
    var expired: [TimerWheel.Expired] = []
    expired.reserveCapacity(burst)
    let elapsed = time(burst) { wheel.advance(to: now + 86_400, into: &expired) }
    precondition(expired.count == burst)
    return elapsed
}
let heapBurst = median(runs) {
    var heap = Heap<HeapEntry>()
    for i in 0..<burst { heap.insert(HeapEntry(deadline: now + 86_400, id: UInt64(i))) }
    var count = 0
    let elapsed = time(burst) {
        while let top = heap.min, top.deadline <= now + 86_400 {
            _ = heap.popMin()
            count += 1
        }
    }
    precondition(count == burst)
    return elapsed
}
/// From the common deadline until the last of `burst` Dispatch timers has run its handler.
let dispatchBurst = dispatchBurstNanoseconds(burst)

/// Nanoseconds per timer from the common deadline until the last of `burst` Dispatch timers has
/// run its handler. (Not main-actor isolated: the handlers run on a Dispatch queue.)
nonisolated func dispatchBurstNanoseconds(_ burst: Int) -> Double {
    let fired = DispatchSemaphore(value: 0)
    let queue = DispatchQueue(label: "bench.burst")
    let remaining = QueueBound(burst, queue: queue)
    let lead = 0.5 + Double(burst) / 100_000
    let deadlineUptime = DispatchTime.now().uptimeNanoseconds + UInt64(lead * 1e9)
    let deadline = DispatchWallTime.now() + lead
    var timers: [DispatchSourceTimer] = []
    for _ in 0..<burst {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(wallDeadline: deadline)
        timer.setEventHandler { @Sendable in
            remaining.value -= 1
            if remaining.value == 0 { fired.signal() }
        }
        timer.activate()
        timers.append(timer)
    }
    precondition(DispatchTime.now().uptimeNanoseconds < deadlineUptime, "scheduling took longer than the lead")
    fired.wait()
    let total = Double(DispatchTime.now().uptimeNanoseconds - deadlineUptime)
    for timer in timers { timer.cancel() }
    return total / Double(burst)
}

// MARK: - Memory

let wheelBytes = heapGrowth(per: million) {
    var wheel = TimerWheel(now: now)
    for (i, deadline) in deadlines.enumerated() { wheel.insert(deadline: deadline, payload: UInt64(i)) }
    return wheel
}
let heapBytes = heapGrowth(per: million) {
    var heap = Heap<HeapEntry>()
    for (i, deadline) in deadlines.enumerated() { heap.insert(HeapEntry(deadline: deadline, id: UInt64(i))) }
    return heap
}
let dispatchMemoryCount = 100_000
let dispatchBytes = heapGrowth(per: dispatchMemoryCount) {
    var timers: [DispatchSourceTimer] = []
    timers.reserveCapacity(dispatchMemoryCount)
    for deadline in deadlines.prefix(dispatchMemoryCount) { timers.append(idleDispatchTimer(deadline)) }
    return timers
}

// MARK: - plan

let planItems = quick ? 10_000 : 100_000
let zone = try ZoneDatabase.shared.zone(named: "America/New_York")
let items = (0..<planItems).map { mixedItem($0, using: &random) }
let planner = Planner(configuration: .defaults, zone: zone)
let planFrom = now
let planTo = now + year
var planned = 0
let planSeconds = median(quick ? 1 : 3) {
    time(1) { planned = planner.plan(items: items, from: planFrom, to: planTo).count } / 1e9
}
let planRate = Double(planned) / planSeconds

// MARK: - Report

func ns(_ value: Double) -> String { String(format: "%.1f ns", value) }
func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }
func verdict(_ ok: Bool) -> String { ok ? "met" : "NOT MET" }

print(
    "reminder-bench — release build, median of \(runs) run(s), \(ProcessInfo.processInfo.activeProcessorCount) cores\n")
var table = [["measure", "TimerWheel", "baseline", "ratio", "target"]]
table.append([
    "insert \(million / 1000)k (random over a year), per op", ns(wheelInsert), "Heap.insert \(ns(heapInsert))",
    "wheel/Heap \(ratio(wheelInsert / heapInsert))", "≤ 2× Heap: \(verdict(wheelInsert <= 2 * heapInsert))",
])
table.append([
    "", "", "DispatchSourceTimer \(ns(dispatchInsert)) (\(dispatchCount / 1000)k)",
    "Dispatch/wheel \(ratio(dispatchInsert / wheelInsert))",
    "≥ 10× faster: \(verdict(dispatchInsert >= 10 * wheelInsert))",
])
table.append([
    "cancel \(cancelCount / 1000)k in insertion order, per op", "at 10k \(ns(cancelSmallOrdered))",
    "at \(million / 1000)k \(ns(cancelLargeOrdered))",
    "\(million / 1000)k/10k \(ratio(cancelLargeOrdered / cancelSmallOrdered))",
    "≤ 1.5×: \(verdict(cancelLargeOrdered <= 1.5 * cancelSmallOrdered))",
])
table.append([
    "cancel \(cancelCount / 1000)k in random order, per op", "at 10k \(ns(cancelSmallRandom))",
    "at \(million / 1000)k \(ns(cancelLargeRandom))",
    "\(million / 1000)k/10k \(ratio(cancelLargeRandom / cancelSmallRandom))", "(memory latency, see docs/BENCHMARKS.md)",
])
table.append([
    "", "", "DispatchSourceTimer.cancel \(ns(dispatchCancel))",
    "Dispatch/wheel \(ratio(dispatchCancel / cancelLargeRandom))", "",
])
table.append([
    "expire a burst of 100k due at once, per reminder", ns(wheelBurst), "Heap.popMin \(ns(heapBurst))",
    "wheel/Heap \(ratio(wheelBurst / heapBurst))", "",
])
table.append([
    "", "", "DispatchSourceTimer \(ns(dispatchBurst))", "Dispatch/wheel \(ratio(dispatchBurst / wheelBurst))", "",
])
table.append([
    "bytes per pending reminder", String(format: "%.1f B (layout %d B)", wheelBytes, TimerWheel.bytesPerEntry),
    String(format: "Heap %.1f B", heapBytes), String(format: "wheel/Heap %.2f×", wheelBytes / heapBytes),
    "≤ 48 B: \(verdict(wheelBytes <= 48))",
])
table.append([
    "", "", String(format: "DispatchSourceTimer %.0f B (100k)", dispatchBytes),
    String(format: "Dispatch/wheel %.0f×", dispatchBytes / wheelBytes), "",
])
table.append([
    "plan: \(planItems / 1000)k mixed items over a year", String(format: "%.2f M fire times/s", planRate / 1e6),
    String(format: "%d fire times in %.3f s", planned, planSeconds), "", "≥ 1 M/s: \(verdict(planRate >= 1e6))",
])
var widths = [Int](repeating: 0, count: 5)
for row in table { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
for (index, row) in table.enumerated() {
    print(
        row.enumerated().map { $0.element.padding(toLength: widths[$0.offset] + 2, withPad: " ", startingAt: 0) }
            .joined())
    if index == 0 { print(String(repeating: "-", count: widths.reduce(0, +) + 10)) }
}
if quick { print("\n(--quick: smaller sizes; the targets are for the full run)") }

// MARK: - Helpers

/// Nanoseconds per operation of `body`, which performs `operations` operations.
func time(_ operations: Int, _ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(max(operations, 1))
}

func median(_ runs: Int, _ measure: () -> Double) -> Double {
    let samples = (0..<runs).map { _ in measure() }.sorted()
    return samples[samples.count / 2]
}

/// Heap bytes per element held by what `build` returns (kept alive while measuring).
func heapGrowth<T>(per count: Int, _ build: () -> T) -> Double {
    let before = reminderd_heap_bytes_in_use()
    let value = build()
    let after = reminderd_heap_bytes_in_use()
    withExtendedLifetime(value) {}
    return Double(Int(after) - Int(before)) / Double(count)
}

/// A mix like a real user's: monthly/quarterly/annual benefits, subscriptions, coupons, fees
/// and rebuys, with a few custom leads.
func mixedItem(_ index: Int, using random: inout SplitMix64) -> Item {
    let start = LocalDate(uncheckedYear: 2026, month: 11, day: 18)
    let someDay = { (random: inout SplitMix64) in start.adding(days: Int64.random(in: -30...365, using: &random)) }
    let schedule: Schedule
    switch index % 5 {
    case 0:
        schedule = .benefit(
            Benefit(
                amount: Money(tenThousandths: 150_000), period: [.monthly, .quarterly, .semiannual, .annual][index % 4])
        )
    case 1:
        schedule = .subscription(
            Subscription(
                every: [CalendarDuration(1, .months), CalendarDuration(1, .years), CalendarDuration(1, .weeks)][
                    index % 3], next: someDay(&random)))
    case 2: schedule = .coupon(Coupon(expires: .date(someDay(&random))))
    case 3: schedule = .fee(Fee(due: someDay(&random)))
    default:
        schedule = .rebuy(
            Rebuy(
                everyDays: Int.random(in: 7...90, using: &random),
                lastPurchased: start.adding(days: -Int64.random(in: 0...30, using: &random))))
    }
    let lead: [CalendarDuration]? = index % 7 == 0 ? [CalendarDuration(3, .days), CalendarDuration(2, .hours)] : nil
    return Item(id: "i\(index)", title: "Item \(index)", lead: lead, createdAt: now, schedule: schedule)
}
