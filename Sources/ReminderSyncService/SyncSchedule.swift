/// When the next pass runs by itself: ~10 minutes after the last one (±10 %, so devices that
/// started together do not hit the server together for ever), or sooner after a network error
/// or 5xx: 30 s, doubling to 30 min. Failures that trying again cannot fix (credentials, rights,
/// configuration, a refused change) wait for the period or the next trigger, never loop. Pure:
/// times are milliseconds of a clock the caller reads, the jitter from a generator it passes.
public struct SyncSchedule: Sendable {
    public static let period: Int64 = 600_000
    public static let jitter = 0.1
    public static let firstBackoff: Int64 = 30_000
    public static let longestBackoff: Int64 = 1_800_000

    /// When the next pass runs unless a trigger comes first.
    public private(set) var due: Int64
    /// The delay after the latest retryable failure; nil when the latest pass did not fail so.
    public private(set) var backoff: Int64?

    /// The first pass runs at once: whatever changed while reminderd-sync was not running.
    public init(now: Int64) { due = now }

    /// A pass of `kind` ended at `now`, with `failure` or not.
    public mutating func passEnded(
        _ kind: SyncPass.Kind, failure: PassFailure.Kind?, now: Int64, random: inout some RandomNumberGenerator
    ) {
        switch failure {
        case .retryable?:
            let delay = min((backoff.map { $0 * 2 }) ?? Self.firstBackoff, Self.longestBackoff)
            (backoff, due) = (delay, now + delay)
        case nil where kind == .pullOnly:
            // A refresh pulls only; pushes waiting for a back-off retry may go now the server answers.
            if backoff != nil { (backoff, due) = (nil, now) }
        default:
            backoff = nil
            // A fraction in [0, 1) from 53 random bits: the period times 0.9 to 1.1.
            let fraction = Double(random.next() >> 11) * 0x1.0p-53
            due = now + Int64(Double(Self.period) * (1 - Self.jitter + 2 * Self.jitter * fraction))
        }
    }

    /// poll()'s timeout: milliseconds until `due`, 0 when it has passed.
    public func timeout(now: Int64) -> Int32 { Int32(clamping: max(0, due - now)) }
}
