"""The panel indicator (a StatusNotifierItem with a com.canonical.dbusmenu menu) against a
recording StatusNotifierWatcher on the private bus: reminderd registers with it, again after it
restarts, lists what is due in its menu, and a click on an item's Done marks the item used as the
pop-up's Done button does. On a shifted clock (2030-03-10 12:00 UTC), so no test depends on
today's date or hour."""
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from conftest import CLOCK_SHIFT, SYSTEM_PYTHON, Daemon, wait_for
from test_desktops import SHOTS, SharedBus, test_user  # noqa: F401 (test_user is a fixture)

HERE = Path(__file__).resolve().parent

# Calls a method with gi and prints its reply, unpacked, as JSON: dest path interface method
# signature json-arguments (a `v` argument given as {"variant": [type, value]}).
CALL = """
import json, sys
from gi.repository import Gio, GLib
dest, path, interface, method, signature, arguments = sys.argv[1:]
bus = Gio.bus_get_sync(Gio.BusType.SESSION)
def variant(value):  # {"variant": [type, value]}: a value inside a `v`
    return GLib.Variant(*value["variant"]) if isinstance(value, dict) and "variant" in value else value
value = GLib.Variant(signature, tuple(map(variant, json.loads(arguments)))) if signature else None
reply = bus.call_sync(dest, path, interface, method, value, None, Gio.DBusCallFlags.NONE, 5000)
print(json.dumps(reply.unpack()))
"""


class Watcher:
    """sni_watcher.py: owns org.kde.StatusNotifierWatcher and logs each registration."""

    def __init__(self, bus, log):
        self.bus = bus
        self.log = Path(log)
        self.start()

    def start(self):
        self.log.write_text("")
        self.process = subprocess.Popen(
            [SYSTEM_PYTHON, str(HERE / "sni_watcher.py"), str(self.log)],
            env={"DBUS_SESSION_BUS_ADDRESS": self.bus.address, "PATH": "/usr/bin:/bin"},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: any("owner" in entry for entry in self.entries()), what="the watcher on the bus")

    def entries(self):
        return [json.loads(line) for line in self.log.read_text().splitlines()]

    def registrations(self):
        return [entry for entry in self.entries() if "service" in entry]

    def stop(self):
        self.process.terminate()
        self.process.wait(5)


def call(bus, dest, path, interface, method, signature="", *arguments, check=True):
    result = subprocess.run(
        [SYSTEM_PYTHON, "-c", CALL, dest, path, interface, method, signature, json.dumps(arguments)],
        env={"DBUS_SESSION_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=15)
    if not check and result.returncode != 0:
        return None
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def layout(bus, name):
    """(revision, the menu as nested [id, properties, children])."""
    return call(bus, name, "/MenuBar", "com.canonical.dbusmenu", "GetLayout", "(iias)", 0, -1, [])


def flatten(node):
    """Every menu entry below `node`, each as (id, label, children)."""
    out = []
    for child in node[2]:
        out.append((child[0], child[1].get("label", "---"), child))
        out += flatten(child)
    return out


def item_property(bus, name, prop):
    return call(bus, name, "/StatusNotifierItem", "org.freedesktop.DBus.Properties", "Get", "(ss)",
                "org.kde.StatusNotifierItem", prop)[0]


def shifted_daemon(tmp_path, bus, config=None):
    """A daemon whose clock reads 2030-03-10 12:00 UTC."""
    target = int(datetime(2030, 3, 10, 12, 0, tzinfo=timezone.utc).timestamp())
    daemon = Daemon(tmp_path, bus, config=config)
    daemon.env["REMINDERD_TEST_CLOCK_SHIFT"] = str(round(target - (time.time() - CLOCK_SHIFT)))
    return daemon


@pytest.fixture
def watcher(bus, tmp_path):
    watcher = Watcher(bus, tmp_path / "watcher.log")
    yield watcher
    watcher.stop()


def test_the_indicator_registers_lists_what_is_due_and_its_done_marks_the_item_used(bus, tmp_path, watcher):
    daemon = shifted_daemon(tmp_path, bus).start()
    try:
        pizza = daemon.ctl_json("add", "coupon", "Pizza", "--expires", "2030-03-10T20:00:00")["id"]
        daemon.ctl_json("add", "coupon", "Tacos", "--expires", "2030-03-13T12:00:00", "--value", "7")
        daemon.ctl_json("add", "coupon", "Far away", "--expires", "2030-06-01T12:00:00")
        wait_for(watcher.registrations, what="RegisterStatusNotifierItem")
        registration = watcher.registrations()[0]
        name = registration["sender"]
        # By its unique name: the item is at the default path, /StatusNotifierItem.
        assert registration["service"] == name

        revision, root = layout(bus, name)
        labels = [label for _, label, _ in flatten(root)]
        assert "Due today" in labels and "This week" in labels
        assert "Pizza, today" in labels
        assert "Tacos — worth $7, in 3 days" in labels
        assert not any(label.startswith("Far away") for label in labels)
        assert labels[-1] == "Pause all pop-ups 1 hour"
        assert item_property(bus, name, "Status") == "NeedsAttention"
        tooltip = item_property(bus, name, "ToolTip")
        assert tooltip[2] == "reminderd: 2 due this week, 1 today"
        assert tooltip[3] == "Pizza, today\nTacos — worth $7, in 3 days\n$7 expiring this week"
        assert item_property(bus, name, "Menu") == "/MenuBar"

        pizza_menu = next(node for _, label, node in flatten(root) if label == "Pizza, today")
        # The pop-up's words and offers: a coupon due at 20:00 is snoozed an hour, not a day.
        assert [child[1]["label"] for child in pizza_menu[2]] == ["Mark as used", "Snooze 1h"]
        done = next(child[0] for child in pizza_menu[2] if child[1]["label"] == "Mark as used")
        call(bus, name, "/MenuBar", "com.canonical.dbusmenu", "Event", "(isvu)", done, "clicked",
             {"variant": ["i", 0]}, 0)
        wait_for(lambda: next(i for i in daemon.ctl_json("list", "--all")["items"] if i["id"] == pizza)["status"]
                 == "used", what="Pizza used after the indicator's Done")
        assert "done" in [e["event"] for e in daemon.ctl_json("history", "--item", pizza)["entries"]]

        # The menu and the status follow, under a new layout revision.
        def moved_on():
            new_revision, new_root = layout(bus, name)
            return new_revision > revision and "Pizza, today" not in [label for _, label, _ in flatten(new_root)]
        wait_for(moved_on, what="the menu without Pizza")
        assert item_property(bus, name, "Status") == "Active"
    finally:
        daemon.stop()


def test_a_click_means_the_entry_of_the_menu_the_host_was_given_even_after_the_menu_changed(bus, tmp_path, watcher):
    """Menu ids are positions: an item due sooner shifts them. A host clicks in the layout it
    fetched last; until it fetches again, its ids are read in that layout, so its Done lands on
    the item it showed."""
    daemon = shifted_daemon(tmp_path, bus).start()
    try:
        pizza = daemon.ctl_json("add", "coupon", "Pizza", "--expires", "2030-03-10T20:00:00")["id"]
        wait_for(watcher.registrations, what="RegisterStatusNotifierItem")
        name = watcher.registrations()[0]["sender"]
        _, root = layout(bus, name)
        pizza_menu = next(node for _, label, node in flatten(root) if label == "Pizza, today")
        done = next(child[0] for child in pizza_menu[2] if child[1]["label"] == "Mark as used")
        # Apple, due sooner today, comes first in the menu now: Pizza's ids move down.
        apple = daemon.ctl_json("add", "coupon", "Apple", "--expires", "2030-03-10T18:00:00")["id"]
        call(bus, name, "/MenuBar", "com.canonical.dbusmenu", "Event", "(isvu)", done, "clicked",
             {"variant": ["i", 0]}, 0)
        wait_for(lambda: daemon.ctl_json("show", pizza)["item"]["status"] == "used", what="Pizza used")
        assert daemon.ctl_json("show", apple)["item"]["status"] != "used"
    finally:
        daemon.stop()


def click(bus, name, entry):
    call(bus, name, "/MenuBar", "com.canonical.dbusmenu", "Event", "(isvu)", entry, "clicked", {"variant": ["i", 0]}, 0)


def test_two_hosts_each_click_what_they_saw(bus, tmp_path, watcher):
    """Issue 27 case 3: host 1 fetches the menu; an item due sooner is added; a second host (a
    second tray, a bar on another output: another connection) fetches the new layout; host 1's
    click on Alpha's first entry marked the other item used. Each `layout` call is its own
    connection, as two hosts are."""
    daemon = shifted_daemon(tmp_path, bus).start()
    try:
        alpha = daemon.ctl_json("add", "coupon", "Alpha", "--expires", "2030-03-10T20:00:00")["id"]
        wait_for(watcher.registrations, what="RegisterStatusNotifierItem")
        name = watcher.registrations()[0]["sender"]
        _, root = layout(bus, name)  # host 1
        alpha_done = next(node for _, label, node in flatten(root) if label.startswith("Alpha"))[2][0][0]
        beta = daemon.ctl_json("add", "coupon", "Beta", "--expires", "2030-03-10T18:00:00")["id"]
        wait_for(lambda: any(label.startswith("Beta") for _, label, _ in flatten(layout(bus, name)[1])),
                 what="host 2's layout with Beta")  # host 2
        click(bus, name, alpha_done)  # host 1, in the layout it fetched
        wait_for(lambda: daemon.ctl_json("show", alpha)["item"]["status"] == "used", what="Alpha used")
        assert daemon.ctl_json("show", beta)["item"]["status"] != "used"
    finally:
        daemon.stop()


def test_a_click_on_an_entry_the_item_no_longer_has_is_refused_in_words(bus, tmp_path, watcher, server):
    """Alpha marked used from the command line while a host still shows its menu: the host's
    click on Alpha's old entry changes nothing — Alpha's next state, nor another item — and a
    pop-up says why."""
    daemon = shifted_daemon(tmp_path, bus).start()
    try:
        alpha = daemon.ctl_json("add", "coupon", "Alpha", "--expires", "2030-03-11T20:00:00")["id"]
        other = daemon.ctl_json("add", "coupon", "Other", "--expires", "2030-03-10T20:00:00")["id"]
        wait_for(watcher.registrations, what="RegisterStatusNotifierItem")
        name = watcher.registrations()[0]["sender"]
        _, root = layout(bus, name)
        alpha_done = next(node for _, label, node in flatten(root) if label.startswith("Alpha"))[2][0][0]
        daemon.ctl_json("done", alpha)
        click(bus, name, alpha_done)
        wait_for(lambda: any(summary == "Nothing done: the menu changed" and "for Alpha" in body
                             for summary, body, _ in server.notifications()), what="the refusal pop-up")
        history = [entry["event"] for entry in daemon.ctl_json("history", "--item", alpha)["entries"]]
        assert history.count("done") == 1
        assert daemon.ctl_json("show", other)["item"]["status"] != "used"
    finally:
        daemon.stop()


def test_the_indicator_registers_again_when_the_watcher_restarts(bus, tmp_path, watcher):
    daemon = shifted_daemon(tmp_path, bus).start()
    try:
        wait_for(watcher.registrations, what="the first registration")
        name = watcher.registrations()[0]["sender"]
        watcher.stop()
        watcher.start()
        wait_for(watcher.registrations, what="a registration with the restarted watcher")
        assert watcher.registrations()[0]["sender"] == name
    finally:
        daemon.stop()


def test_no_indicator_when_the_config_turns_it_off(bus, tmp_path, watcher):
    daemon = shifted_daemon(tmp_path, bus, config={"timeZone": "UTC", "quietHours": None, "indicator": False}).start()
    try:
        daemon.ctl_json("add", "coupon", "Pizza", "--expires", "2030-03-10T20:00:00")
        # The watcher's restart is what an indicator would answer to as well; nothing registers.
        watcher.stop()
        watcher.start()
        names = call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames")[0]
        mine = [n for n in names if n.startswith(":") and call(
            bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "GetConnectionUnixProcessID", "(s)", n, check=False) == [daemon.process.pid]]
        assert mine  # its own connection and GLib's shared one
        # It registers only when told a watcher came; the bus's match rules say it never asks to be.
        rules = call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.Debug.Stats",
                     "GetAllMatchRules")[0]
        assert not [rule for n in mine for rule in rules.get(n, []) if "StatusNotifierWatcher" in rule], rules
        assert watcher.registrations() == []
        # Nor is anything exported on its connection.
        for connection in mine:
            nodes = call(bus, connection, "/", "org.freedesktop.DBus.Introspectable", "Introspect")[0]
            assert "StatusNotifierItem" not in nodes and "MenuBar" not in nodes
    finally:
        daemon.stop()


# A real host: waybar's tray on a headless sway ----------------------------------------------------

WAYBAR_CONFIG = {"layer": "top", "position": "top", "height": 30, "modules-right": ["tray", "clock"],
                 "tray": {"icon-size": 20, "spacing": 8}, "clock": {"format": "{:%H:%M}"}}
ATTENTION_RED = (235, 77, 75)  # waybar's stock style: #tray > .needs-attention
WHITE = (255, 255, 255)


class WaybarDesktop:
    """sway (headless, 1280x720) with waybar, both as `user`, on `bus`; a virtual pointer
    (virtual_pointer.c, built here) clicks, as sway's headless backend has no input device."""

    def __init__(self, bus, user, directory):
        self.directory = Path(directory)
        self.directory.chmod(0o755)
        self.runtime = self.directory / "run"
        self.runtime.mkdir(mode=0o700)
        home = self.directory / "home"
        (home / "waybar").mkdir(parents=True)
        (home / "waybar" / "config").write_text(json.dumps(WAYBAR_CONFIG))
        icons = self.directory / "share" / "icons" / "hicolor" / "scalable" / "apps"
        icons.mkdir(parents=True)
        shutil.copy(HERE.parents[1] / "systemd" / "reminderd.svg", icons)
        (self.directory / "sway.conf").write_text("output HEADLESS-1 resolution 1280x720\n")
        for path in (self.runtime, home, home / "waybar"):
            os.chown(path, user.pw_uid, user.pw_gid)
        subprocess.run(["chmod", "-R", "a+rX", str(self.directory / "share"), str(self.directory / "sway.conf")], check=True)
        self.pointer_program = self.build_pointer()
        self.env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_CONFIG_HOME": str(home),
                    "XDG_RUNTIME_DIR": str(self.runtime), "XDG_DATA_DIRS": f"{self.directory / 'share'}:/usr/share",
                    "DBUS_SESSION_BUS_ADDRESS": bus.address, "WLR_BACKENDS": "headless",
                    "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman"}
        self.user = user
        self.processes = [self.run_as_user(["sway", "-c", str(self.directory / "sway.conf")])]
        socket = wait_for(lambda: next(iter(sorted(self.runtime.glob("wayland-*[0-9]"))), None), timeout=10,
                          what="sway's Wayland socket")
        self.env["WAYLAND_DISPLAY"] = socket.name
        self.processes.append(self.run_as_user(["waybar"]))
        self.pointer = None

    def build_pointer(self):
        build = self.directory / "pointer"
        build.mkdir()
        xml = HERE / "virtual_pointer.xml"
        for kind, name in (("client-header", "virtual-pointer-protocol.h"), ("private-code", "virtual-pointer-protocol.c")):
            subprocess.run(["wayland-scanner", kind, str(xml), str(build / name)], check=True)
        subprocess.run(["cc", "-O", "-I", str(build), "-o", str(build / "virtual_pointer"), str(HERE / "virtual_pointer.c"),
                        str(build / "virtual-pointer-protocol.c"), "-lwayland-client"], check=True)
        subprocess.run(["chmod", "-R", "a+rX", str(build)], check=True)
        return build / "virtual_pointer"

    def run_as_user(self, command, **options):
        options.setdefault("stdout", subprocess.DEVNULL)
        return subprocess.Popen(command, env=self.env, user=self.user.pw_uid, group=self.user.pw_gid, extra_groups=[],
                                stderr=subprocess.DEVNULL, process_group=0, **options)

    def screenshot(self, path, region=None):
        shot = self.runtime / "shot.png"
        subprocess.run(["grim", *(["-g", region] if region else []), str(shot)], env=self.env, user=self.user.pw_uid,
                       group=self.user.pw_gid, extra_groups=[], check=True, timeout=10)
        shutil.copy(shot, path)
        return path

    def row(self, y):
        """The pixels of row `y` of the screen, as (r, g, b)."""
        shot = self.screenshot(self.directory / "row.png")
        text = subprocess.run(["convert", str(shot), "-crop", f"1280x1+0+{y}", "+repage", "-depth", "8", "txt:-"],
                              capture_output=True, text=True, check=True).stdout.splitlines()[1:]
        return [tuple(int(v) for v in line.split("(")[1].split(")")[0].split(",")[:3]) for line in text]

    def attention_icon(self):
        """The centre of the tray's red needs-attention background, None when there is none."""
        columns = [x for x, pixel in enumerate(self.row(3)) if pixel == ATTENTION_RED]
        return (columns[0] + columns[-1]) // 2 if columns else None

    def tray_icon(self):
        """The centre of the tray module (waybar's stock blue), the icon in it."""
        columns = [x for x, pixel in enumerate(self.row(3)) if pixel in ((41, 128, 185), ATTENTION_RED)]
        return (columns[0] + columns[-1]) // 2 if columns else None

    def point(self, *commands):
        if self.pointer is None:
            self.pointer = self.run_as_user([str(self.pointer_program), "1280", "720"], stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, text=True)
        for command in commands:
            self.pointer.stdin.write(command + "\n")
            self.pointer.stdin.flush()
            assert self.pointer.stdout.readline().strip() == "ok", f"the virtual pointer refused {command}"

    def click(self, x, y):
        self.point(f"move {x} {y}", "press 272", "release 272")

    def stop(self):
        if self.pointer:
            self.pointer.stdin.close()
            self.processes.append(self.pointer)
        for process in reversed(self.processes):
            if process.poll() is None:
                process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


@pytest.mark.skipif(not all(shutil.which(p) for p in ("sway", "waybar", "grim", "wayland-scanner", "cc", "convert")),
                    reason="needs sway, waybar, grim, wayland-scanner, a C compiler and ImageMagick")
def test_waybar_shows_the_indicator_asking_for_attention_and_its_menus_done_marks_the_item_used(tmp_path, test_user):
    bus = SharedBus(tmp_path)
    daemon = shifted_daemon(tmp_path, bus).start()
    desktop = None
    try:
        daemon.ctl_json("add", "benefit", "Uber Cash", "--card", "Amex Platinum", "--amount", "15", "--period", "monthly")
        pizza = daemon.ctl_json("add", "coupon", "Pizza 2-for-1", "--expires", "2030-03-10T20:00:00")["id"]
        daemon.ctl_json("add", "subscription", "Netflix", "--amount", "15.99", "--every", "1mo", "--next", "2030-03-12")
        daemon.ctl_json("add", "coupon", "Cinema", "--expires", "2030-03-14", "--value", "12")
        desktop = WaybarDesktop(bus, test_user, tempfile.mkdtemp(prefix="reminderd-waybar-"))
        icon = wait_for(desktop.attention_icon, timeout=20, what="the indicator asking for attention in waybar's tray")
        # The menu opens leftwards under the icon (GTK's light menu on sway's grey): its second
        # row is Pizza's, whose submenu opens further left on the same row. A click that comes
        # while the new virtual pointer is still being set up in waybar opens nothing: again.
        def menu_open():
            return desktop.row(185)[icon - 100] == WHITE
        for _ in range(3):
            desktop.click(icon, 15)
            with contextlib.suppress(AssertionError):
                wait_for(menu_open, timeout=3, what="waybar's menu")
                break
        assert menu_open(), "waybar's menu did not open on three clicks"
        desktop.point(f"move {icon - 45} 54", f"move {icon - 40} 55")
        wait_for(lambda: desktop.row(75)[icon - 330] == WHITE, timeout=10, what="Pizza's submenu")
        if SHOTS:
            # Only the picture needs GTK's highlight of the row settled: it has no event to wait on.
            time.sleep(0.3)
            desktop.screenshot(os.path.join(SHOTS, "indicator-waybar.png"), "800,0 480x200")
        # The click counts once GTK has the pointer on the submenu's first row, Mark as used: it
        # paints the row's white in the highlight colour. A motion GTK missed (the submenu still
        # mapping) is made again, as a hand goes on moving.
        def on_mark_as_used():
            desktop.point(f"move {icon - 300} 55", f"move {icon - 340} 55")
            return desktop.row(55)[icon - 390] != WHITE
        wait_for(on_mark_as_used, timeout=10, what="Mark as used highlighted under the pointer")
        desktop.click(icon - 350, 55)
        wait_for(lambda: daemon.ctl_json("show", pizza)["item"]["status"] == "used", timeout=10,
                 what="Pizza used after Done in waybar's menu")
        # Nothing is due today any more: the tray stops asking for attention (NewStatus).
        wait_for(lambda: desktop.attention_icon() is None and desktop.tray_icon() is not None, timeout=10,
                 what="the tray icon without its attention background")
    finally:
        if desktop:
            desktop.stop()
            shutil.rmtree(desktop.directory, ignore_errors=True)
        daemon.stop()
        bus.stop()
