"""Pop-ups on screen when reminderd restarts are taken back at start (issue 27, found by the desktop
model test: their buttons did nothing afterwards, `reminderctl done` left them on screen, and a later
restart of the notification server lost their reminders). The new run closes the old pop-ups and shows
their reminders again, once: the new pop-ups' buttons work, a Done from the CLI closes them, and a
restart of the server shows them again there."""

import re

import json
import sqlite3

from conftest import NotificationServer, local_in, wait_for
from test_faults_state import store_path
from test_one_at_a_time import calls, own


def closed(server):
    """The ids reminderd closed, in order (dbusmock's log of CloseNotification calls)."""
    return [int(n) for n in re.findall(r"^\d+\.\d+ CloseNotification (\d+)", server.log.read_text(), re.M)]


def test_pop_ups_left_on_screen_by_a_restart_are_taken_back(bus, server, daemon, tmp_path):
    daemon.start()
    expires = local_in(2 * 86400 + 6)
    ids = {title: daemon.ctl_json("add", "coupon", title, "--expires", expires, "--lead", "48h")["id"]
           for title in ("Pho", "Ramen")}
    wait_for(lambda: {c[1] for c in calls(server)} == {own("Pho"), own("Ramen")}, timeout=20,
             what="a pop-up for each")
    before = {c[1]: c[2] for c in calls(server)}

    daemon.stop()
    daemon.start()
    # The old pop-ups are closed and each reminder is shown again, once.
    wait_for(lambda: len(calls(server)) == 4, what="both shown again after the restart")
    assert sorted(closed(server)) == sorted(before.values())
    after = {c[1]: c[2] for c in calls(server)[2:]}
    assert set(after) == {own("Pho"), own("Ramen")} and not set(after.values()) & set(before.values())

    # Its button works.
    server.invoke(after[own("Pho")], "done")
    wait_for(lambda: daemon.ctl_json("show", ids["Pho"])["item"]["status"] == "used", what="Pho done by its button")

    # A restart of the server shows what was open again there, once.
    server.stop()
    second = NotificationServer(bus, tmp_path / "notify2.log")
    try:
        wait_for(lambda: [c[1] for c in calls(second)] == [own("Ramen")], what="Ramen on the new server")
        # A Done from the CLI closes it.
        daemon.ctl("done", ids["Ramen"])
        wait_for(lambda: closed(second) == [calls(second)[0][2]], what="Ramen's pop-up closed by `done`")
        assert [c[1] for c in calls(second)] == [own("Ramen")]
    finally:
        second.stop()
    for item_id in ids.values():
        events = [e["event"] for e in daemon.ctl_json("history", "--item", item_id)["entries"]]
        assert events.count("fired") == 1, events


def stored_reshow(daemon):
    connection = sqlite3.connect(store_path(daemon))
    try:
        row = connection.execute("SELECT value FROM setting WHERE key = 'reshow'").fetchone()
    finally:
        connection.close()
    return json.loads(row[0]) if row else {}


def test_a_done_confirmation_left_on_screen_by_a_restart_is_taken_back(server, daemon):
    """Its Undo would do nothing in the new run (the run that offered it is gone)."""
    daemon.start()
    item_id = daemon.ctl_json("add", "coupon", "Pho", "--expires", local_in(2 * 86400 + 6), "--lead", "48h")["id"]
    wait_for(lambda: [c[1] for c in calls(server)] == [own("Pho")], timeout=20, what="Pho's pop-up")
    server.invoke(calls(server)[0][2], "done")
    wait_for(lambda: len(calls(server)) == 2, what="the Done confirmation")
    confirmation = calls(server)[1]
    assert '["undo", ' in server.notifications()[1][2], "the confirmation offers no Undo"
    wait_for(lambda: confirmation[2] in stored_reshow(daemon).get("close", []), what="the confirmation stored to take back")

    daemon.stop()
    daemon.start()
    wait_for(lambda: confirmation[2] in closed(server), what="the confirmation taken back")
    assert daemon.ctl_json("show", item_id)["item"]["status"] == "used"
    assert [c[1] for c in calls(server)].count(own("Pho")) == 1
