"""Quiet hours are never silent (issue 22): at a fixed hour on a test clock, with the default
quiet hours 22:00–08:00, the README walk-through runs and its test coupon either gets its reminder
a minute before it expires or, at night, `add` says why none will come and what to do, and
`explain` gives the real reason — not "at or after the due time" with quiet hours "not affected"."""
import json
import subprocess
from datetime import datetime, timezone

import pytest

from conftest import ROOT, Daemon, clock_at

WINDOW = "quiet hours 22:00–08:00"


def daemon_at(bus, tmp_path, when):
    """A daemon with the default quiet hours whose clock (and reminderctl's) reads `when`, and a
    shell environment whose `date` reads the same clock."""
    daemon = Daemon(tmp_path, bus, {"timeZone": "UTC"})
    shell = clock_at(daemon, when)
    return daemon.start(), shell


def walk_through(shell):
    """Runs the README's walk-through as a user types it; returns each reminderctl line's output."""
    readme = (ROOT / "README.md").read_text()
    block = readme.split("## A walk-through", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    outputs = []
    for line in block.splitlines():
        if not line.startswith(("reminderctl", "export")):
            continue
        result = subprocess.run(["bash", "-c", line], env=shell, capture_output=True, text=True, timeout=30)
        assert result.returncode == 0, f"{line}: {result.stderr}"
        outputs.append((line, result.stdout))
    return outputs


def coupon_output(outputs):
    line, out = outputs[-1]
    assert 'add coupon "Test"' in line
    return out


@pytest.mark.parametrize("hour", [23, 22])
def test_the_walk_through_at_night_says_why_its_test_coupon_gets_no_reminder(bus, server, tmp_path, hour):
    daemon, shell = daemon_at(bus, tmp_path, datetime(2030, 3, 5, hour, 0, 5, tzinfo=timezone.utc))
    try:
        out = coupon_output(walk_through(shell))
        assert "no reminder pending" in out
        assert f"No reminder will come before it is due, Tue 2030-03-05 {hour}:03:\n" \
               f"  1m  Tue 2030-03-05 {hour}:02  in {WINDOW}, which end after the due time; a minute before they " \
               "begin (Tue 2030-03-05 21:59) is before the item was added\n" in out
        assert "reminderctl setup --quiet-hours START-END (or none)" in out
        coupon = [i for i in daemon.ctl_json("list")["items"] if i["title"] == "Test"][0]
        explained = daemon.ctl("explain", coupon["id"]).stdout
        assert "moved to a minute before quiet hours" in explained
        assert "(Tue 2030-03-05 21:59) is before the item was added" in explained
        assert "at or after the due time" not in explained and "not affected" not in explained
    finally:
        daemon.stop()


def test_the_walk_through_by_day_gives_its_test_coupon_a_reminder_and_no_note(bus, server, tmp_path):
    daemon, shell = daemon_at(bus, tmp_path, datetime(2030, 3, 5, 12, 0, 5, tzinfo=timezone.utc))
    try:
        out = coupon_output(walk_through(shell))
        assert "next reminder Tue 2030-03-05 12:02" in out
        assert "No reminder" not in out
    finally:
        daemon.stop()


def test_an_edit_that_leaves_no_reminder_says_so(bus, tmp_path):
    daemon, _ = daemon_at(bus, tmp_path, datetime(2030, 3, 5, 21, 0, 5, tzinfo=timezone.utc))
    try:
        item = daemon.ctl_json("add", "coupon", "Pho", "--expires", "2030-03-05T21:30", "--lead", "10m")["item"]
        assert item["nextReminder"].startswith("2030-03-05T21:20")
        out = daemon.ctl("edit", item["id"], "--lead", "2h").stdout
        assert "no reminder pending" in out
        assert "No reminder will come before it is due, Tue 2030-03-05 21:30:\n" \
               "  2h  Tue 2030-03-05 19:30  before the item was added\n" in out
        assert f"reminderctl edit {item['id']} --lead 10m" in out
        # A lead whose time came after the item was added but before this edit is passed over.
        backup = tmp_path / "older.json"
        backup.write_text(json.dumps([{"id": "old1", "kind": "coupon", "title": "Ramen",
                                       "expires": "2030-03-05T21:30", "createdAt": "2030-03-05T20:00:00Z"}]))
        daemon.ctl("import", str(backup))
        out = daemon.ctl("edit", "old1", "--lead", "30m").stdout
        assert "No reminder will come before it is due, Tue 2030-03-05 21:30:\n" \
               "  30m  Tue 2030-03-05 21:00  its time had passed when the item or the settings changed\n" in out, out
    finally:
        daemon.stop()
