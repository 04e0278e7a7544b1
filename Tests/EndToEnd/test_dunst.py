"""A real notification server: dunst under Xvfb shows reminderd's pop-ups, and its pause is
respected as the desktop's do-not-disturb."""
import json
import os
import random
import shutil
import subprocess
import time

import pytest

from conftest import Daemon, NotificationServer, fired_once_and_settled, local_in, wait_for

pytestmark = pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("dunst")), reason="needs Xvfb and dunst")


def start_desktop(bus, tmp_path):
    """Xvfb and dunst on `bus`: (dunstctl runner, stop)."""
    display = f":{random.randint(200, 400)}"
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "800x200x24"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = dict(os.environ, DISPLAY=display, DBUS_SESSION_BUS_ADDRESS=bus.address)
    (tmp_path / "dunstrc").write_text("[global]\n    font = DejaVu Sans 10\n[urgency_low]\n    timeout = 0\n[urgency_normal]\n    timeout = 0\n")
    time.sleep(0.5)
    dunst = subprocess.Popen(["dunst", "-config", str(tmp_path / "dunstrc")], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def ctl(*args):
        return subprocess.run(["dunstctl", *args], env=env, capture_output=True, text=True, timeout=10)

    def stop():
        dunst.terminate()
        xvfb.terminate()
        dunst.wait(5)
        xvfb.wait(5)

    wait_for(lambda: ctl("is-paused").returncode == 0, what="dunst on the bus")
    return ctl, stop


@pytest.fixture
def desktop(bus, tmp_path):
    ctl, stop = start_desktop(bus, tmp_path)
    yield ctl
    stop()


def shown(ctl):
    history = json.loads(ctl("history").stdout or "{}").get("data", [[]])[0]
    return int(ctl("count", "displayed").stdout.strip() or 0), [entry["body"]["data"] for entry in history]


def test_dunst_shows_the_pop_up_with_its_text(bus, desktop, tmp_path):
    daemon = Daemon(tmp_path, bus).start()
    try:
        daemon.ctl("add", "coupon", "Sushi", "--expires", local_in(64), "--lead", "1m", "--code", "FISH")
        wait_for(lambda: shown(desktop)[0] == 1, timeout=15, what="the pop-up on dunst")
        status = daemon.ctl_json("status")["status"]["notificationServer"]
        assert status["name"] == "dunst" and "actions" in status["capabilities"]
        desktop("close-all")
        displayed, bodies = shown(desktop)
        assert any("Sushi expires in 1m" in body and "code FISH" in body for body in bodies)
    finally:
        daemon.stop()


def test_a_paused_dunst_holds_reminders_until_it_resumes(bus, desktop, tmp_path):
    daemon = Daemon(tmp_path, bus).start()
    try:
        desktop("set-paused", "true")
        daemon.ctl("add", "coupon", "Ramen", "--expires", local_in(2 * 86400 + 6), "--lead", "48h")
        wait_for(lambda: any(e["event"] == "held" and "dunst is paused" in e["reason"] for e in daemon.ctl_json("history")["entries"]),
                 timeout=15, what="the held reminder")
        desktop("set-paused", "false")
        wait_for(lambda: shown(desktop)[0] == 1, timeout=10, what="the pop-up after the pause")
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
