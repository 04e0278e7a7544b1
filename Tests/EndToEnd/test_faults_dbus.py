"""reminderd's D-Bus entry points under arbitrary input (issue 27): any program on the session bus
can send a signal naming the notification server's interface and object, or call a method of an
object reminderd exports, with any signature and values. reminderd keeps running, answers its
clients, and acts only on the notification server's own signals as documented — never on a forged
one. And a session bus that is not there is a state, said once.

The fuzz test is driven by a seed, printed, and replayable: REMINDERD_DBUS_FUZZ_SEED=<seed>
(REMINDERD_DBUS_FUZZ_SECONDS bounds it, 10 s unless told: ~14,000 messages, each run from a new seed). What it sends is a table of targets
(`TARGETS`): add a row to fuzz another interface."""
import json
import os
import random
import re
import socket
import threading
import subprocess
from collections import Counter
from xml.etree import ElementTree

from datetime import datetime, timezone

from conftest import SYSTEM_PYTHON, Daemon, NotificationServer, clock_at, local_in, wait_for

# The forger: Debian's Python (dbus-python) on its own connection, sending what the seed draws.
# argv: bus address, seed, seconds, targets (JSON), reminderd's unique name, the server's.
# Each target: {"kind": "signal" | "server-signal" | "call", "path", "interface", "members": [...],
# "documented": {member: signature}, "wellFormed": the share sent with the documented signature
# (0.5 unless told)}. "server-signal" asks the notification server (dbusmock) to
# emit it from its own connection, only with a signature other than the documented one, or with
# ids that are not reminderd's pop-ups: what it sends is never a real button press.
FORGER = r'''
import json, random, sys, time
import dbus, dbus.lowlevel
address, seed, seconds, targets, reminderd, server = sys.argv[1:7]
rng = random.Random(int(seed))
targets = json.loads(targets)
bus = dbus.bus.BusConnection(address)
mock = bus.get_object(server, "/org/freedesktop/Notifications")
KEYS = ["done", "cancelled", "snooze-1h", "snooze-1d", "snooze-tomorrow", "snooze-last-minute", "undo", "one-at-a-time", "snooze-all-1h",
        "default", "", "x" * 300, "done\0"[:4] + "\u2068"]
SIGNATURES = ["", "s", "u", "i", "us", "uu", "su", "uss", "usu", "ui", "t", "x", "y", "n", "q", "d", "b", "as", "ay", "v", "o", "g",
              "a{sv}", "sa{sv}as", "sa{sv}", "(us)", "(uu)", "ai", "a(isvu)", "iias", "iisvu", "aias", "is", "ii"]
EDGES = [0, 1, 2, 3, 4, 2**31 - 1, 2**31, 2**32 - 1]

def value(code, depth=0):
    if code == "u": return dbus.UInt32(rng.choice(EDGES + [rng.randrange(2**32)]))
    if code == "i": return dbus.Int32(rng.choice([0, 1, -1, -2**31, 2**31 - 1, rng.randrange(-2**31, 2**31)]))
    if code == "t": return dbus.UInt64(rng.randrange(2**64))
    if code == "x": return dbus.Int64(rng.randrange(-2**63, 2**63))
    if code == "y": return dbus.Byte(rng.randrange(256))
    if code == "n": return dbus.Int16(rng.randrange(-2**15, 2**15))
    if code == "q": return dbus.UInt16(rng.randrange(2**16))
    if code == "d": return dbus.Double(rng.choice([0.0, -1.0, 1e308, float("nan"), rng.random()]))
    if code == "b": return dbus.Boolean(rng.random() < 0.5)
    if code == "s": return dbus.String(rng.choice(KEYS + ["".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(20)))]))
    if code == "o": return dbus.ObjectPath(rng.choice(["/", "/MenuBar", "/StatusNotifierItem", "/a/b"]))
    if code == "g": return dbus.Signature(rng.choice(SIGNATURES))
    if code == "v": return value(rng.choice("usib"), depth + 1)
    raise ValueError(code)

def values(signature):
    """Values for a signature of the forms above."""
    out = []
    rest = signature
    while rest:
        code, rest = split(rest)
        out.append(compound(code))
    return out

def split(signature):
    """The first complete type of `signature`, and the rest."""
    if signature[0] == "a":
        inner, rest = split(signature[1:])
        return "a" + inner, rest
    if signature[0] in "({":
        close = {"(": ")", "{": "}"}[signature[0]]
        depth, index = 0, 0
        for index, char in enumerate(signature):
            depth += char in "({"
            depth -= char in ")}"
            if depth == 0:
                break
        return signature[:index + 1], signature[index + 1:]
    return signature[0], signature[1:]

def compound(code):
    if code.startswith("a{"):
        key, rest = split(code[2:-1])
        return dbus.Dictionary({compound(key): compound(rest) for _ in range(rng.randrange(3))}, signature=code[2:-1])
    if code.startswith("a"):
        return dbus.Array([compound(code[1:]) for _ in range(rng.randrange(4))], signature=code[1:])
    if code.startswith("("):
        return dbus.Struct(values(code[1:-1]), signature=code[1:-1])
    return value(code)

def draw_signature(documented, well_formed):
    # The documented one at the target's share (a forger sends well-formed messages too), else another.
    if documented is not None and rng.random() < well_formed:
        return documented
    return rng.choice([s for s in SIGNATURES if s != documented])

sent = 0
end = time.monotonic() + float(seconds)
while time.monotonic() < end:
    target = rng.choice(targets)
    member = rng.choice(target["members"])
    documented = target.get("documented", {}).get(member)
    signature = draw_signature(documented, target.get("wellFormed", 0.5))
    args = values(signature)
    try:
        if target["kind"] == "signal":
            message = dbus.lowlevel.SignalMessage(target["path"], target["interface"], member)
            if signature:
                message.append(*args, signature=signature)
            bus.send_message(message)
        elif target["kind"] == "server-signal":
            if signature == documented:  # well-formed from the server: only about ids that are not ours
                args[0] = dbus.UInt32(rng.randrange(100_000, 2**32))
            mock.EmitSignal(target["interface"], member, signature, dbus.Array(args, signature="v"),
                            dbus_interface="org.freedesktop.DBus.Mock", timeout=5)
        else:
            message = dbus.lowlevel.MethodCallMessage(reminderd, target["path"], target["interface"], member)
            if signature:
                message.append(*args, signature=signature)
            bus.send_message(message)
    except (dbus.exceptions.DBusException, TypeError, ValueError, OverflowError) as error:
        pass  # a value dbus-python will not marshal for that signature, or the mock refused it
    sent += 1
    if sent % 50 == 0:
        bus.flush()
        time.sleep(0.01)  # let the bus drain: the point is what reminderd does, not the bus's queue
bus.flush()
print(sent)
'''

NOTIFICATIONS = ("/org/freedesktop/Notifications", "org.freedesktop.Notifications")
# The signals reminderd takes from the notification server, and their documented signatures.
SERVER_SIGNALS = {"ActionInvoked": "us", "NotificationClosed": "uu", "ActivationToken": "us"}

# What is fuzzed: every row a target the forger draws from. The notification client's signals,
# from a connection that is not the server and from the server itself (as documented only for ids
# that are not reminderd's); the server's PropertiesChanged (do-not-disturb); and every method of
# every object reminderd exports (found by introspection at run time, `exported_methods`).
TARGETS = [
    {"kind": "signal", "path": NOTIFICATIONS[0], "interface": NOTIFICATIONS[1], "members": list(SERVER_SIGNALS),
     "documented": SERVER_SIGNALS},
    {"kind": "signal", "path": NOTIFICATIONS[0], "interface": "org.freedesktop.DBus.Properties",
     "members": ["PropertiesChanged"], "documented": {"PropertiesChanged": "sa{sv}as"}},
    {"kind": "server-signal", "path": NOTIFICATIONS[0], "interface": NOTIFICATIONS[1], "members": list(SERVER_SIGNALS),
     "documented": SERVER_SIGNALS},
]


def bus_call(bus, destination, path, interface, method, *args):
    result = subprocess.run(["gdbus", "call", "--session", "--dest", destination, "--object-path", path, "--method",
                             f"{interface}.{method}", *args], env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus.address),
                            capture_output=True, text=True, timeout=10)
    return result.stdout.strip() if result.returncode == 0 else None


def unique_name(bus, pid):
    """The unique bus name of the connection of process `pid`."""
    names = bus_call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames") or ""
    for name in [n.strip(" '[]()") for n in names.split(",")]:
        if name.startswith(":") and bus_call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                             "GetConnectionUnixProcessID", name) == f"(uint32 {pid},)":
            return name
    return None


def exported_methods(bus, name):
    """Every method of every object `name` exports: call targets for the forger."""
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus.address)
    targets, paths = [], ["/"]
    while paths:
        path = paths.pop()
        node = ElementTree.fromstring(subprocess.run(
            ["gdbus", "introspect", "--session", "--dest", name, "--object-path", path, "--xml"],
            env=env, capture_output=True, text=True, timeout=10, check=True).stdout)
        paths += [path.rstrip("/") + "/" + child.get("name") for child in node.findall("node")]
        for interface in node.findall("interface"):
            methods = {m.get("name"): "".join(a.get("type") for a in m.findall("arg") if a.get("direction", "in") == "in")
                       for m in interface.findall("method")}
            if methods:
                # Called with other signatures than documented only: GDBus refuses those against the
                # introspection data before reminderd's handler runs. Well-formed calls with edge
                # values reach the panel indicator's handlers, whose hardening is its own part of
                # issue 27 (defect 2: GetLayout's depth -2147483648 traps): it raises this share.
                targets.append({"kind": "call", "path": path, "interface": interface.get("name"),
                                "members": sorted(methods), "documented": methods, "wellFormed": 0.0})
    return targets


def items_and_history(daemon):
    items = {i["id"]: i["status"] for i in daemon.ctl_json("list", "--all")["items"]}
    events = [(e["item"], e["event"]) for e in daemon.ctl_json("history")["entries"]]
    return items, events


def two_pop_ups(daemon, server):
    """Two coupons whose reminders are on screen now (ids 1 and 2 on dbusmock): a forged button
    press with a real id would act on one."""
    expires = local_in(2 * 86400 + 6)
    for title in ("Alpha", "Beta"):
        daemon.ctl("add", "coupon", title, "--expires", expires, "--lead", "48h")
    wait_for(lambda: len(server.notifications()) == 2, timeout=15, what="the two pop-ups")


def signal_from(bus, member, *args):
    """A signal on the notification interface from a connection of its own (dbus-send)."""
    return subprocess.run(["dbus-send", "--session", "--type=signal", NOTIFICATIONS[0], f"{NOTIFICATIONS[1]}.{member}", *args],
                          env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus.address), capture_output=True, timeout=10)


def emit_from_server(server, member, signature, values):
    """A signal on the notification interface from the server's own connection (dbusmock)."""
    server.gdbus("org.freedesktop.DBus.Mock.EmitSignal", NOTIFICATIONS[1], member, signature, values)


def test_a_malformed_or_forged_signal_is_ignored_logged_once_and_the_servers_own_still_act(server, daemon, bus, tmp_path):
    """Issue 27, defect 1: on main, ActionInvoked without arguments from any connection stopped
    reminderd, and a well-formed one from any connection was taken as a button press."""
    daemon.start()
    two_pop_ups(daemon, server)
    _, before = items_and_history(daemon)
    for args in [(), ("string:x",), ("uint32:1",), ("uint32:1", "string:done", "uint32:3")]:
        signal_from(bus, "ActionInvoked", *args)
    signal_from(bus, "NotificationClosed", "string:x")
    signal_from(bus, "ActionInvoked", "uint32:1", "string:done")  # well-formed, from another connection
    signal_from(bus, "ActionInvoked", "uint32:2", "string:done")
    signal_from(bus, "NotificationClosed", "uint32:2", "uint32:2")
    # Malformed from the server itself: the bus lets these through the subscription's sender filter.
    emit_from_server(server, "ActionInvoked", "", "[]")
    emit_from_server(server, "ActionInvoked", "s", "[<'done'>]")
    emit_from_server(server, "NotificationClosed", "su", "[<'1'>, <uint32 2>]")
    # The server's own press, sent after the others: once it acted, they were all handled.
    server.invoke(2, "snooze-1h")
    wait_for(lambda: any(e["event"] == "snoozed" for e in daemon.ctl_json("history")["entries"]), what="the real press")
    assert daemon.process.poll() is None
    items, events = items_and_history(daemon)
    assert "used" not in items.values()
    assert sorted(event for _, event in (Counter(events) - Counter(before)).elements()) == ["snoozed"]
    daemon.stop()
    log = (tmp_path / "daemon.log").read_text()
    assert log.count("ignored a ") == 1, log  # the first, said once; the rest counted
    counted = re.search(r"ignored (\d+) signals in all", log)
    assert counted and int(counted.group(1)) >= 3, log


def test_a_trials_keep_and_cancelled_act_only_from_the_server_and_only_on_a_trials_pop_up(server, daemon, bus):
    """A free trial's buttons (issue 30): "Keep it" (key done) and "I cancelled" (key cancelled) forged
    from another connection on the trial's pop-up change nothing; the server's own "cancelled" on a
    renewal's pop-up, which never offers it, is refused in words and changes nothing; the server's own
    "cancelled" on the trial's pop-up, sent last, ends the trial (so the others were handled by then).
    The daemon's clock reads three seconds before 09:00, a day before both are due: both pop up at once."""
    clock_at(daemon, datetime(2030, 1, 20, 8, 59, 57, tzinfo=timezone.utc))
    daemon.start()
    trial = daemon.ctl_json("add", "subscription", "Hulu", "--amount", "9.99", "--every", "1mo", "--trial-ends",
                            "2030-01-21", "--lead", "1d")["id"]
    gym = daemon.ctl_json("add", "subscription", "Gym", "--amount", "30", "--every", "1mo", "--next", "2030-01-21",
                          "--lead", "1d")["id"]
    wait_for(lambda: len(server.notifications()) == 2, timeout=20, what="the two pop-ups")
    ids = {summary.strip("\u2068\u2069"): number for number, (summary, _, _) in enumerate(server.notifications(), 1)}
    for key in ("done", "cancelled"):
        signal_from(bus, "ActionInvoked", f"uint32:{ids['Hulu']}", f"string:{key}")
        signal_from(bus, "ActionInvoked", f"uint32:{ids['Gym']}", f"string:{key}")
    server.invoke(ids["Gym"], "cancelled")
    refusal = wait_for(lambda: server.notifications()[2:], what="the refusal of a cancel on a renewal's pop-up")
    assert refusal[0][0] == "Not cancelled" and "Gym" in refusal[0][1], refusal
    server.invoke(ids["Hulu"], "cancelled")
    wait_for(lambda: daemon.ctl_json("show", trial)["item"].get("cancelled") == "2030-01-20", what="the real cancel")
    assert daemon.process.poll() is None
    hulu = daemon.ctl_json("show", trial)["item"]
    assert hulu["trialEnds"] == "2030-01-21", "a forged Keep it cleared the trial"
    assert daemon.ctl_json("show", gym)["item"].get("cancelled") is None
    events = [(e["item"], e["event"]) for e in daemon.ctl_json("history")["entries"] if e["event"] != "fired"]
    assert sorted(events) == sorted([(trial, "added"), (gym, "added"), (trial, "done")]), events


def test_a_restarted_server_is_followed_and_the_old_ones_name_no_longer_counts(bus, daemon, tmp_path):
    """The server's unique name is tracked across its restarts: the new one's presses act."""
    first = NotificationServer(bus, tmp_path / "first.log")
    daemon.start()
    first.stop()
    second = NotificationServer(bus, tmp_path / "second.log")
    try:
        item = daemon.ctl_json("add", "coupon", "Gamma", "--expires", local_in(2 * 86400 + 6), "--lead", "48h")["id"]
        wait_for(lambda: len(second.notifications()) == 1, timeout=15, what="the pop-up on the new server")
        second.invoke(1, "done")
        wait_for(lambda: daemon.ctl_json("show", item)["item"]["status"] == "used", what="Done from the new server")
    finally:
        second.stop()


def test_fuzzing_the_notification_interface_and_the_exported_objects_never_stops_or_moves_reminderd(server, daemon, bus):
    seed = int(os.environ.get("REMINDERD_DBUS_FUZZ_SEED") or random.randrange(2**32))
    seconds = float(os.environ.get("REMINDERD_DBUS_FUZZ_SECONDS", "10"))
    print(f"D-Bus fuzz seed {seed} (replay: REMINDERD_DBUS_FUZZ_SEED={seed})")
    daemon.start()
    two_pop_ups(daemon, server)
    reminderd = wait_for(lambda: unique_name(bus, daemon.process.pid), what="reminderd's bus name")
    notifications = unique_name(bus, server.process.pid)
    targets = TARGETS + exported_methods(bus, reminderd)
    before = items_and_history(daemon)
    forger = subprocess.Popen([SYSTEM_PYTHON, "-c", FORGER, bus.address, str(seed), str(seconds), json.dumps(targets),
                               reminderd, notifications], env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus.address),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # Clients are served all along: status answers while the forger sends.
    while forger.poll() is None:
        assert daemon.process.poll() is None, f"reminderd stopped (seed {seed})"
        assert daemon.ctl("status", check=False).returncode == 0, f"status unanswered (seed {seed})"
    out, err = forger.communicate()
    assert forger.returncode == 0, f"the forger failed (seed {seed}): {err}"
    # A last ping through the bus: every signal sent before it was handled once its answer came.
    assert bus_call(bus, reminderd, "/StatusNotifierItem", "org.freedesktop.DBus.Peer", "Ping") is not None, seed
    assert daemon.process.poll() is None, f"reminderd stopped (seed {seed})"
    assert daemon.ctl("status", check=False).returncode == 0
    assert items_and_history(daemon) == before, f"a forged signal or call changed an item (seed {seed})"
    assert (daemon.tmp / "daemon.log").read_text().count("ignored a ") == 1  # thousands ignored, logged once
    print(f"{out.strip()} messages sent")


def test_no_session_bus_is_said_once_at_info_not_as_an_error_at_every_retry(bus, tmp_path):
    """Issue 27, defect 15: without a session bus (no address, no X11 to autolaunch one), main
    logged an error at start and again at every retry. It is a state reminderd works in: said
    once, at info, while it lasts — here through three attempts, the last two at a socket that
    appears at $XDG_RUNTIME_DIR/bus and answers nothing."""
    daemon = Daemon(tmp_path, bus)
    for name in ("DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY"):
        daemon.env.pop(name, None)
    log = tmp_path / "daemon.log"
    try:
        daemon.start()
        assert daemon.ctl("status", check=False).returncode == 0
        wait_for(lambda: "no D-Bus session bus" in log.read_text(), what="the bus's absence in the log")
        attempts = []
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(str(daemon.runtime / "bus"))
        listener.listen()

        def refuse():
            while True:
                try:
                    connection, _ = listener.accept()
                except OSError:
                    return
                attempts.append(1)
                connection.close()

        threading.Thread(target=refuse, daemon=True).start()
        wait_for(lambda: len(attempts) >= 2, timeout=15, what="two more attempts to connect")
        listener.close()
        lines = [line for line in log.read_text().splitlines() if "session bus" in line]
        assert len(lines) == 1 and " info " in lines[0], lines
        assert " error " not in log.read_text()
        assert daemon.process.poll() is None
    finally:
        daemon.stop()
