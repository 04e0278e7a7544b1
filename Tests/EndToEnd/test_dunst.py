"""A real notification server: dunst under Xvfb shows reminderd's pop-ups, and its pause is
respected as the desktop's do-not-disturb."""
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from datetime import datetime, timezone

from conftest import Daemon, NotificationServer, clock_at, fired_once_and_settled, local_in, start_xvfb, wait_for

pytestmark = pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("dunst")), reason="needs Xvfb and dunst")


# dunst's own dunstrc is used (low and normal pop-ups vanish after 10 s); the only line of ours
# names the program dunst runs for its context menu, a stand-in for the person who picks an entry
# (dmenu itself needs a person at the keyboard): it picks the entry containing the text in
# $PICK_FILE (dunst runs it in its own environment, so the test writes its choice there).
PICKER = """#!/usr/bin/python3
import os, sys
lines = sys.stdin.read().splitlines()
pick = open(os.environ["PICK_FILE"]).read()
# "<Enter>": the person presses Enter on the entry the menu offers first.
chosen = lines[:1] if pick == "<Enter>" else [line for line in lines if pick and pick in line]
with open(os.environ["PICK_LOG"], "a") as log:
    log.write("\\n".join(lines) + "\\n")
print(chosen[0] if chosen else "")
"""


def start_desktop(bus, tmp_path, screen="800x200x24"):
    """Xvfb and dunst, in its stock configuration, on `bus`: (dunstctl runner, stop, env)."""
    xvfb, display = start_xvfb(screen)
    picker = tmp_path / "picker"
    picker.write_text(PICKER)
    picker.chmod(0o755)
    (tmp_path / "dunst-config").mkdir(exist_ok=True)
    (tmp_path / "dunstrc").write_text(f"[global]\n    dmenu = {picker}\n")
    env = dict(os.environ, DISPLAY=display, DBUS_SESSION_BUS_ADDRESS=bus.address, XDG_CONFIG_HOME=str(tmp_path / "dunst-config"),
               PICK_LOG=str(tmp_path / "picks.log"), PICK_FILE=str(tmp_path / "pick"))
    dunst = subprocess.Popen(["dunst", "-config", str(tmp_path / "dunstrc")], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def ctl(*args, pick=None):
        (tmp_path / "pick").write_text(pick or "")
        return subprocess.run(["dunstctl", *args], env=env, capture_output=True, text=True, timeout=10)

    def stop():
        dunst.terminate()
        xvfb.terminate()
        dunst.wait(5)
        xvfb.wait(5)

    wait_for(lambda: ctl("is-paused").returncode == 0, what="dunst on the bus")
    ctl.env = env
    return ctl, stop


@pytest.fixture
def desktop(bus, tmp_path):
    ctl, stop = start_desktop(bus, tmp_path, screen="1000x300x24")
    yield ctl
    stop()


def shown(ctl):
    history = json.loads(ctl("history").stdout or "{}").get("data", [[]])[0]
    return int(ctl("count", "displayed").stdout.strip() or 0), [entry["body"]["data"] for entry in history]


def notify(env, summary, urgency):
    """A pop-up of another program, sent with dunst's default timeout (-1)."""
    subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
                    "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.Notify", "--", "'other'", "0",
                    "''", f"'{summary}'", "''", "@as []", f"{{'urgency': <byte {urgency}>}}", "-1"], env=env, check=True, capture_output=True)


def test_on_stock_dunst_a_reminder_stays_names_its_item_and_its_done_and_undo_reach_reminderd(bus, desktop, tmp_path):
    daemon = Daemon(tmp_path, bus).start()
    try:
        # Ten days out: a low-urgency pop-up, which stock dunst removes after 10 s unless told 0.
        item_id = daemon.ctl_json("add", "coupon", "Sushi", "--expires", local_in(10 * 86400 + 8), "--lead", "240h",
                                  "--code", "FISH")["id"]
        wait_for(lambda: shown(desktop)[0] == 1, timeout=15, what="the pop-up on dunst")
        notify(desktop.env, "Other program", 0)  # same urgency, dunst's default timeout: gone after 10 s
        wait_for(lambda: "Other program" in summaries(desktop), timeout=20, what="the other pop-up expiring")
        assert shown(desktop)[0] == 1  # the reminder is still on screen
        screenshot(desktop.env, "popup-dunst.png", "350x100+650+40")
        # dunst's context menu lists the reminder's buttons under its own name.
        assert desktop("context", pick="Mark as used").returncode == 0
        wait_for(lambda: daemon.ctl_json("show", item_id)["item"]["status"] == "used", timeout=10, what="Done from dunst's menu")
        entries = open(desktop.env["PICK_LOG"]).read()
        assert "Mark as used (\u2068Sushi\u2069)" in entries and "Snooze 1h (\u2068Sushi\u2069)" in entries
        assert "Show" not in entries and "Snooze 1w" not in entries  # three buttons at most, none that does nothing
        wait_for(lambda: shown(desktop)[0] == 1, timeout=10, what="the Undo offer")
        assert desktop("context", pick="Undo").returncode == 0
        wait_for(lambda: daemon.ctl_json("show", item_id)["item"]["status"] != "used", timeout=10, what="Undo from dunst's menu")
    finally:
        daemon.stop()


def summaries(ctl):
    """The summaries of dunst's history (pop-ups that closed)."""
    history = json.loads(ctl("history").stdout or "{}").get("data", [[]])[0]
    return [entry["summary"]["data"] for entry in history]


def screenshot(env, name, crop):
    """With REMINDERD_SCREENSHOTS=DIR, saves the X screen's `crop` there as `name` (for docs/)."""
    directory = os.environ.get("REMINDERD_SCREENSHOTS")
    if directory:
        subprocess.run(["import", "-window", "root", "-crop", crop, "+repage", os.path.join(directory, name)], env=env, check=True)


def test_a_paused_dunst_holds_reminders_until_it_resumes(bus, desktop, tmp_path):
    daemon = Daemon(tmp_path, bus).start()
    try:
        desktop("set-paused", "true")
        daemon.ctl("add", "coupon", "Ramen", "--expires", local_in(2 * 86400 + 6), "--lead", "48h")
        wait_for(lambda: any(e["event"] == "held" and "dunst is paused" in e["reason"] for e in daemon.ctl_json("history")["entries"]),
                 timeout=15, what="the held reminder")
        desktop("set-paused", "false")
        wait_for(lambda: shown(desktop)[0] == 1, timeout=10, what="the pop-up after the pause")
        # It says why it comes late: closed, dunst's history has its body.
        assert desktop("close-all").returncode == 0
        bodies = wait_for(lambda: shown(desktop)[1], timeout=10, what="the pop-up in dunst's history")
        assert any("\nHeld by Do Not Disturb since " in body for body in bodies), bodies
    finally:
        daemon.stop()


def test_pop_ups_open_on_dbusmock_are_shown_once_on_dunst_when_it_takes_over(bus, tmp_path):
    mock = NotificationServer(bus, tmp_path / "mock.log")
    daemon = Daemon(tmp_path, bus).start()
    try:
        item_id = daemon.ctl_json("add", "coupon", "Tacos", "--expires", local_in(3606), "--lead", "1h")["id"]
        wait_for(mock.notifications, timeout=15, what="the pop-up on dbusmock")
        mock.stop()
        ctl, stop = start_desktop(bus, tmp_path)
        try:
            wait_for(lambda: shown(ctl)[0] == 1, timeout=15, what="the pop-up shown again on dunst")
            assert fired_once_and_settled(daemon, item_id, event="reshown") == 1
            assert shown(ctl)[0] == 1  # once, not once per server event
            assert daemon.ctl_json("status")["status"]["notificationServer"]["name"] == "dunst"
            events = [e["event"] for e in daemon.ctl_json("history")["entries"]]
            assert events.count("fired") == 1 and events.count("reshown") == 1  # re-posting is not a second fire
        finally:
            stop()
    finally:
        daemon.stop()


def pick(desktop, text):
    """Picks the entry containing `text` from dunst's context menu (the buttons of the pop-ups
    on screen, as "Label (Summary)"); whether it was listed. dunst opens no menu while no pop-up
    on screen has a button: then, after two seconds of an empty log, none was listed."""
    log = Path(desktop.env["PICK_LOG"])
    log.write_text("")
    desktop("context", pick=text)
    deadline = time.monotonic() + 2
    while not log.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    return any(text in line for line in log.read_text().splitlines())


def seven_at_one_instant(daemon):
    """Seven coupons whose reminders all fire in a few seconds, two days before they expire (so
    each reminder's own pop-up offers Done, Snooze 1h and Snooze until tomorrow): their ids, by title."""
    expires = local_in(2 * 86400 + 6)
    return {f"Deal {n}": daemon.ctl_json("add", "coupon", f"Deal {n}", "--expires", expires, "--lead", "48h")["id"]
            for n in range(1, 8)}


def status(daemon, item_id):
    return daemon.ctl_json("show", item_id)["item"]["status"]


def test_on_dunst_seven_reminders_at_one_instant_are_each_marked_done_with_buttons_only(bus, desktop, tmp_path):
    daemon = Daemon(tmp_path, bus).start()
    try:
        ids = seven_at_one_instant(daemon)
        wait_for(lambda: shown(desktop)[0] == 1, timeout=15, what="the grouped pop-up on dunst")
        wait_for(lambda: pick(desktop, "One at a time (7 reminders: "), timeout=10, what="One at a time in dunst's menu")
        listed = open(desktop.env["PICK_LOG"]).read()
        assert "Snooze all 1h (7 reminders: " in listed and "Mark as used (7 reminders" not in listed  # no Done for all
        for title, item_id in ids.items():  # shown in the group's order: by title
            wait_for(lambda: pick(desktop, f"Mark as used (\u2068{title}\u2069)"), timeout=10, what=f"{title}'s own pop-up")
            wait_for(lambda: status(daemon, item_id) == "used", timeout=10, what=f"{title} done from its button")
            others = [line for line in open(desktop.env["PICK_LOG"]).read().splitlines() if "Mark as used (" in line]
            assert len(others) == 1  # one reminder's pop-up at a time
        assert all(status(daemon, item_id) == "used" for item_id in ids.values())
    finally:
        daemon.stop()


def test_on_dunst_snooze_all_snoozes_the_seven_reminders_of_a_grouped_pop_up(bus, desktop, tmp_path):
    daemon = Daemon(tmp_path, bus).start()
    try:
        ids = seven_at_one_instant(daemon)
        wait_for(lambda: shown(desktop)[0] == 1, timeout=15, what="the grouped pop-up on dunst")
        wait_for(lambda: pick(desktop, "Snooze all 1h (7 reminders: "), timeout=10, what="Snooze all in dunst's menu")
        wait_for(lambda: all(any(e["event"] == "snoozed" for e in daemon.ctl_json("history", "--item", i)["entries"]) for i in ids.values()),
                 timeout=10, what="all seven snoozed")
        wait_for(lambda: shown(desktop)[0] == 0, timeout=10, what="the grouped pop-up closed")
    finally:
        daemon.stop()


def menu(desktop):
    """The entries of dunst's context menu now, in its order (none picked): "#Label (Summary) [id,key]"."""
    pick(desktop, "")
    return menu_log(desktop)


def menu_log(desktop):
    """The entries of the menu dunst opened last (none if it opened none since `pick` cleared them)."""
    return open(desktop.env["PICK_LOG"]).read().splitlines()


def test_on_dunst_a_walk_by_enter_keeps_every_done_and_an_undo_shows_what_it_restored(bus, desktop, tmp_path):
    """Issue 27, defect 9: four coupons at one instant, One at a time, each marked used by opening
    dunst's menu and pressing Enter once the next reminder is on screen beside the Done's
    confirmation: the first entry is that reminder's "Mark as used", never the last Done's Undo,
    and all four stay used. The last Done's Undo shows what it restored."""
    daemon = Daemon(tmp_path, bus).start()
    try:
        expires = local_in(2 * 86400 + 6)
        ids = {f"Deal {n}": daemon.ctl_json("add", "coupon", f"Deal {n}", "--expires", expires, "--lead", "48h")["id"]
               for n in range(1, 5)}
        wait_for(lambda: shown(desktop)[0] == 1, timeout=15, what="the grouped pop-up on dunst")
        wait_for(lambda: pick(desktop, "One at a time (4 reminders: "), timeout=10, what="One at a time in dunst's menu")
        for step, (title, item_id) in enumerate(ids.items()):
            mark = f"Mark as used (\u2068{title}\u2069)"
            # As a person: the next reminder is on screen (with the last Done's confirmation, after the first).
            # (on screen, or already gone after its ten seconds on a slow machine: then in dunst's history).
            wait_for(lambda: any(mark in line for line in menu(desktop))
                     and (shown(desktop)[0] == min(step, 1) + 1 or summaries(desktop).count("Done") >= step),
                     timeout=10, what=f"{title}'s own pop-up")
            # dunst refuses a menu while its last one is closing: Enter again only if none opened.
            entries = wait_for(lambda: pick(desktop, "<Enter>") or menu_log(desktop), timeout=10, what="the menu")
            assert mark in entries[0], entries
            wait_for(lambda: status(daemon, item_id) == "used", timeout=10, what=f"{title} done by Enter")
            assert all(status(daemon, i) == "used" for i in list(ids.values())[:step + 1])
        wait_for(lambda: any("Undo (" in line for line in menu(desktop)), timeout=10, what="the last Done's Undo")
        assert all(status(daemon, i) == "used" for i in ids.values())
        assert pick(desktop, "Undo")
        wait_for(lambda: status(daemon, ids["Deal 4"]) != "used", timeout=10, what="Undo from dunst's menu")
        assert all(status(daemon, ids[t]) == "used" for t in ("Deal 1", "Deal 2", "Deal 3"))
        # The Undo said what it restored: its pop-up, closed, is in dunst's history.
        wait_for(lambda: desktop("close-all").returncode == 0 and "Undone" in summaries(desktop), timeout=10,
                 what="the Undone pop-up")
        undone = [e for e in json.loads(desktop("history").stdout)["data"][0] if e["summary"]["data"] == "Undone"]
        assert "Deal 4" in undone[0]["body"]["data"], undone
    finally:
        daemon.stop()


def test_on_dunst_a_free_trials_i_cancelled_ends_it_and_the_words_shown_say_what_happened(bus, desktop, tmp_path):
    """Issue 30's free trial on stock dunst, as a person meets it: the pop-up says what the trial
    will charge and when, dunst's menu offers "Keep it" and "I cancelled" under its name; "I
    cancelled" ends the subscription, the pop-up goes, and the confirmation says "Cancelled Hulu"
    with an Undo in the menu. The daemon's clock reads three seconds before 09:00, a day before the
    trial's last day."""
    daemon = Daemon(tmp_path, bus)
    clock_at(daemon, datetime(2030, 1, 20, 8, 59, 57, tzinfo=timezone.utc))
    daemon.start()
    try:
        item_id = daemon.ctl_json("add", "subscription", "Hulu", "--amount", "9.99", "--every", "1mo", "--trial-ends",
                                  "2030-01-21", "--lead", "1d")["id"]
        wait_for(lambda: shown(desktop)[0] == 1, timeout=20, what="the trial's pop-up on dunst")
        entries = wait_for(lambda: menu(desktop), timeout=10, what="dunst's menu")
        assert any("Keep it (\u2068Hulu\u2069)" in line for line in entries), entries
        # dunst opens no menu while the one just read is closing: pick again until it lists the entry.
        wait_for(lambda: pick(desktop, "I cancelled (\u2068Hulu\u2069)"), timeout=10, what="I cancelled in dunst's menu")
        wait_for(lambda: daemon.ctl_json("show", item_id)["item"].get("cancelled") == "2030-01-20", timeout=10,
                 what="the trial cancelled from dunst's menu")
        # The confirmation is on screen with its Undo; closed, it and the reminder are in dunst's history.
        wait_for(lambda: any("Undo (Done)" in line for line in menu(desktop)), timeout=10, what="the confirmation's Undo")
        wait_for(lambda: desktop("close-all").returncode == 0 and "Done" in summaries(desktop), timeout=10,
                 what="the confirmation in dunst's history")
        history = json.loads(desktop("history").stdout)["data"][0]
        words = {plain(e["summary"]["data"]): plain(e["body"]["data"]) for e in history}
        assert words["Hulu"] == "Free Trial Ends Soon · Hulu free trial ends tomorrow · then $9.99/mo", words
        assert words["Done"] == "Cancelled Hulu", words
        assert daemon.ctl_json("show", item_id)["item"]["nextReminder"] is None
    finally:
        daemon.stop()


def plain(text):
    """Text as dunst shows it, without the bidi isolates around an item's title."""
    return text.replace("\u2068", "").replace("\u2069", "")
