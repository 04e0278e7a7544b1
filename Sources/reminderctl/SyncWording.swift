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
    static var notSetUp: String { _t("sync is not set up; run: reminderctl sync setup") }

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
        let waiting = reply.waiting > 0 ? _t(", %1$s waiting").filled(SyncWording.changes(reply.waiting)) : ""
        guard reply.connected else {
            return _t("%1$s: reminderd-sync is not running%2$s (start it: %3$s)")
                .filled(account, waiting, SyncWording.startHint)
        }
        if let error {
            return _t("%1$s: failing since %2$s%3$s: %4$s").filled(account, lastSuccess, waiting, error)
        }
        guard let lastSync = reply.lastSync else { return _t("%1$s: not synced yet%2$s").filled(account, waiting) }
        return _t("%1$s, last %2$s").filled(account, ago(lastSync)) + (reply.waiting > 0 ? waiting : _t(", up to date"))
    }

    /// What `sync now` prints after a pass that succeeded.
    var doneLine: String {
        let changes = SyncWording.changes(reply.waiting)
        guard let account else {
            guard reply.waiting > 0 else { return _t("Synced: up to date.") }
            return _t("Synced; %1$s made meanwhile wait for the next pass.").filled(changes)
        }
        guard reply.waiting > 0 else { return _t("Synced with %1$s: up to date.").filled(account) }
        return _t("Synced with %1$s; %2$s made meanwhile wait for the next pass.").filled(account, changes)
    }

    /// What to do about a failed `sync now` when the state shows it: no account, or no transport.
    var hint: String? {
        guard account != nil else { return SyncWording.notSetUp }
        guard reply.connected else {
            return _t("reminderd-sync is not running; start it: %1$s").filled(SyncWording.startHint)
        }
        return nil
    }

    /// `reminderctl sync status`: one labelled line per fact; without an account only that,
    /// since no other fact (the transport, the last sync) matters before setup.
    var lines: [(String, String)] {
        guard let account else { return [(_t("Sync"), _t("not set up (run: reminderctl sync setup)"))] }
        var lines: [(String, String)] = [(_t("Account"), account)]
        if let clearTextHost {
            lines.append((_t("Warning"), SyncSettings.clearTextWarning(host: shown(clearTextHost))))
        }
        lines += [
            (
                _t("Task list"),
                reply.collection.map(shown) ?? server.map { _t("not found yet (looking at %1$s)").filled(shown($0)) }
                    ?? _t("not found yet")
            ),
            (_t("Last sync"), reply.lastSync.map { "\(Output.when($0)) (\(ago($0)))" } ?? _t("never")),
        ]
        if reply.error != nil, let attempt = reply.lastAttempt {
            lines.append((_t("Last attempt"), "\(Output.when(attempt)) (\(ago(attempt)))"))
        }
        lines.append((_t("Changes waiting"), waitingText))
        lines.append((_t("Conflicts"), conflictsText))
        lines.append((_t("Last error"), error ?? _p("sync status: no last error", "none")))
        lines.append(
            (
                "reminderd-sync",
                reply.connected
                    ? _t("connected") : _t("not running (start it: %1$s)").filled(SyncWording.startHint)
            ))
        return lines
    }

    var waitingText: String {
        guard reply.waiting > 0 else { return _t("none") }
        let changes = SyncWording.changes(reply.waiting)
        guard let since = reply.waitingSince else { return changes }
        return _t("%1$s since %2$s (%3$s)").filled(changes, Output.when(since), ago(since))
    }

    var conflictsText: String {
        guard reply.conflicts > 0 else { return _t("none in the last 30 days") }
        return _n(
            "%1$d in the last 30 days, each kept in history (reminderctl history)",
            "%1$d in the last 30 days, each kept in history (reminderctl history)", Int(reply.conflicts)
        ).filled(String(reply.conflicts))
    }

    /// Since when a failing sync has not succeeded: the last success, or "the first pass".
    var lastSuccess: String {
        reply.lastSync.map { _t("the last success %1$s").filled(ago($0)) } ?? _t("the first pass (never synced)")
    }

    /// `1 change`, `3 changes`.
    static func changes(_ count: Int64) -> String {
        _n("%1$d change", "%1$d changes", Int(count)).filled(String(count))
    }

    /// An RFC 3339 time as how long ago it was: `just now`, `2 min ago`, `3 h ago`, `2 days ago`;
    /// the time itself when it cannot be read or lies in the future (a clock set back).
    func ago(_ time: String) -> String {
        guard case .success(let instant) = Timestamp.parse(time), instant <= now else { return Output.when(time) }
        let seconds = now - instant
        switch seconds {
        case ..<60: return _t("just now")
        case ..<3600: return _t("%1$d min ago").filled(String(seconds / 60))
        case ..<(2 * 86400): return _t("%1$d h ago").filled(String(seconds / 3600))
        default: return _n("%1$d day ago", "%1$d days ago", Int(seconds / 86400)).filled(String(seconds / 86400))
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
