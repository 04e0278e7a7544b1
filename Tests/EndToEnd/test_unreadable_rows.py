"""A stored value of the wrong type — a row edited by hand with sqlite3, whose INTEGER columns
take any text — never stops reminderd: at start the row is left out and named in the log, and a
command that reads it answers from the other rows. It once trapped in the row reader: reminderd
died at every start (a restart loop under Restart=on-failure), or when `history` was asked."""
import sqlite3

from conftest import wait_for
from test_faults_state import store_path


def corrupt(daemon, *statements):
    connection = sqlite3.connect(store_path(daemon))
    with connection:
        for statement in statements:
            connection.execute(statement)
    connection.close()


def test_rows_of_the_wrong_type_are_left_out_and_named_never_a_crash(server, daemon):
    daemon.start()
    alpha = daemon.ctl_json("add", "coupon", "Alpha", "--expires", "2031-01-01")["id"]
    kept = daemon.ctl_json("add", "coupon", "Beta", "--expires", "2031-01-01")["id"]
    daemon.ctl("done", alpha)
    daemon.ctl("done", kept)
    daemon.stop()
    # Every table a start reads, one row each (a TEXT column takes a non-UTF-8 blob).
    corrupt(daemon, f"UPDATE occurrence SET due = 'soon' WHERE itemId = '{alpha}'",
            "INSERT INTO setting (key, value) VALUES ('lastSeen', x'ff') "
            "ON CONFLICT (key) DO UPDATE SET value = x'ff'",
            "INSERT INTO fire (itemId, due, fireAt, shownAt, notificationId) "
            f"VALUES ('{kept}', 1, 2, 'then', 4)")
    daemon.start()
    assert daemon.process.poll() is None
    listed = {i["id"]: i for i in daemon.ctl_json("list", "--all")["items"]}
    assert kept in listed and listed[kept]["status"] == "used"
    log = (daemon.tmp / "daemon.log").read_text()
    assert 'a stored row cannot be read and is left out: column due of' in log
    assert 'is the text "soon", not an integer' in log
    assert "column shownAt of" in log and "column value of" in log

    # A history line whose time is text: `history` answers with the others; reminderd lives on.
    daemon.stop()
    corrupt(daemon, f"UPDATE history SET at = 'x' WHERE itemId = '{kept}' AND event = 'done'")
    daemon.start()
    history = daemon.ctl("history", check=False)
    assert history.returncode == 0, history.stderr
    assert "Alpha" in history.stdout
    wait_for(lambda: "column at of" in (daemon.tmp / "daemon.log").read_text(), what="the history row named")
    assert daemon.process.poll() is None
    assert daemon.ctl("status").returncode == 0
