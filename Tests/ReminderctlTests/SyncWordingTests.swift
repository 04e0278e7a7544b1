import CivilTime
import ReminderCore
import ReminderProtocol
import Testing

@testable import reminderctl

/// Sync's state as `reminderctl status`, `sync status` and `sync now` say it, from `SyncStatus`
/// replies as the daemon gives them.
@Suite struct SyncWordingTests {
    /// 2026-11-24 14:00 UTC.
    let now: Int64 = 1_795_528_800

    func time(_ secondsAgo: Int64) -> String { Timestamp.format(now - secondsAgo, in: .utc) }

    func words(
        account: String? = "alice@dav.example.org", lastSync: Int64? = 120, error: String? = nil, waiting: Int64 = 0,
        waitingSince: Int64? = nil, conflicts: Int64 = 0, connected: Bool = true, configured: String? = nil
    ) -> SyncWording {
        let reply = SyncStatusReply(
            account: account, collection: account.map { _ in "https://dav.example.org/alice/reminderd/" },
            lastSync: lastSync.map(time), lastAttempt: lastSync.map(time), error: error, waiting: waiting,
            waitingSince: waitingSince.map(time), conflicts: conflicts, connected: connected)
        return SyncWording(reply: reply, now: now, configured: configured)
    }

    @Test func theStatusLineSaysHowCurrentTheItemsAre() {
        #expect(words().statusLine == "alice@dav.example.org, last 2 min ago, up to date")
        #expect(
            words(waiting: 3, waitingSince: 60).statusLine == "alice@dav.example.org, last 2 min ago, 3 changes waiting"
        )
        #expect(words(lastSync: 30, waiting: 1).statusLine == "alice@dav.example.org, last just now, 1 change waiting")
        #expect(words(lastSync: nil).statusLine == "alice@dav.example.org: not synced yet")
    }

    @Test func aFailingSyncSaysSinceWhenAndWhy() {
        let failing = words(lastSync: 3 * 3600, error: "dav.example.org refused the password (401 Unauthorized)")
        #expect(
            failing.statusLine
                == "alice@dav.example.org: failing since the last success 3 h ago: "
                + "dav.example.org refused the password (401 Unauthorized)")
        #expect(
            words(lastSync: nil, error: "cannot reach dav.example.org", waiting: 2).statusLine
                == "alice@dav.example.org: failing since the first pass (never synced), 2 changes waiting: "
                + "cannot reach dav.example.org")
    }

    @Test func aMissingTransportComesFirstWithTheCommandThatStartsIt() {
        let line = words(error: "server error 500", waiting: 4, connected: false).statusLine
        #expect(
            line
                == "alice@dav.example.org: reminderd-sync is not running, 4 changes waiting "
                + "(start it: systemctl --user enable --now reminderd-sync)")
        #expect(
            words(connected: false).hint
                == "reminderd-sync is not running; start it: systemctl --user enable --now reminderd-sync")
        #expect(words().hint == nil)
    }

    @Test func noAccountMeansNoStatusLineAndAHintToSetOneUp() {
        let none = words(account: nil, lastSync: nil, connected: false)
        #expect(none.statusLine == nil)
        #expect(none.hint == "sync is not set up; run: reminderctl sync setup")
        // `sync status` says only that: not "reminderd-sync is not running" beside it.
        #expect(none.lines.count == 1)
        #expect(none.lines.first?.0 == "Sync" && none.lines.first?.1 == "not set up (run: reminderctl sync setup)")
        // A daemon that has not seen a pass yet: the config's account speaks.
        let configured = words(account: nil, lastSync: nil, connected: false, configured: "bob@cloud.example.org")
        #expect(configured.statusLine?.hasPrefix("bob@cloud.example.org: reminderd-sync is not running") == true)
    }

    @Test func aTaskListNotFoundYetNamesTheServerInUse() {
        // A typo in sync.url's host or port looks like no network: the address shows it.
        let reply = SyncStatusReply(
            account: "alice@dav.exmaple.org", collection: nil, lastSync: nil, lastAttempt: time(60),
            error: "cannot reach dav.exmaple.org", waiting: 0, waitingSince: nil, conflicts: 0, connected: true)
        let words = SyncWording(reply: reply, now: now, configured: nil, server: "https://dav.exmaple.org:8443/")
        let table = Dictionary(uniqueKeysWithValues: words.lines)
        #expect(table["Task list"] == "not found yet (looking at https://dav.exmaple.org:8443/)")
    }

    @Test func syncStatusListsEveryFactInWords() {
        let lines = words(error: "server error 503", waiting: 2, waitingSince: 7200, conflicts: 1).lines
        let table = Dictionary(uniqueKeysWithValues: lines)
        #expect(
            lines.map(\.0) == [
                "Account", "Task list", "Last sync", "Last attempt", "Changes waiting", "Conflicts", "Last error",
                "reminderd-sync",
            ])
        #expect(table["Account"] == "alice@dav.example.org")
        #expect(table["Last sync"] == "Tue 2026-11-24 13:58 (2 min ago)")
        #expect(table["Changes waiting"] == "2 changes since Tue 2026-11-24 12:00 (2 h ago)")
        #expect(table["Conflicts"] == "1 in the last 30 days, each kept in history (reminderctl history)")
        #expect(table["Last error"] == "server error 503")
        #expect(table["reminderd-sync"] == "connected")
        let quiet = Dictionary(uniqueKeysWithValues: words(lastSync: nil, connected: false).lines)
        #expect(quiet["Last sync"] == "never" && quiet["Changes waiting"] == "none" && quiet["Last error"] == "none")
        #expect(quiet["Last attempt"] == nil)
        #expect(quiet["reminderd-sync"] == "not running (start it: systemctl --user enable --now reminderd-sync)")
    }

    @Test func anAccountSendingThePasswordInClearSaysSoUnderItsName() {
        // `sync.allowPlainHttp` accepted an http:// address on another machine: said while it is in use.
        var words = words()
        words.clearTextHost = "dav.example.org"
        #expect(words.lines.map(\.0).prefix(3) == ["Account", "Warning", "Task list"])
        #expect(
            Dictionary(uniqueKeysWithValues: words.lines)["Warning"]
                == "the password goes in clear over http to dav.example.org (sync.allowPlainHttp); "
                + "use https:// to protect it")
    }

    @Test func agesReadAsAPersonWouldSayThem() {
        let sample = words()
        #expect(sample.ago(time(5)) == "just now")
        #expect(sample.ago(time(59 * 60)) == "59 min ago")
        #expect(sample.ago(time(47 * 3600)) == "47 h ago")
        #expect(sample.ago(time(3 * 86400)) == "3 days ago")
        // A time ahead of the clock (set back) or unreadable is shown as it is.
        #expect(sample.ago(Timestamp.format(now + 600, in: .utc)) == "Tue 2026-11-24 14:10")
        #expect(sample.ago("yesterday") == "yesterday")
    }

    @Test func syncNowSaysWithWhomAndWhatStillWaits() {
        #expect(words().doneLine == "Synced with alice@dav.example.org: up to date.")
        #expect(
            words(waiting: 2).doneLine
                == "Synced with alice@dav.example.org; 2 changes made meanwhile wait for the next pass.")
    }

    @Test func syncFailedIsItsReasonInWords() {
        let error = VarlinkError(
            name: ReminderInterface.ErrorName.syncFailed,
            parameters: ["reason": .string("reminderd-sync is not running")])
        #expect(ErrorWording.message(error) == "sync failed: reminderd-sync is not running")
        #expect(
            ErrorWording.message(VarlinkError(name: ReminderInterface.ErrorName.syncFailed))
                == "sync failed: no reason given")
    }
}
