"""The panel indicator's D-Bus entry points (the StatusNotifierItem and its com.canonical.dbusmenu
menu) under input from any program on the bus: they are exported whether or not a panel is there,
so every method must answer bad arguments with a D-Bus error, never stop reminderd, and no call
may change an item but a click on an entry the caller fetched. Issue 27 case 2 and its fuzz.

The fuzz runs REMINDERD_FUZZ_SECONDS (15 by default: ~7,000 calls, every method many times) from a
random seed it prints; set REMINDERD_FUZZ_SEED to replay one."""
import json
import os
import random
import subprocess

from conftest import SYSTEM_PYTHON, wait_for
from test_indicator import HERE, call, flatten, layout, shifted_daemon, watcher  # noqa: F401 (watcher: a fixture)

MENU = "com.canonical.dbusmenu"


def raw_call(bus, name, path, interface, method, signature, arguments):
    """One call from a new connection, its arguments a Python expression (GLib.Variant("i", 0)
    for a `v`): (the reply unpacked, or None; the D-Bus error's text, or None)."""
    result = subprocess.run(
        [SYSTEM_PYTHON, "-c", """
import json, sys
from gi.repository import Gio, GLib
dest, path, interface, method, signature, arguments = sys.argv[1:]
bus = Gio.bus_get_sync(Gio.BusType.SESSION)
value = GLib.Variant(signature, eval(arguments))
try:
    print(json.dumps({"reply": bus.call_sync(dest, path, interface, method, value, None, 0, 20000).unpack()}))
except GLib.Error as error:
    print(json.dumps({"error": error.message}))
""", name, path, interface, method, signature, arguments],
        env={"DBUS_SESSION_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    return answer.get("reply"), answer.get("error")


def item_events(daemon):
    """Each item's title → (status, its history's events that change it)."""
    changes = {"done", "snoozed", "undone", "edited", "removed", "used"}
    return {item["title"]: (item["status"], [e["event"] for e in daemon.ctl_json("history", "--item", item["id"])["entries"]
                                             if e["event"] in changes])
            for item in daemon.ctl_json("list", "--all")["items"]}


def started(bus, tmp_path, watcher):
    daemon = shifted_daemon(tmp_path, bus).start()
    for n, expires in enumerate(["2030-03-10T20:00:00", "2030-03-10T23:00:00", "2030-03-12T12:00:00"]):
        daemon.ctl_json("add", "coupon", f"Fuzz{n}", "--expires", expires, "--value", "5")
    daemon.ctl_json("add", "subscription", "Renewal", "--amount", "9", "--every", "1mo", "--next", "2030-03-13")
    wait_for(watcher.registrations, what="RegisterStatusNotifierItem")
    return daemon, watcher.registrations()[0]["sender"]


def test_bad_arguments_get_a_dbus_error_and_change_nothing(bus, tmp_path, watcher):
    """Issue 27 case 2: GetLayout(0, -2147483648, []) trapped in the layout's `depth - 1`."""
    daemon, name = started(bus, tmp_path, watcher)
    try:
        before = item_events(daemon)
        reply, error = raw_call(bus, name, "/MenuBar", MENU, "GetLayout", "(iias)", "(0, -2147483648, [])")
        assert error is None and reply[1][0] == 0 and reply[1][2], "any negative depth is the whole menu"
        item, properties = "org.kde.StatusNotifierItem", "org.freedesktop.DBus.Properties"
        zero = 'GLib.Variant("i", 0)'
        refused = [
            ("/MenuBar", MENU, "GetLayout", "(iias)", "(2147483647, -1, [])"),
            ("/MenuBar", MENU, "GetLayout", "(ii)", "(0, -1)"),
            ("/MenuBar", MENU, "GetLayout", "(sias)", "('0', -1, [])"),
            ("/MenuBar", MENU, "GetProperty", "(is)", "(-5, 'label')"),
            ("/MenuBar", MENU, "GetProperty", "(is)", "(0, 'no-such-property')"),
            ("/MenuBar", MENU, "Event", "(isvu)", f"(2147483647, 'clicked', {zero}, 0)"),
            ("/MenuBar", MENU, "Event", "(is)", "(1, 'clicked')"),
            ("/MenuBar", MENU, "EventGroup", "(a(isvu))", f"([(-1, 'clicked', {zero}, 0)],)"),
            ("/MenuBar", MENU, "AboutToShow", "(i)", "(-2147483648,)"),
            ("/MenuBar", MENU, "AboutToShowGroup", "(as)", "(['1'],)"),
            ("/StatusNotifierItem", item, "Activate", "(s)", "('x',)"),
            ("/StatusNotifierItem", item, "Scroll", "(ii)", "(1, 2)"),
            ("/StatusNotifierItem", properties, "Set", "(ssv)", f"('{item}', 'Status', GLib.Variant('s', 'Passive'))"),
            ("/StatusNotifierItem", properties, "Get", "(ss)", f"('{item}', 'NoSuchProperty')"),
            ("/StatusNotifierItem", properties, "GetAll", "(i)", "(3,)"),
        ]
        for path, interface, method, signature, arguments in refused:
            _, error = raw_call(bus, name, path, interface, method, signature, arguments)
            assert error, f"{method}{signature} {arguments} was answered as a success"
        # Unknown ids in a group are answered as such; known ones are fine.
        _, root = layout(bus, name)
        known = flatten(root)[0][0]
        reply, error = raw_call(bus, name, "/MenuBar", MENU, "AboutToShowGroup", "(ai)", f"([{known}, 999999],)")
        assert error is None and reply[1] == [999999]
        assert daemon.process.poll() is None
        assert len(daemon.ctl_json("list", "--all")["items"]) == 4
        assert item_events(daemon) == before
    finally:
        daemon.stop()


def test_random_calls_never_stop_reminderd_nor_change_an_item_not_clicked(bus, tmp_path, watcher):
    seed = int(os.environ.get("REMINDERD_FUZZ_SEED") or random.SystemRandom().randrange(1 << 32))
    seconds = float(os.environ.get("REMINDERD_FUZZ_SECONDS", "15"))
    replay = f"seed {seed} (replay: REMINDERD_FUZZ_SEED={seed})"
    print(replay)
    daemon, name = started(bus, tmp_path, watcher)
    try:
        before = item_events(daemon)
        output = tmp_path / "fuzz.json"
        result = subprocess.run(
            [SYSTEM_PYTHON, str(HERE / "indicator_fuzz.py"), name, str(seed), str(seconds), str(output),
             str(watcher.log)],
            env={"DBUS_SESSION_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin"},
            capture_output=True, text=True, timeout=seconds + 120)
        assert result.returncode == 0, f"{replay}: the fuzzer failed: {result.stderr[-2000:]}"
        report = json.loads(output.read_text())
        assert report["gone"] is None, f"{replay}: reminderd stopped after {report['gone']}; before it {report['last']}"
        assert daemon.process.poll() is None, f"{replay}: reminderd exited after {report['last']}"
        assert report["calls"] > 50, f"{replay}: only {report['calls']} calls"
        # Each time its connection closed, GLib said why: a message it could not read, nothing else.
        undecodable = (daemon.tmp / "daemon.log").read_text().count("Error decoding D-Bus message")
        assert report["reconnects"] <= undecodable, f"{replay}: connection lost {report['reconnects']} times"
        print(f"{report['calls']} calls, {report['errors']} answered with an error, {report['reconnects']} times "
              "reminderd's connection closed on a message GLib could not read, and it came back")
        after = item_events(daemon)
        for title, state in before.items():
            if title not in report["allowed"]:
                assert after[title] == state, f"{replay}: {title} changed without a click on its entry"
    finally:
        daemon.stop()
