#if canImport(Glibc)
    import Glibc
#endif

/// `$name` as the process's environment has it (an empty value too), or nil when it is unset;
/// without Foundation, whose `ProcessInfo` the daemon does not link.
public func environmentVariable(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

/// An XDG base directory: `$variable` when set and not empty, else `$HOME/fallback`
/// (`/tmp/fallback` with no `HOME`).
public func xdgDirectory(_ variable: String, else fallback: String) -> String {
    let home = environmentVariable("HOME") ?? "/tmp"
    return environmentVariable(variable).flatMap { $0.isEmpty ? nil : $0 } ?? home + "/" + fallback
}

/// True when stderr is the journal stream systemd named in `JOURNAL_STREAM` (so log lines can
/// carry what the journal reads: structured fields, or a `<N>` priority prefix).
public func stderrIsJournal() -> Bool {
    guard let stream = environmentVariable("JOURNAL_STREAM") else { return false }
    var info = stat()
    guard fstat(STDERR_FILENO, &info) == 0 else { return false }
    return stream == "\(info.st_dev):\(info.st_ino)"
}
