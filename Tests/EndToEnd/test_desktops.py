"""Real notification servers other than dunst, each in its stock configuration: a reminder stays on
screen, names its item, offers only fitting buttons, its buttons reach reminderd and the Undo
offer is reachable. xfce4-notifyd runs under Xvfb and is clicked with xdotool; mako runs on a
headless sway as a user of its own (both refuse to run as root); GNOME Shell, whose start costs a
minute, runs only with REMINDERD_GNOME_TEST=1 (see docs/gnome-manual-check.md).

With REMINDERD_SCREENSHOTS=DIR the tests save what the screen showed there (scripts/screenshot.sh
writes docs/popup-*.png that way)."""
import json
import os
import pwd
import random
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from conftest import BUS_CONFIG, Daemon, installed_icon, local_in, start_xvfb, wait_for

XFCE4_NOTIFYD = "/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd"
SHOTS = os.environ.get("REMINDERD_SCREENSHOTS")


class SharedBus:
    """A private bus (a session bus, or a stand-in system bus) that other users may connect to too
    (mako and GNOME Shell run as a user of their own)."""

    def __init__(self, directory, kind="session"):
        config = Path(directory) / f"shared-{kind}-bus.conf"
        config.write_text(BUS_CONFIG.replace('<policy context="default">', '<policy context="default">\n    <allow user="*"/>')
                          .replace("<type>session</type>", f"<type>{kind}</type>"))
        self.process = subprocess.Popen(
            ["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address=1"], stdout=subprocess.PIPE, text=True)
        self.address = self.process.stdout.readline().strip()
        assert self.address, "dbus-daemon printed no address"

    def stop(self):
        self.process.terminate()
        self.process.wait(5)


def server_name(env):
    result = subprocess.run(
        ["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
         "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.GetServerInformation"],
        env=env, capture_output=True, text=True, timeout=10)
    return result.stdout if result.returncode == 0 else ""


def notify_other(env, summary):
    """Another program's pop-up with the server's default timeout (-1), low urgency like ours."""
    subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
                    "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.Notify", "--", "'other'", "0",
                    "''", f"'{summary}'", "''", "@as []", "{'urgency': <byte 0>}", "-1"], env=env, check=True, capture_output=True)


def stop(*processes):
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


# xfce4-notifyd -----------------------------------------------------------------------------------

def xfce_pop_ups(env):
    """The pop-up windows on screen, top first: {window id: (x, y, width, height)}."""
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "xfce4-notifyd"], env=env,
                           capture_output=True, text=True)
    windows = []
    for window in found.stdout.split():
        shell = subprocess.run(["xdotool", "getwindowgeometry", "--shell", window], env=env, capture_output=True, text=True)
        fields = dict(line.split("=", 1) for line in shell.stdout.split() if "=" in line)
        if shell.returncode != 0 or "X" not in fields:
            continue  # it closed meanwhile
        geometry = tuple(int(fields[key]) for key in ("X", "Y", "WIDTH", "HEIGHT"))
        if geometry[2] > 20 and geometry[3] > 20:  # not its 10x10 and 1x1 helper windows
            windows.append((window, geometry))
    return dict(sorted(windows, key=lambda w: w[1][1]))


def shows_the_icon(env, x, y, width=60, height=60, screen="x:root"):
    """Whether reminderd's icon is drawn in the screen's box at (x, y): its yellow coin, which no
    server's missing-icon placeholder has. `screen`: the X screen, or a screenshot's file."""
    text = subprocess.run(["convert", screen, "-crop", f"{width}x{height}+{x}+{y}", "-depth", "8", "txt:-"], env=env,
                          capture_output=True, text=True).stdout
    pixels = (tuple(int(v) for v in line.split("(")[1].split(")")[0].split(",")[:3]) for line in text.splitlines()[1:])
    return sum(1 for r, g, b in pixels if r > 200 and g > 170 and b < 90) > 20


def settled_pop_ups(env):
    """`xfce_pop_ups` once two looks 0.1 s apart agree: xfce4-notifyd slides a window into the room
    another left, and a click must land where it comes to rest."""
    last = [None]

    def at_rest():
        now = xfce_pop_ups(env)
        same, last[0] = now == last[0], now
        return now if same and now else None
    return wait_for(at_rest, timeout=5, interval=0.1, what="the pop-ups at rest")


def click_button(env, window, index, count):
    """Clicks button `index` of `count` in the row xfce4-notifyd draws along a pop-up's bottom:
    several share the width equally; a single one sits at the right, at its natural width."""
    x, y, width, height = window
    centre = x + width - 56 if count == 1 else x + width * (2 * index + 1) // (2 * count)
    subprocess.run(["xdotool", "mousemove", str(centre), str(y + height - 30), "click", "1"], env=env, check=True)


@pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("xdotool") and os.path.exists(XFCE4_NOTIFYD)),
                    reason="needs Xvfb, xdotool and xfce4-notifyd")
def test_xfce4_notifyd_keeps_the_reminder_and_its_buttons_and_undo_reach_reminderd(bus, tmp_path):
    xvfb, display = start_xvfb("1000x400x24")
    (tmp_path / "xfce-config").mkdir()
    env = dict(os.environ, DISPLAY=display, DBUS_SESSION_BUS_ADDRESS=bus.address, XDG_CONFIG_HOME=str(tmp_path / "xfce-config"),
               XDG_DATA_DIRS=installed_icon(tmp_path))
    server = subprocess.Popen([XFCE4_NOTIFYD], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    daemon = Daemon(tmp_path, bus)
    try:
        wait_for(lambda: "Xfce Notify Daemon" in server_name(env), timeout=10, what="xfce4-notifyd on the bus")
        daemon.start()
        item_id = daemon.ctl_json("add", "coupon", "Sushi", "--expires", local_in(10 * 86400 + 8), "--lead", "240h",
                                  "--code", "FISH")["id"]
        wait_for(lambda: len(xfce_pop_ups(env)) == 1, timeout=15, what="the pop-up on xfce4-notifyd")
        notify_other(env, "Other program")  # xfce4-notifyd's default timeout removes it after 10 s
        wait_for(lambda: len(xfce_pop_ups(env)) == 2, timeout=5, what="the other pop-up")
        wait_for(lambda: len(xfce_pop_ups(env)) == 1, timeout=20, what="the other pop-up expiring")
        # The remaining pop-up slides up to where the other one was, and shows reminderd's icon there.
        # xfce4-notifyd sizes it to its buttons' labels: the icon is 20 px in from its left edge.
        wait_for(lambda: any(shows_the_icon(env, x + 20, 25) for x, _, _, _ in xfce_pop_ups(env).values()), timeout=5,
                 what="the reminderd icon on the remaining pop-up")
        if SHOTS:
            x, _, width, _ = next(iter(xfce_pop_ups(env).values()))
            subprocess.run(["import", "-window", "root", "-crop", f"{width + 30}x180+{x - 15}+0", "+repage",
                            os.path.join(SHOTS, "popup-xfce4-notifyd.png")], env=env, check=True)
        # Buttons: Mark as used, Snooze 1h, Snooze until tomorrow — three, the first Done.
        reminder = xfce_pop_ups(env)
        click_button(env, next(iter(reminder.values())), 0, 3)
        wait_for(lambda: daemon.ctl_json("show", item_id)["item"]["status"] == "used", timeout=10, what="Done clicked")
        # The Undo offer is a new window (the reminder's may still be fading out).
        undo = wait_for(lambda: next((w for w in xfce_pop_ups(env) if w not in reminder), None), timeout=10,
                        what="the Undo offer")
        click_button(env, settled_pop_ups(env)[undo], 0, 1)  # where the reminder's window left room
        wait_for(lambda: daemon.ctl_json("show", item_id)["item"]["status"] != "used", timeout=10, what="Undo clicked")
        events = [e["event"] for e in daemon.ctl_json("history", "--item", item_id)["entries"]]
        assert events.count("fired") == 1 and "done" in events and "undone" in events
    finally:
        daemon.stop()
        stop(server, xvfb)


def button_centres(env, window):
    """The centres of the buttons xfce4-notifyd drew along a pop-up's bottom, left to right, as
    seen on screen: the runs of non-white pixels across the row 30 pixels above its bottom edge
    (buttons sit at their natural width at the right, or share the width, as the labels need)."""
    x, y, width, height = window
    row = subprocess.run(["convert", "x:root", "-crop", f"{width}x1+{x}+{y + height - 30}", "-depth", "8", "txt:-"],
                         env=env, capture_output=True, text=True).stdout.splitlines()[1:]
    white = [line.split("(")[1].split(")")[0].split(",")[:3] == ["255", "255", "255"] for line in row]
    runs, start = [], None
    for column, is_white in enumerate(white + [True]):
        if not is_white and start is None:
            start = column
        elif is_white and start is not None:
            if column - start > 30:  # a button, not a border or a letter
                runs.append(x + (start + column) // 2)
            start = None
    return runs


def click_at(env, x, y):
    subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], env=env, check=True)


@pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("xdotool") and os.path.exists(XFCE4_NOTIFYD)),
                    reason="needs Xvfb, xdotool and xfce4-notifyd")
def test_xfce4_notifyd_goes_through_a_grouped_pop_up_one_at_a_time_by_clicks(bus, tmp_path):
    """Seven reminders at one instant: One at a time clicked, then Snooze 1h on each pop-up in turn
    (a snooze offers no Undo, so the only window on screen is always the one to click)."""
    xvfb, display = start_xvfb("1000x400x24")
    (tmp_path / "xfce-config").mkdir()
    env = dict(os.environ, DISPLAY=display, DBUS_SESSION_BUS_ADDRESS=bus.address, XDG_CONFIG_HOME=str(tmp_path / "xfce-config"))
    server = None
    daemon = Daemon(tmp_path, bus)
    try:
        server = subprocess.Popen([XFCE4_NOTIFYD], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: "Xfce Notify Daemon" in server_name(env), timeout=10, what="xfce4-notifyd on the bus")
        daemon.start()
        expires = local_in(2 * 86400 + 6)
        ids = [daemon.ctl_json("add", "coupon", f"Deal {n}", "--expires", expires, "--lead", "48h")["id"]
               for n in range(1, 8)]
        group, (_, top, _, _) = wait_for(lambda: next(iter(xfce_pop_ups(env).items()), None), timeout=15,
                                         what="the grouped pop-up on xfce4-notifyd")

        def alone_at_top(other_than):
            """The one pop-up window on screen, once it sits at the top and the last one is gone."""
            windows = xfce_pop_ups(env)
            if len(windows) == 1:
                ((window, geometry),) = windows.items()
                if window != other_than and geometry[1] == top:
                    return window, geometry

        _, geometry = wait_for(lambda: alone_at_top(None), timeout=10, what="the grouped pop-up settled")
        buttons = wait_for(lambda: button_centres(env, geometry), timeout=5, what="the group's buttons drawn")
        assert len(buttons) == 2  # One at a time, Snooze all 1h
        click_at(env, buttons[0], geometry[1] + geometry[3] - 30)
        shown = group
        for item_id in ids:  # in the group's order: by title
            shown, geometry = wait_for(lambda: alone_at_top(shown), timeout=10, what="the next reminder's pop-up")
            buttons = wait_for(lambda: button_centres(env, geometry), timeout=5, what="its buttons drawn")
            assert len(buttons) == 3  # Mark as used, Snooze 1h, Snooze 1d
            click_at(env, buttons[1], geometry[1] + geometry[3] - 30)
            wait_for(lambda: any(e["event"] == "snoozed" for e in daemon.ctl_json("history", "--item", item_id)["entries"]),
                     timeout=10, what="the reminder shown snoozed from its own pop-up")
        wait_for(lambda: not xfce_pop_ups(env), timeout=10, what="no pop-up left")
    finally:
        daemon.stop()
        stop(*[p for p in (server, xvfb) if p])


# mako on a headless sway ---------------------------------------------------------------------------

@pytest.fixture
def test_user():
    """A system user of the test's own (mako and sway refuse root), removed afterwards."""
    if os.geteuid() != 0:
        pytest.skip("creating the test user needs root")
    name = f"rmdpop{random.randint(10000, 99999)}"
    subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name], check=True)
    try:
        yield pwd.getpwnam(name)
    finally:
        subprocess.run(["userdel", name], check=False)


class Mako:
    """sway (headless) and mako, both as `user`, on `bus`; makoctl lists and invokes.

    mako runs in its stock configuration but for one option, `icon-path`, naming the private
    hicolor theme that `installed_icon` fills: mako 1.7 looks icons up only there and in
    /usr/share/icons/hicolor (never under XDG_DATA_DIRS), so this stands in for the package's
    /usr/share/icons/hicolor, which a test must not write."""

    def __init__(self, bus, user):
        self.directory = Path(tempfile.mkdtemp(prefix="reminderd-mako-"))
        self.directory.chmod(0o755)
        self.runtime = self.directory / "run"
        self.runtime.mkdir(mode=0o700)
        home = self.directory / "home"
        home.mkdir()
        for path in (self.runtime, home):
            os.chown(path, user.pw_uid, user.pw_gid)
        (self.directory / "sway.conf").write_text("")  # sway only hosts mako: no bar, no keys
        data_dirs = installed_icon(self.directory)
        self.env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_CONFIG_HOME": str(home), "XDG_RUNTIME_DIR": str(self.runtime),
                    "DBUS_SESSION_BUS_ADDRESS": bus.address, "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1",
                    "WLR_RENDERER": "pixman", "XDG_DATA_DIRS": data_dirs}
        self.user = user
        self.sway = self.run_as_user(["sway", "-c", str(self.directory / "sway.conf")])
        socket = wait_for(lambda: next(iter(sorted(self.runtime.glob("wayland-*[0-9]"))), None), timeout=10,
                          what="sway's Wayland socket")
        self.env["WAYLAND_DISPLAY"] = socket.name
        self.mako = self.run_as_user(["mako", "--icon-path", str(self.directory / "share" / "icons" / "hicolor")])
        wait_for(lambda: "mako" in server_name(self.env), timeout=10, what="mako on the bus")

    def run_as_user(self, command):
        return subprocess.Popen(command, env=self.env, user=self.user.pw_uid, group=self.user.pw_gid, extra_groups=[],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, process_group=0)

    def ctl(self, *args):
        return subprocess.run(["makoctl", *args], env=self.env, user=self.user.pw_uid, group=self.user.pw_gid,
                              extra_groups=[], capture_output=True, text=True, timeout=10)

    def shown(self):
        """The pop-ups on screen: [{summary, body, actions}]."""
        listed = json.loads(self.ctl("list").stdout or '{"data": [[]]}')["data"][0]
        return [{"id": n["id"]["data"], "summary": n["summary"]["data"], "body": n["body"]["data"],
                 "actions": n["actions"]["data"]} for n in listed]

    def shows_the_icon(self):
        """Whether the top pop-up (mako's default place: the output's top right corner, 300 px
        wide, the icon at its left) shows reminderd's icon."""
        shot = self.runtime / "screen.png"
        subprocess.run(["grim", str(shot)], env=self.env, user=self.user.pw_uid, group=self.user.pw_gid, extra_groups=[],
                       check=True)
        return shows_the_icon(self.env, 960, 0, 100, 100, screen=str(shot))

    def screenshot(self, name):
        shot = self.runtime / name
        subprocess.run(["grim", "-g", "860,0 420x160", str(shot)], env=self.env, user=self.user.pw_uid,
                       group=self.user.pw_gid, extra_groups=[], check=True)
        shutil.copy(shot, os.path.join(SHOTS, name))

    def stop(self):
        stop(self.mako, self.sway)
        shutil.rmtree(self.directory, ignore_errors=True)


@pytest.fixture
def mako(tmp_path, test_user):
    if not (shutil.which("sway") and shutil.which("mako") and shutil.which("makoctl")):
        pytest.skip("needs sway and mako")
    bus = SharedBus(tmp_path)
    desktop = Mako(bus, test_user)
    desktop.bus = bus
    yield desktop
    desktop.stop()
    bus.stop()


def test_mako_shows_the_named_reminder_with_fitting_buttons_and_done_and_undo_reach_reminderd(mako, tmp_path):
    daemon = Daemon(tmp_path, mako.bus).start()
    try:
        item_id = daemon.ctl_json("add", "coupon", "Sushi", "--expires", local_in(10 * 86400 + 8), "--lead", "240h")["id"]
        shown = wait_for(mako.shown, timeout=15, what="the pop-up on mako")
        assert shown[0]["summary"] == "\u2068Sushi\u2069"
        assert shown[0]["actions"] == {"done": "Mark as used", "snooze-1h": "Snooze 1h", "snooze-tomorrow": "Snooze until tomorrow"}
        wait_for(mako.shows_the_icon, timeout=5, what="reminderd's icon drawn on the pop-up")
        if SHOTS:
            mako.screenshot("popup-mako.png")
        assert mako.ctl("invoke", "-n", str(shown[0]["id"]), "done").returncode == 0
        wait_for(lambda: daemon.ctl_json("show", item_id)["item"]["status"] == "used", timeout=10, what="Done from mako")
        undo = wait_for(lambda: [n for n in mako.shown() if "undo" in n["actions"]], timeout=10, what="the Undo offer")
        assert mako.ctl("invoke", "-n", str(undo[0]["id"]), "undo").returncode == 0
        wait_for(lambda: daemon.ctl_json("show", item_id)["item"]["status"] != "used", timeout=10, what="Undo from mako")
    finally:
        daemon.stop()


def test_mako_gets_one_grouped_pop_up_for_reminders_due_at_one_instant(mako, tmp_path):
    daemon = Daemon(tmp_path, mako.bus).start()
    try:
        expires = local_in(3600 + 8)
        ids = [daemon.ctl_json("add", "coupon", title, "--expires", expires, "--lead", "1h")["id"]
               for title in ("Sushi", "Tacos", "Ramen", "Pho")]
        shown = wait_for(mako.shown, timeout=15, what="the grouped pop-up")
        wait_for(lambda: all("fired" in [e["event"] for e in daemon.ctl_json("history", "--item", i)["entries"]] for i in ids),
                 timeout=10, what="every grouped reminder recorded fired")
        shown = mako.shown()
        assert len(shown) == 1
        assert shown[0]["summary"].startswith("4 reminders: ")
        assert shown[0]["actions"] == {"one-at-a-time": "One at a time"}  # no Done that would mark all four
        for item_id in ids:
            assert f"reminderctl done {item_id}" in shown[0]["body"]
    finally:
        daemon.stop()


def seven_at_one_instant(daemon):
    """Seven coupons whose reminders all fire in a few seconds, two days before they expire (so
    each reminder's own pop-up offers Done, Snooze 1h and Snooze until tomorrow): their ids, by title."""
    expires = local_in(2 * 86400 + 6)
    return {f"Deal {n}": daemon.ctl_json("add", "coupon", f"Deal {n}", "--expires", expires, "--lead", "48h")["id"]
            for n in range(1, 8)}


def test_on_mako_seven_reminders_at_one_instant_are_each_marked_done_with_buttons_only(mako, tmp_path):
    daemon = Daemon(tmp_path, mako.bus).start()
    try:
        ids = seven_at_one_instant(daemon)
        group = wait_for(lambda: [n for n in mako.shown() if n["summary"].startswith("7 reminders: ")], timeout=15,
                         what="the grouped pop-up on mako")[0]
        assert group["actions"] == {"one-at-a-time": "One at a time", "snooze-all-1h": "Snooze all 1h"}
        assert mako.ctl("invoke", "-n", str(group["id"]), "one-at-a-time").returncode == 0
        for title, item_id in ids.items():  # shown in the group's order: by title
            own = wait_for(lambda: [n for n in mako.shown() if "done" in n["actions"]], timeout=10, what=f"{title}'s pop-up")
            assert len(own) == 1 and own[0]["summary"] == f"\u2068{title}\u2069"  # one at a time
            assert own[0]["actions"] == {"done": "Mark as used", "snooze-1h": "Snooze 1h", "snooze-tomorrow": "Snooze until tomorrow"}
            assert mako.ctl("invoke", "-n", str(own[0]["id"]), "done").returncode == 0
            wait_for(lambda: daemon.ctl_json("show", item_id)["item"]["status"] == "used", timeout=10,
                     what=f"{title} done from its button")
        assert not [n for n in mako.shown() if n["summary"].startswith("7 reminders: ")]
    finally:
        daemon.stop()


def test_on_mako_snooze_all_snoozes_the_seven_reminders_of_a_grouped_pop_up(mako, tmp_path):
    daemon = Daemon(tmp_path, mako.bus).start()
    try:
        ids = seven_at_one_instant(daemon)
        group = wait_for(lambda: [n for n in mako.shown() if n["summary"].startswith("7 reminders: ")], timeout=15,
                         what="the grouped pop-up on mako")[0]
        assert mako.ctl("invoke", "-n", str(group["id"]), "snooze-all-1h").returncode == 0
        wait_for(lambda: all(any(e["event"] == "snoozed" for e in daemon.ctl_json("history", "--item", i)["entries"]) for i in ids.values()),
                 timeout=10, what="all seven snoozed")
        wait_for(lambda: not mako.shown(), timeout=10, what="the grouped pop-up closed")
    finally:
        daemon.stop()


# GNOME Shell ---------------------------------------------------------------------------------------

def pixel(env, x, y):
    """The screen's colour at (x, y) as an (r, g, b) tuple."""
    text = subprocess.run(["convert", "x:root", "-crop", f"1x1+{x}+{y}", "-depth", "8", "txt:-"], env=env,
                          capture_output=True, text=True).stdout
    return tuple(int(v) for v in text.splitlines()[-1].split("(")[1].split(")")[0].split(",")[:3])


def banner_buttons_at(env, y):
    """Whether a banner's button row (grey) is drawn at height `y` mid-screen, over the blue background."""
    r, g, b = pixel(env, 640, y)
    return abs(r - g) < 8 and abs(g - b) < 8 and 30 < r < 200


@pytest.mark.skipif(os.environ.get("REMINDERD_GNOME_TEST") != "1", reason="GNOME Shell runs with REMINDERD_GNOME_TEST=1")
def test_gnome_shell_keeps_the_reminder_with_its_buttons_and_done_and_undo_reach_reminderd(tmp_path, test_user):
    for program in ("gnome-shell", "gjs", "Xvfb", "xdotool", "convert"):
        assert shutil.which(program), f"REMINDERD_GNOME_TEST=1 needs {program} (apt-get install gnome-shell gjs xvfb xdotool imagemagick)"
    session, system = SharedBus(tmp_path), SharedBus(tmp_path, "system")
    xvfb, display = start_xvfb("1280x720x24")
    directory = Path(tempfile.mkdtemp(prefix="reminderd-gnome-"))
    directory.chmod(0o755)
    for name in ("run", "home"):
        (directory / name).mkdir(mode=0o700)
        os.chown(directory / name, test_user.pw_uid, test_user.pw_gid)
    env = {"PATH": "/usr/bin:/bin", "DISPLAY": display, "HOME": str(directory / "home"), "XDG_RUNTIME_DIR": str(directory / "run"),
           "DBUS_SESSION_BUS_ADDRESS": session.address, "DBUS_SYSTEM_BUS_ADDRESS": system.address, "XDG_SESSION_TYPE": "x11",
           "XDG_CURRENT_DESKTOP": "GNOME", "GSETTINGS_BACKEND": "memory", "XDG_DATA_DIRS": installed_icon(directory)}
    as_user = dict(user=test_user.pw_uid, group=test_user.pw_gid, extra_groups=[], process_group=0,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    shell = notifications = None
    daemon = Daemon(tmp_path, session)
    try:
        shell = subprocess.Popen(["gnome-shell", "--x11", "--replace", "--sm-disable"], env=env, **as_user)
        wait_for(lambda: subprocess.run(["gdbus", "introspect", "--session", "--dest", "org.gnome.Shell", "--object-path",
                                         "/org/freedesktop/Notifications"], env=env, capture_output=True).returncode == 0,
                 timeout=30, what="GNOME Shell on the bus")
        # The bus would activate this service in a session: it takes org.freedesktop.Notifications for the shell.
        notifications = subprocess.Popen(["gjs", "/usr/share/gnome-shell/org.gnome.Shell.Notifications"], env=env, **as_user)
        wait_for(lambda: "gnome-shell" in server_name(env), timeout=10, what="GNOME Shell's notification service")

        def on_the_desktop():
            # GNOME Shell starts in its overview, whose grey reads as a banner's button row: Escape
            # leaves it, as a person would, until the blue background shows mid-screen.
            subprocess.run(["xdotool", "key", "Escape"], env=env)
            r, g, b = pixel(env, 640, 400)
            return b > r + 40

        wait_for(on_the_desktop, timeout=30, interval=1, what="the desktop, out of GNOME Shell's overview")
        daemon.start()
        # Ten days out: low urgency elsewhere, which GNOME would show in its list only.
        item_id = daemon.ctl_json("add", "coupon", "Sushi", "--expires", local_in(10 * 86400 + 8), "--lead", "240h")["id"]

        def banner_after_moving():
            # GNOME keeps a banner while the user is idle: the pointer moves, as a person's would.
            subprocess.run(["xdotool", "mousemove", str(random.randint(300, 900)), "600"], env=env)
            return banner_buttons_at(env, 133)

        # The shell's own notices ("Screen Lock disabled") go first; then the reminder's banner.
        wait_for(banner_after_moving, timeout=40, interval=0.5, what="the reminder's banner with its buttons")
        moving_until = time.monotonic() + 6  # a normal banner hides 4 s after activity; this one stays
        while time.monotonic() < moving_until:
            banner_after_moving()
            time.sleep(0.5)  # paces the pointer's moves: the 6 s of real time are what is tested
        assert banner_buttons_at(env, 133), "the reminder's banner went away"
        assert shows_the_icon(env, 395, 40), "the banner shows no reminderd icon"
        if SHOTS:
            subprocess.run(["import", "-window", "root", "-crop", "560x170+360+0", "+repage",
                            os.path.join(SHOTS, "popup-gnome.png")], env=env, check=True)
        subprocess.run(["xdotool", "mousemove", "480", "133", "click", "1"], env=env, check=True)  # Mark as used
        wait_for(lambda: daemon.ctl_json("show", item_id)["item"]["status"] == "used", timeout=10, what="Done clicked on GNOME")
        subprocess.run(["xdotool", "mousemove", "640", "600"], env=env, check=True)
        # The reminder's banner slides away and the Undo offer takes its place: both draw the same
        # grey button row here, so no pixel tells them apart and the slide (1 s) is waited out.
        time.sleep(1)
        wait_for(lambda: banner_buttons_at(env, 133), timeout=10, what="the Undo offer's banner")
        subprocess.run(["xdotool", "mousemove", "640", "133", "click", "1"], env=env, check=True)  # its one button
        wait_for(lambda: daemon.ctl_json("show", item_id)["item"]["status"] != "used", timeout=10, what="Undo clicked on GNOME")
    finally:
        daemon.stop()
        for process in (notifications, shell):
            if process and process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in (notifications, shell):
            if process:
                process.wait(10)
        stop(xvfb)
        session.stop()
        system.stop()
        shutil.rmtree(directory, ignore_errors=True)


# The command line ----------------------------------------------------------------------------------

def test_a_snooze_past_the_due_time_is_shortened_and_reminderctl_says_so(server, daemon):
    daemon.start()
    item_id = daemon.ctl_json("add", "coupon", "Sushi", "--expires", local_in(2 * 3600))["id"]
    shortened = daemon.ctl("snooze", item_id, "5h").stdout
    assert "(shortened: 5h would end after the due time" in shortened
    assert "shortened" not in daemon.ctl("snooze", item_id, "30m").stdout
