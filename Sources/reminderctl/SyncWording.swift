import CivilTime
import ReminderCore
import ReminderPlatform
import ReminderProtocol

/// Sync's state (`SyncStatus`) in words, for `reminderctl sync status`, `sync now` and the sync
/// line of `reminderctl status`. Pure: the reply, the time now and the account the config names
/// in, sentences out.
struct SyncWording {
    let reply: SyncStatusReply
    /// Seconds since the epoch, to say "2 min ago".
    let now: Int64
    /// `user@host` from the config's `"sync"` object, for a daemon that has not seen a pass yet.
    let configured: String?
    /// The config's `sync.url`, said while the task list is not found yet: a typo in its host or
    /// port looks like no network, and this is where to see it.
    var server: String? = nil
    /// The host the configured account sends its password to in clear (`sync.allowPlainHttp`
    /// accepted an http:// address on another machine); said while it is so.
    var clearTextHost: String? = nil

    /// The command that starts the transport, said wherever it is missing.
    static let startHint = "systemctl --user enable --now reminderd-sync"

    /// Said instead of every other fact when no account is set up: nothing else helps until then.
    static let notSetUp = "sync is not set up; run: reminderctl sync setup"

    /// The account the daemon reports, else the configured one; nil when sync is not set up.
    /// Every text of the reply is `shown`: the account, the task list and the last error can
    /// quote the server.
    var account: String? { (reply.account ?? configured).map(shown) }

    /// The last pass's error, which quotes the server's answer.
    var error: String? { reply.error.map(shown) }

    /// The line `reminderctl status` prints after "sync:", nil when no account is set up.
    /// The transport not running comes first (nothing else will change until it does), then a
    /// failing pass, then how current the items are.
    var statusLine: String? {
        guard let account else { return nil }
        let waiting = reply.waiting > 0 ? ", \(SyncWording.changes(reply.waiting)) waiting" : ""
        guard reply.connected else {
            return "\(account): reminderd-sync is not running\(waiting) (start it: \(SyncWording.startHint))"
        }
        if let error {
            return "\(account): failing since \(lastSuccess)\(waiting): \(error)"
        }
        guard let lastSync = reply.lastSync else { return "\(account): not synced yet\(waiting)" }
        return "\(account), last \(ago(lastSync))" + (reply.waiting > 0 ? waiting : ", up to date")
    }

    /// What `sync now` prints after a pass that succeeded.
    var doneLine: String {
        let with = account.map { " with \($0)" } ?? ""
        guard reply.waiting > 0 else { return "Synced\(with): up to date." }
        return "Synced\(with); \(SyncWording.changes(reply.waiting)) made meanwhile wait for the next pass."
    }

    /// What to do about a failed `sync now` when the state shows it: no account, or no transport.
    var hint: String? {
        guard account != nil else { return SyncWording.notSetUp }
        guard reply.connected else { return "reminderd-sync is not running; start it: \(SyncWording.startHint)" }
        return nil
    }

    /// `reminderctl sync status`: one labelled line per fact; without an account only that,
    /// since no other fact (the transport, the last sync) matters before setup.
    var lines: [(String, String)] {
        guard let account else { return [("Sync", "not set up (run: reminderctl sync setup)")] }
        var lines: [(String, String)] = [("Account", account)]
        if let clearTextHost { lines.append(("Warning", SyncSettings.clearTextWarning(host: shown(clearTextHost)))) }
        lines += [
            (
                "Task list",
                reply.collection.map(shown) ?? server.map { "not found yet (looking at \(shown($0)))" }
                    ?? "not found yet"
            ),
            ("Last sync", reply.lastSync.map { "\(Output.when($0)) (\(ago($0)))" } ?? "never"),
        ]
        if reply.error != nil, let attempt = reply.lastAttempt {
            lines.append(("Last attempt", "\(Output.when(attempt)) (\(ago(attempt)))"))
        }
        lines.append(("Changes waiting", waitingText))
        lines.append(("Conflicts", conflictsText))
        lines.append(("Last error", error ?? "none"))
        lines.append(
            ("reminderd-sync", reply.connected ? "connected" : "not running (start it: \(SyncWording.startHint))"))
        return lines
    }

    var waitingText: String {
        guard reply.waiting > 0 else { return "none" }
        let since = reply.waitingSince.map { " since \(Output.when($0)) (\(ago($0)))" } ?? ""
        return SyncWording.changes(reply.waiting) + since
    }

    var conflictsText: String {
        guard reply.conflicts > 0 else { return "none in the last 30 days" }
        return "\(reply.conflicts) in the last 30 days, each kept in history (reminderctl history)"
    }

    /// Since when a failing sync has not succeeded: the last success, or "the first pass".
    var lastSuccess: String {
        reply.lastSync.map { "the last success \(ago($0))" } ?? "the first pass (never synced)"
    }

    /// `1 change`, `3 changes`.
    static func changes(_ count: Int64) -> String { count == 1 ? "1 change" : "\(count) changes" }

    /// An RFC 3339 time as how long ago it was: `just now`, `2 min ago`, `3 h ago`, `2 days ago`;
    /// the time itself when it cannot be read or lies in the future (a clock set back).
    func ago(_ time: String) -> String {
        guard case .success(let instant) = Timestamp.parse(time), instant <= now else { return Output.when(time) }
        let seconds = now - instant
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<(2 * 86400): return "\(seconds / 3600) h ago"
        default: return "\(seconds / 86400) days ago"
        }
    }

    /// `alice@dav.example.org` from the config's `"sync"` object; nil without one, or when the
    /// config cannot be read (the daemon's reply still speaks for itself).
    static func configuredAccount() -> String? {
        guard let sync = configuredSettings() else { return nil }
        guard let host = sync.host else { return sync.username }
        return "\(sync.username)@\(host)"
    }

    /// The config's `"sync"` object; nil without one or when the config cannot be read.
    static func configuredSettings() -> SyncSettings? {
        guard case .success(let configuration) = ConfigFile.load(explicitPath: nil) else { return nil }
        return configuration.sync
    }
}
