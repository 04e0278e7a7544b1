internal import CMallocInfo

/// How the daemon asks glibc's malloc to keep its memory near the idle figure after large
/// replies (`reminderctl list`, `export` of thousands of items are megabytes of JSON): measured
/// with `scripts/bench-daemon.sh --memory` (docs/BENCHMARKS.md).
public enum MallocTuning {
    /// Called first thing in `reminderd`, before any thread starts: one arena for every thread
    /// (`reminderd_malloc_single_arena` says why). The daemon serves on one queue, so the
    /// arena's lock is seldom contended; start-up's parallel decoding measured no slower.
    public static func configure() {
        _ = reminderd_malloc_single_arena()
    }

    /// Gives back the free pages malloc holds. After a large reply the free memory of its JSON
    /// tree and bytes lies between chunks still in use, below the heap's top, where glibc's own
    /// trimming (the top only) never reaches.
    public static func trim() {
        _ = reminderd_malloc_trim()
    }
}
