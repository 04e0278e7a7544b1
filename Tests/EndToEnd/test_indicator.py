"""The panel indicator (a StatusNotifierItem with a com.canonical.dbusmenu menu) against a
recording StatusNotifierWatcher on the private bus: reminderd registers with it, again after it
restarts, lists what is due in its menu, and a click on an item's Done marks the item used as the
pop-up's Done button does. On a shifted clock (2030-03-10 12:00 UTC), so no test depends on
today's date or hour."""
import json
import subprocess
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from conftest import CLOCK_SHIFT, SYSTEM_PYTHON, Daemon, wait_for

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
        assert "Tacos — $7 left, in 3 days" in labels
        assert not any(label.startswith("Far away") for label in labels)
        assert labels[-1] == "Pause 1 hour"
        assert item_property(bus, name, "Status") == "NeedsAttention"
        tooltip = item_property(bus, name, "ToolTip")
        assert tooltip[2] == "reminderd: 2 due this week, 1 today"
        assert tooltip[3] == "Pizza, today\nTacos — $7 left, in 3 days\n$7 expiring this week"
        assert item_property(bus, name, "Menu") == "/MenuBar"

        pizza_menu = next(node for _, label, node in flatten(root) if label == "Pizza, today")
        done = next(child[0] for child in pizza_menu[2] if child[1]["label"] == "Done")
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
        time.sleep(1.0)
        assert watcher.registrations() == []
        # Nor is anything exported on its connection.
        names = call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames")[0]
        mine = [n for n in names if n.startswith(":") and call(
            bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "GetConnectionUnixProcessID", "(s)", n, check=False) == [daemon.process.pid]]
        assert mine  # its own connection and GLib's shared one
        for connection in mine:
            nodes = call(bus, connection, "/", "org.freedesktop.DBus.Introspectable", "Introspect")[0]
            assert "StatusNotifierItem" not in nodes and "MenuBar" not in nodes
    finally:
        daemon.stop()
