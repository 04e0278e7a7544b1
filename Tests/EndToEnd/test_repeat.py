"""Repeat until acknowledged (issue #30): `add … --repeat-every 15m --repeat-times 3` shows a
reminder left alone four times, 15 minutes apart; Done or closing the pop-up stops it, through a
restart. The quarter hours pass as restarts with the test clock 15 minutes further on
(REMINDERD_TEST_CLOCK_SHIFT): each repeat is then the one late pop-up of a start, planned from the
showing stored before it — the durable state a suspend or a restart must neither lose nor
multiply. The timer's own repeats, every 15 minutes of a running daemon, are the engine's unit
tests' (EngineRepeatTests, on its test clock)."""
import json
import subprocess
from datetime import datetime

from conftest import BIN, CLOCK_SHIFT, Daemon, local_in, wait_for

QUARTER = 15 * 60


class Shifted:
    """A daemon whose clock moves on a quarter of an hour at each restart."""

    def __init__(self, tmp_path, bus):
        self.shift = CLOCK_SHIFT
        self.daemon = Daemon(tmp_path, bus, {"timeZone": "UTC", "quietHours": None})
        self.daemon.env["REMINDERD_TEST_CLOCK_SHIFT"] = str(self.shift)
        self.daemon.start()

    def restart_a_quarter_later(self):
        self.daemon.stop()
        self.shift += QUARTER
        self.daemon.env["REMINDERD_TEST_CLOCK_SHIFT"] = str(self.shift)
        self.daemon.start()

    def add_repeating(self, title="Pizza"):
        """A coupon expiring in an hour and 3 seconds on the daemon's clock, reminded an hour
        before: in 3 seconds."""
        expires = local_in(3603 + self.shift - CLOCK_SHIFT)
        return self.daemon.ctl_json(
            "add", "coupon", title, "--expires", expires, "--lead", "1h",
            "--repeat-every", "15m", "--repeat-times", "3")["id"]

    def shown(self, item_id):
        """The instants history says the item's reminders were shown at."""
        entries = self.daemon.ctl_json("history", "--item", item_id)["entries"]
        return sorted(datetime.fromisoformat(e["at"]).timestamp() for e in entries if e["event"] == "fired")

    def settled(self, item_id):
        """Nothing more is planned for the item (no reminder ahead, none waiting for a server)."""
        return (self.daemon.ctl_json("show", item_id)["item"]["nextReminder"] is None
                and self.daemon.ctl_json("status")["status"]["waiting"] == 0)


def test_a_coupon_left_alone_is_shown_four_times_a_quarter_apart_then_no_more(server, bus, tmp_path):
    clock = Shifted(tmp_path, bus)
    try:
        item_id = clock.add_repeating()
        wait_for(lambda: len(server.notifications()) == 1, timeout=20, what="the reminder")
        upcoming = clock.daemon.ctl_json("upcoming")["reminders"]
        assert [r["lead"] for r in upcoming if r["item"] == item_id] == ["repeat 1"]
        for count in (2, 3, 4):
            clock.restart_a_quarter_later()
            wait_for(lambda: len(server.notifications()) == count, timeout=20, what=f"showing {count}")
        shown = clock.shown(item_id)
        assert len(shown) == 4
        assert all(QUARTER <= b - a < QUARTER + 20 for a, b in zip(shown, shown[1:])), shown
        assert all("Pizza" in call[0] for call in server.notifications())
        wait_for(lambda: clock.settled(item_id), what="nothing planned after the third repeat")
        clock.restart_a_quarter_later()
        wait_for(lambda: clock.settled(item_id), what="nothing planned after a restart")
        assert len(clock.shown(item_id)) == 4
    finally:
        clock.daemon.stop()


def test_done_or_closing_the_pop_up_stops_the_repeats_through_a_restart(server, bus, tmp_path):
    clock = Shifted(tmp_path, bus)
    try:
        done = clock.add_repeating()
        wait_for(lambda: len(server.notifications()) == 1, timeout=20, what="the reminder")
        clock.restart_a_quarter_later()
        wait_for(lambda: len(server.notifications()) == 2, timeout=20, what="its first repeat")
        clock.daemon.ctl("done", done)
        closed = clock.add_repeating("Bagels")
        wait_for(lambda: len(server.notifications()) == 3, timeout=20, what="the second coupon's reminder")
        # Closed by the person (reason 2); dbusmock numbers its pop-ups 1, 2, 3, none replacing another.
        server.gdbus("org.freedesktop.DBus.Mock.EmitSignal", "org.freedesktop.Notifications", "NotificationClosed",
                     "uu", "[<uint32 3>, <uint32 2>]")
        wait_for(lambda: "dismissed" in [e["event"] for e in clock.daemon.ctl_json("history", "--item", closed)["entries"]],
                 what="the dismiss recorded")
        wait_for(lambda: clock.settled(closed), what="the dismissed coupon's repeats off the plan")
        for _ in range(2):
            clock.restart_a_quarter_later()
            wait_for(lambda: clock.settled(done) and clock.settled(closed), what="nothing planned after a restart")
        assert len(clock.shown(done)) == 2 and len(clock.shown(closed)) == 1
        assert len(server.notifications()) == 3
    finally:
        clock.daemon.stop()


def test_plan_says_each_reminder_comes_back_unless_acknowledged(tmp_path):
    items = tmp_path / "items.json"
    items.write_text(json.dumps([
        {"kind": "coupon", "title": "Pizza", "expires": "2030-03-10", "lead": ["1d"], "repeatEvery": "15m"},
        {"kind": "coupon", "title": "Bagels", "expires": "2030-03-10", "lead": ["1d"]}]))
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"timeZone": "UTC", "repeatTimes": 2}))
    table = subprocess.run(
        [str(BIN / "reminderctl"), "plan", "--config", str(config), "--items", str(items), "--from", "2030-03-01",
         "--to", "2030-03-11"], capture_output=True, text=True, check=True, timeout=30).stdout
    rows = {line.split()[4]: line for line in table.splitlines()[1:]}
    assert rows["Pizza"].rstrip().endswith("then every 15m, 2 times unless acknowledged"), table
    assert "unless acknowledged" not in rows["Bagels"], table


def test_an_interval_or_count_out_of_range_is_refused_in_words(daemon):
    daemon.start()
    expires = local_in(86_400)
    for options, words in ((["--repeat-every", "30s"], '"30s": expected a number and a unit (m, h), like 15m or 2h'),
                           (["--repeat-every", "2d"], '"2d": unit d is not allowed here; use m, h'),
                           (["--repeat-every", "15m", "--repeat-times", "0"], "0 is not between 1 and 100"),
                           (["--repeat-every", "15m", "--repeat-times", "101"], "101 is not between 1 and 100")):
        refused = daemon.ctl("add", "coupon", "Pizza", "--expires", expires, *options, check=False)
        assert refused.returncode != 0 and words in refused.stderr, refused.stderr
    assert daemon.ctl_json("list")["items"] == []
