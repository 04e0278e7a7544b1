"""State under faults, end to end: a second daemon on one store, Done and Undo, cards added
twice, an overdue rebuy, a store that is foreign, newer, unreadable, locked or on a full disk,
a resume that cannot be stored, and the zone from $TZ."""
import hashlib
import os
import signal
import sqlite3
import subprocess
import threading
import time
from datetime import datetime, timedelta, timezone

import pytest

from conftest import BIN, local_in, plain, wait_for, tmpfs, fill


def store_path(daemon):
    return daemon.tmp / "data" / "reminderd" / "reminderd.sqlite"


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refused_start(daemon):
    """Starts reminderd expecting it to refuse; returns its log."""
    daemon.start(wait=False)
    assert daemon.process.wait(15) == 1
    return (daemon.tmp / "daemon.log").read_text()


def test_a_second_daemon_on_the_same_store_is_refused_naming_the_first_even_while_it_is_stopped(server, daemon):
    daemon.start()
    daemon.ctl("add", "coupon", "Shown once", "--expires", local_in(65), "--lead", "1m")
    os.kill(daemon.process.pid, signal.SIGSTOP)  # a frozen first daemon still holds the store
    try:
        env = {k: v for k, v in daemon.env.items() if k != "NOTIFY_SOCKET"}
        second = subprocess.Popen([str(BIN / "reminderd"), "--socket", str(daemon.tmp / "second.sock")], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            _, stderr = second.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            second.kill()
            second.communicate()
            pytest.fail("a second reminderd ran on the same store")
    finally:
        os.kill(daemon.process.pid, signal.SIGCONT)
    assert second.returncode == 1
    assert f"another reminderd (pid {daemon.process.pid}) is already running on the store" in stderr
    wait_for(server.notifications, timeout=15, what="the pop-up")
    wait_for(lambda: any(e["event"] == "fired" for e in daemon.ctl_json("history")["entries"]), what="fired in history")
    assert len(server.notifications()) == 1


def test_done_twice_changes_nothing_early_acknowledges_the_next_and_undo_walks_back_every_done(server, daemon):
    daemon.start()
    due = (datetime.now(timezone.utc) + timedelta(days=20)).strftime("%Y-%m-%d")
    item = daemon.ctl_json("add", "fee", "Card fee", "--card", "Card", "--amount", "95", "--due", due)["id"]
    daemon.ctl("done", item)
    again = daemon.ctl("done", item, check=False)
    weekday = datetime.strptime(due, "%Y-%m-%d").strftime("%a")
    assert again.returncode == 1 and f"already done for the occurrence due {weekday} {due} 23:59" in again.stderr
    assert "--early" in again.stderr
    assert [e["event"] for e in daemon.ctl_json("history", "--item", item)["entries"]].count("done") == 1
    daemon.ctl("done", item, "--early")
    daemon.ctl("done", item, "--early")
    for _ in range(3):
        daemon.ctl("undo", item)
    assert daemon.ctl("undo", item, check=False).returncode == 1
    shown = daemon.ctl_json("show", item)["item"]
    assert shown["status"] != "used" and shown["due"].startswith(due)


def test_a_card_added_twice_or_setup_run_twice_is_tracked_once_and_fee_dates_need_their_card(server, daemon):
    daemon.start()
    daemon.ctl("add", "card", "amex-gold", "--fee-due", "2027-01-15")
    count = len(daemon.ctl_json("list", "--all")["items"])
    again = daemon.ctl("add", "card", "amex-gold", "--fee-due", "2027-01-15", check=False)
    assert again.returncode == 1 and "Amex Gold is already tracked" in again.stderr
    assert len(daemon.ctl_json("list", "--all")["items"]) == count

    setup = daemon.ctl("setup", "--no-input", "--yes", "--card", "amex-gold", "--fee-due", "amex-gold=2027-01-15",
                       "--card", "chase-sapphire-preferred")
    assert f"{count} of your cards' items were tracked already" in setup.stdout
    items = daemon.ctl_json("list", "--all")["items"]
    titles = [(i["card"], i["title"]) for i in items]
    assert len(titles) == len(set(titles)) and any(card == "Sapphire Preferred" for card, _ in titles)
    twice = daemon.ctl("setup", "--no-input", "--yes", "--card", "amex-gold", "--card", "chase-sapphire-preferred")
    assert "Added 0 new items" in twice.stdout and len(daemon.ctl_json("list", "--all")["items"]) == len(items)

    stray = daemon.ctl("setup", "--no-input", "--yes", "--card", "amex-gold", "--fee-due", "amex-platinum=2027-03-15",
                       check=False)
    assert stray.returncode == 2 and "amex-platinum is not among your cards" in stray.stderr
    after = daemon.ctl_json("list", "--all")["items"]
    assert len(after) == len(items) and not any("Platinum" in i["card"] for i in after)


def test_an_overdue_rebuy_reminds_once_at_once_and_not_again_after_a_restart(server, daemon):
    daemon.start()
    bought = (datetime.now(timezone.utc) - timedelta(days=40)).strftime("%Y-%m-%d")
    daemon.ctl("add", "rebuy", "Coffee", "--every-days", "30", "--last-purchased", bought)
    wait_for(server.notifications, timeout=10, what="the overdue reminder")
    assert "Coffee: time to rebuy!" in plain(server.notifications()[0][1])
    wait_for(lambda: any(e["event"] == "fired" for e in daemon.ctl_json("history")["entries"]), what="fired in history")
    daemon.stop()
    daemon.start()
    assert daemon.ctl_json("upcoming", "--days", "3660")["reminders"] == []
    # Its pop-up, left on screen, is taken back: the old one closed, shown again once (`reshown`).
    wait_for(lambda: len(server.notifications()) == 2, what="the pop-up shown again")
    wait_for(lambda: " CloseNotification 1" in server.log.read_text(), what="the old pop-up closed")
    events = [e["event"] for e in daemon.ctl_json("history")["entries"]]
    assert events.count("fired") == 1 and events.count("reshown") == 1, events


def test_a_store_a_newer_reminderd_wrote_is_refused_and_left_untouched(daemon):
    daemon.start()
    daemon.stop()
    path = store_path(daemon)
    with sqlite3.connect(path) as connection:
        connection.execute("INSERT INTO grdb_migrations (identifier) VALUES ('v9-future')")
    connection.close()
    before = digest(path)
    log = refused_start(daemon)
    assert "a newer reminderd wrote it (schema steps v9-future" in log
    assert digest(path) == before


def test_another_programs_database_at_the_store_path_is_refused_and_left_untouched(daemon):
    path = store_path(daemon)
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE foo (bar TEXT)")
        connection.execute("INSERT INTO foo VALUES ('theirs')")
    connection.close()
    before = digest(path)
    log = refused_start(daemon)
    assert "not a reminderd database (tables foo" in log
    assert digest(path) == before and not path.with_name(path.name + "-wal").exists()


def test_an_unreadable_stored_item_is_set_aside_listed_and_removable(server, daemon):
    daemon.start()
    broken = daemon.ctl_json("add", "coupon", "Broken", "--expires", "2031-01-01")["id"]
    kept = daemon.ctl_json("add", "coupon", "Kept", "--expires", "2031-01-01")["id"]
    daemon.stop()
    with sqlite3.connect(store_path(daemon)) as connection:
        connection.execute("UPDATE item SET json = '{\"kind\": \"coupon\", \"title\": \"Broken\"' WHERE id = ?", (broken,))
    connection.close()
    daemon.start()
    listed = {i["id"]: i["status"] for i in daemon.ctl_json("list", "--all")["items"]}
    assert listed[broken] == "unreadable" and listed[kept] != "unreadable"
    assert "unreadable" in daemon.ctl("list").stdout
    quarantined = [e for e in daemon.ctl_json("history")["entries"] if e["event"] == "quarantined"]
    assert quarantined and f"reminderctl remove {broken}" in quarantined[0]["reason"]
    assert daemon.ctl("done", broken, check=False).returncode == 1
    daemon.ctl("remove", broken)
    assert [i["id"] for i in daemon.ctl_json("list", "--all")["items"]] == [kept]


def test_a_lock_held_by_another_process_is_waited_for(server, daemon):
    daemon.start()
    daemon.stop()
    connection = sqlite3.connect(store_path(daemon), isolation_level=None, check_same_thread=False)
    connection.execute("BEGIN EXCLUSIVE")
    release = threading.Timer(3, lambda: connection.execute("COMMIT"))
    release.start()
    try:
        daemon.start(wait=False)
        daemon.wait_for_message("READY=1", timeout=15)
        assert daemon.process.poll() is None
    finally:
        release.join()
        connection.close()


def test_a_full_disk_is_named_and_a_resume_that_cannot_be_stored_is_refused(server, daemon):
    with tmpfs(daemon.tmp / "data", "2m") as data:
        daemon.start()
        daemon.ctl("pause")
        with fill(data):
            resumed = daemon.ctl("resume", check=False)
            assert resumed.returncode == 1 and "full" in resumed.stderr
            assert daemon.ctl_json("status")["status"]["paused"] == "until resumed"
            daemon.stop()
            log = refused_start(daemon)
            assert "ENOSPC" in log
        daemon.start()
        assert daemon.ctl_json("status")["status"]["paused"] == "until resumed"
        daemon.stop()


def test_a_pause_without_an_end_reads_until_resumed(server, daemon):
    daemon.start()
    daemon.ctl("pause")
    daemon.wait_for_message("paused until resumed")
    assert not any("2242" in m for m in daemon.messages)


def test_a_bad_tz_is_named_as_tz(daemon):
    daemon.write_config({"quietHours": None})
    daemon.env["TZ"] = "Nowhere/Bogus"
    log = refused_start(daemon)
    assert 'TZ="Nowhere/Bogus"' in log and "config: timeZone" not in log
