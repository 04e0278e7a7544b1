"""Another program holding the store's write lock (a `sqlite3` shell in `BEGIN IMMEDIATE`, a
backup tool) stalls only the changes that need it: reads, reminders and the other clients go on.
A change made meanwhile is put aside and made once the lock is let go, or refused in words when
the lock outlasts 10 s. Once, every write waited in SQLite's busy handler on the engine's queue,
and `list` and `status` waited behind it for as long as the lock was held."""
import sqlite3
import subprocess
import time

from conftest import BIN, local_in, plain, wait_for
from test_faults_socket import Client, coupon
from test_faults_state import store_path
from test_one_at_a_time import calls, own


class StoreLock:
    """A connection of another process's kind holding the store's write lock, as `sqlite3`'s
    `BEGIN IMMEDIATE;` does, until `release`."""

    def __init__(self, daemon):
        self.connection = sqlite3.connect(store_path(daemon), isolation_level=None, timeout=5)
        self.connection.execute("BEGIN IMMEDIATE")
        self.since = time.monotonic()

    def held(self):
        return time.monotonic() - self.since

    def release(self):
        self.connection.execute("ROLLBACK")
        self.connection.close()


def background_ctl(daemon, *args):
    return subprocess.Popen([str(BIN / "reminderctl"), *args], env=daemon.env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def timed_ctl(daemon, *args):
    started = time.monotonic()
    result = daemon.ctl(*args)
    return time.monotonic() - started, result


def put_aside(daemon, notification_id):
    """The daemon logged that a button pressed on pop-up `notification_id` waits for the lock."""
    line = f"a button pressed on pop-up {notification_id} waits: another program holds the store's lock"
    return line in (daemon.tmp / "daemon.log").read_text()


def test_reads_go_on_and_a_change_waits_while_another_program_holds_the_store(server, daemon):
    daemon.start()
    kept = daemon.ctl_json("add", "coupon", "Kept", "--expires", "2031-01-01")["id"]
    lock = StoreLock(daemon)
    try:
        adding = background_ctl(daemon, "add", "coupon", "Added meanwhile", "--expires", "2031-02-01")
        # One client pipelines a change and a read: the read waits behind its own change.
        pipelined = Client(daemon.socket_path, timeout=15)
        pipelined.send("Add", item=coupon("Pipelined"))
        pipelined.send("List", all=True)
        # No wait for the add to arrive: the reads go on for 6 s, all but the first moment's after it.
        slowest = 0.0
        while lock.held() < 6:
            for command in (("list",), ("status",)):
                took, result = timed_ctl(daemon, *command)
                slowest = max(slowest, took)
                assert took < 1, f"reminderctl {command[0]} took {took:.1f} s while the store was locked"
            assert kept in daemon.ctl("list").stdout
            time.sleep(0.2)  # paces the reads: real time must pass with the lock held (6 s of them)
        assert adding.poll() is None, "the add did not wait for the lock"
    finally:
        lock.release()
    out, err = adding.communicate(timeout=10)
    assert adding.returncode == 0, err
    added = pipelined.receive()
    assert "error" not in added, added
    listed = pipelined.receive()
    assert added["parameters"]["id"] in [item["id"] for item in listed["parameters"]["items"]]
    pipelined.close()
    titles = [item["title"] for item in daemon.ctl_json("list", "--all")["items"]]
    assert "Added meanwhile" in titles
    print(f"slowest read while locked: {slowest * 1000:.0f} ms")


def test_a_reminder_due_while_another_program_holds_the_store_pops_up_on_time(server, daemon):
    daemon.start()
    # Due 4 s from now (a minute before it expires), while the lock is held.
    due = daemon.ctl_json("add", "coupon", "Due meanwhile", "--expires", local_in(64), "--lead", "1m")["id"]
    fire_at = time.monotonic() + 4
    lock = StoreLock(daemon)
    try:
        shown = wait_for(server.notifications, timeout=8, what="the pop-up while the store is locked")
        late = time.monotonic() - fire_at
        assert [plain(summary) for summary, _, _ in shown] == ["Due meanwhile"]
        assert late < 2, f"the pop-up came {late:.1f} s late"
        # Reads go on after the fire, whose record waits for the lock.
        for _ in range(5):
            took, _ = timed_ctl(daemon, "status")
            assert took < 1, f"reminderctl status took {took:.1f} s while the store was locked"
            time.sleep(0.3)  # paces the reads: real time must pass with the lock held
        assert lock.held() < 10
    finally:
        lock.release()
    # Recorded once the lock is let go: history has the fire, and it is not shown again.
    wait_for(lambda: "fired" in [e["event"] for e in daemon.ctl_json("history", "--item", due)["entries"]],
             what="the fire recorded after the lock")
    assert len(server.notifications()) == 1


def test_a_button_pressed_while_another_program_holds_the_store_acts_once_it_is_let_go(server, daemon):
    daemon.start()
    item_id = daemon.ctl_json("add", "coupon", "Pressed", "--expires", local_in(62), "--lead", "1m")["id"]
    wait_for(server.notifications, what="the pop-up")
    wait_for(lambda: "fired" in [e["event"] for e in daemon.ctl_json("history", "--item", item_id)["entries"]],
             what="the fire recorded")
    lock = StoreLock(daemon)
    try:
        server.invoke(1, "done")
        # The daemon says when it puts the press aside: from then on it is kept, not lost, and
        # cannot be made before the lock is let go.
        wait_for(lambda: put_aside(daemon, 1), what="the Done put aside")
        for _ in range(8):
            took, _ = timed_ctl(daemon, "status")
            assert took < 1, f"reminderctl status took {took:.1f} s while the store was locked"
        assert daemon.ctl_json("show", item_id)["item"]["status"] != "used"
        assert "done" not in [e["event"] for e in daemon.ctl_json("history", "--item", item_id)["entries"]]
        assert lock.held() < 10
    finally:
        lock.release()
    wait_for(lambda: daemon.ctl_json("show", item_id)["item"]["status"] == "used", what="the Done once the lock is let go")


def test_a_change_is_refused_in_words_when_the_lock_outlasts_ten_seconds(server, daemon):
    daemon.start()
    lock = StoreLock(daemon)
    try:
        started = time.monotonic()
        adding = background_ctl(daemon, "add", "coupon", "Never stored", "--expires", "2031-02-01")
        while adding.poll() is None:
            took, _ = timed_ctl(daemon, "status")
            assert took < 1, f"reminderctl status took {took:.1f} s while the store was locked"
            time.sleep(0.5)  # paces the reads until the add is refused (10 s of real time)
        waited = time.monotonic() - started
        out, err = adding.communicate()
    finally:
        lock.release()
    assert adding.returncode != 0
    assert "the store is locked by another program" in err, err
    assert 9.5 < waited < 12, waited
    titles = [item["title"] for item in daemon.ctl_json("list", "--all")["items"]]
    assert "Never stored" not in titles
    # The daemon writes again once the lock is let go.
    daemon.ctl("add", "coupon", "Stored after", "--expires", "2031-02-01")
    wait_for(lambda: "Stored after" in daemon.ctl("list").stdout, what="the add after the lock")


def events_of(daemon, item_id):
    return [e["event"] for e in daemon.ctl_json("history", "--item", item_id)["entries"]]


def test_a_twelve_second_lock_stalls_nothing_and_every_change_is_stored_after_it(server, daemon):
    """The engine's own writes — a pass, a dismiss, the walk one at a time, a reload's prune —
    change memory at once and are stored once the lock is let go, in order, none dropped. Once,
    each waited up to 10 s for the lock on the engine's queue, and everything waited behind it."""
    daemon.start()
    walk_expires = local_in(2 * 86400 + 3)
    walk = {title: daemon.ctl_json("add", "coupon", title, "--expires", walk_expires, "--lead", "48h")["id"]
            for title in ("Pho", "Ramen", "Sushi")}
    due = daemon.ctl_json("add", "coupon", "Due meanwhile", "--expires", local_in(60 + 9), "--lead", "1m")["id"]
    fire_at = time.monotonic() + 9
    passing = daemon.ctl_json("add", "coupon", "Passes meanwhile", "--expires", local_in(12))["id"]
    pass_at = time.monotonic() + 12
    wait_for(lambda: calls(server) and calls(server)[0][1].startswith("3 reminders: "), what="the grouped pop-up")
    server.invoke(calls(server)[0][2], "one-at-a-time")
    wait_for(lambda: [c[1] for c in calls(server)][1:] == [own("Pho")], what="Pho shown alone")
    pho = calls(server)[1][2]
    assert time.monotonic() < fire_at - 3, "too slow to lock the store before the reminder comes due"

    lock = StoreLock(daemon)
    try:
        # Pho closed by the person: the walk goes on at once, the dismiss stored later.
        server.close(pho, 2)
        closed = time.monotonic()
        wait_for(lambda: own("Ramen") in [c[1] for c in calls(server)], timeout=3, what="Ramen after Pho closed")
        assert time.monotonic() - closed < 1.5, "the close waited for the lock"
        for command in (("reload",), ("status",)):
            took, _ = timed_ctl(daemon, *command)
            assert took < 1, f"reminderctl {command[0]} took {took:.1f} s while the store was locked"
        wait_for(lambda: any(plain(c[1]) == "Due meanwhile" for c in calls(server)), timeout=fire_at + 4 - time.monotonic(),
                 what="the reminder due while locked")
        late = time.monotonic() - fire_at
        assert late < 2, f"the pop-up came {late:.1f} s late"
        wait_for(lambda: daemon.ctl_json("show", passing)["item"]["status"] == "expired",
                 timeout=pass_at + 3 - time.monotonic(), what="the coupon expired while locked")
        took, _ = timed_ctl(daemon, "status")
        assert took < 1, f"reminderctl status took {took:.1f} s after a pass while the store was locked"
        # A change pressed less than 10 s before the lock goes: acted on once it is let go.
        ramen = [c for c in calls(server) if c[1] == own("Ramen")][-1][2]
        server.invoke(ramen, "done")
        wait_for(lambda: put_aside(daemon, ramen), what="Ramen's Done put aside")
        wait_for(lambda: lock.held() >= 12, timeout=13, what="twelve seconds of lock")
        assert "expired" not in events_of(daemon, passing), "a write went through another program's lock"
    finally:
        lock.release()
    wait_for(lambda: daemon.ctl_json("show", walk["Ramen"])["item"]["status"] == "used", what="Ramen's Done")
    wait_for(lambda: "expired" in events_of(daemon, passing), what="the pass stored")
    assert events_of(daemon, passing).count("expired") == 1
    assert "dismissed" in events_of(daemon, walk["Pho"])
    assert events_of(daemon, due).count("fired") == 1
    # Stored, not only remembered: a restart reads it all back.
    daemon.stop()
    daemon.start()
    assert daemon.ctl_json("show", passing)["item"]["status"] == "expired"
    assert daemon.ctl_json("show", walk["Ramen"])["item"]["status"] == "used"
    assert events_of(daemon, passing).count("expired") == 1
    assert events_of(daemon, due).count("fired") == 1


def test_a_stop_while_locked_stores_what_waited_once_the_lock_goes(server, daemon):
    """SIGTERM while an occurrence's pass waits for the lock: the stop waits for it (up to 10 s)
    and stores it, so the next start neither loses nor repeats it."""
    daemon.start()
    passing = daemon.ctl_json("add", "coupon", "Passes meanwhile", "--expires", local_in(3))["id"]
    lock = StoreLock(daemon)
    try:
        wait_for(lambda: daemon.ctl_json("show", passing)["item"]["status"] == "expired", what="the pass while locked")
        daemon.process.terminate()
        wait_for(lambda: any("STOPPING=1" in m for m in daemon.read_messages()), what="the stop begun")
        assert daemon.process.poll() is None, "the stop did not wait for the lock"
    finally:
        lock.release()
    assert daemon.process.wait(10) == 0
    daemon.stop()
    daemon.start()
    assert events_of(daemon, passing).count("expired") == 1
    assert [e for e in events_of(daemon, passing) if e in ("expired", "missed")] == ["expired"]
