"""Random calls on reminderd's panel indicator (the StatusNotifierItem and its dbusmenu), for
test_faults_indicator.py; run by Debian's python3 (its gi) on the bus in DBUS_SESSION_BUS_ADDRESS.

    indicator_fuzz.py NAME SEED SECONDS OUTPUT WATCHER_LOG

NAME is reminderd's unique name; WATCHER_LOG the log of sni_watcher.py, where reminderd's
registrations appear. GLib (2.74) cannot read back some messages it writes itself, which
dbus-daemon passes on (a{gy} of two entries; some nested variants): GDBus then closes
reminderd's connection, and reminderd connects again under a new name and registers with the
watcher again. That is survived, not a stop: the fuzzer follows it to the new name (counted as
`reconnects`); reminderd not back on the bus within 30 s is `gone`. For SECONDS it sends, from SEED: the methods with their own
signatures and random values (ids near those of layouts it fetched, edge integers, any event
name), the same names with random signatures, the Properties interface with random names and
values, and unknown methods, interfaces and paths; it fetches the layout now and then, as a
host does. OUTPUT gets JSON: the calls made, the errors answered, the items whose entries it
clicked after fetching them (the only items a click may change), and the call after which
reminderd left the bus or stopped answering, if it did."""
import json
import random
import sys
import time

from gi.repository import Gio, GLib

name, seed, seconds, output, watcher_log = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5]
rng = random.Random(seed)
bus = Gio.DBusConnection.new_for_address_sync(
    Gio.dbus_address_get_for_bus_sync(Gio.BusType.SESSION, None),
    Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)

MENU, ITEM, PROPERTIES = "com.canonical.dbusmenu", "org.kde.StatusNotifierItem", "org.freedesktop.DBus.Properties"
METHODS = {  # name → (interface, path, signature)
    "GetLayout": (MENU, "/MenuBar", "(iias)"), "GetGroupProperties": (MENU, "/MenuBar", "(aias)"),
    "GetProperty": (MENU, "/MenuBar", "(is)"), "Event": (MENU, "/MenuBar", "(isvu)"),
    "EventGroup": (MENU, "/MenuBar", "(a(isvu))"), "AboutToShow": (MENU, "/MenuBar", "(i)"),
    "AboutToShowGroup": (MENU, "/MenuBar", "(ai)"), "Activate": (ITEM, "/StatusNotifierItem", "(ii)"),
    "SecondaryActivate": (ITEM, "/StatusNotifierItem", "(ii)"), "ContextMenu": (ITEM, "/StatusNotifierItem", "(ii)"),
    "Scroll": (ITEM, "/StatusNotifierItem", "(is)"),
}
EVENTS = ["clicked", "hovered", "opened", "closed", "", "clicked\0", "CLICKED"]
TIMEOUT = 25_000  # ms: a loaded machine is slow; reminderd not answering within it counts as stopped
seen = {}  # menu id → the item title its entry acted on, from every layout fetched
allowed = set()
log = []


def edge_int(bits, signed=True):
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    return rng.choice([low, high, 0, 1, -1 if signed else 2, low + 1, high - 1, rng.randint(low, high)])


def an_id():
    return rng.choice(list(seen) + [0]) if seen and rng.random() < 0.6 else edge_int(32)


def text():
    return rng.choice(["", "label", "clicked", "x" * rng.randint(0, 300), "\u202e\u0007é", "Status", "Menu"])


def random_type(depth=0):
    basic = "ybnqiuxtdsog"
    if depth > 2 or rng.random() < 0.6:
        return rng.choice(basic + "v")
    kind = rng.random()
    if kind < 0.4:
        return "a" + random_type(depth + 1)
    if kind < 0.6:
        return "a{" + rng.choice(basic) + random_type(depth + 1) + "}"
    return "(" + "".join(random_type(depth + 1) for _ in range(rng.randint(1, 3))) + ")"


def value_of(signature):
    """A random Python value GLib.Variant accepts for `signature` (one complete type)."""
    first = signature[0]
    if first == "b":
        return rng.random() < 0.5
    if first in "ynqiuxt":
        bits = {"y": 8, "n": 16, "q": 16, "i": 32, "u": 32, "x": 64, "t": 64}[first]
        return edge_int(bits, signed=first in "nix") if first != "y" else rng.randint(0, 255)
    if first == "d":
        return rng.choice([0.0, -1.5, 1e308, float("nan"), float("inf")])
    if first == "s":
        return text()
    if first == "o":
        return rng.choice(["/", "/MenuBar", "/a/b"])
    if first == "g":
        return rng.choice(["", "i", "a{sv}"])
    if first == "v":
        inner = random_type(2)
        return GLib.Variant(inner, value_of(inner))
    if first == "a":
        element = signature[1:]
        if element.startswith("{"):
            key, item = split_types(element[1:-1])
            return {value_of(key): value_of(item) for _ in range(rng.randint(0, 3))}
        return [value_of(element) for _ in range(rng.randint(0, 3))]
    if first == "(":
        return tuple(value_of(t) for t in split_types(signature[1:-1]))
    raise ValueError(signature)


def split_types(signature):
    """The complete types a concatenation of them is made of."""
    types, i = [], 0
    while i < len(signature):
        j, depth = i, 0
        while True:
            c = signature[j]
            if c in "({":
                depth += 1
            elif c in ")}":
                depth -= 1
            j += 1
            if depth == 0 and c != "a":
                break
        types.append(signature[i:j])
        i = j
    return types


def any_variant():
    inner = random_type()
    return GLib.Variant(inner, value_of(inner))


def event(clicks):
    entry, kind = an_id(), rng.choice(EVENTS)
    if kind == "clicked" and entry in seen:
        clicks.append(seen[entry])
    return (entry, kind, GLib.Variant("i", 0) if rng.random() < 0.7 else any_variant(), edge_int(32, False))


def well_typed(method):
    clicks = []
    arguments = {
        "GetLayout": lambda: (an_id(), edge_int(32), rng.choice([[], ["label"], [text()]])),
        "GetGroupProperties": lambda: ([an_id() for _ in range(rng.randint(0, 4))], [text()] * rng.randint(0, 2)),
        "GetProperty": lambda: (an_id(), rng.choice(["label", "enabled", "type", "children-display", text()])),
        "Event": lambda: event(clicks),
        "EventGroup": lambda: ([event(clicks) for _ in range(rng.randint(0, 4))],),
        "AboutToShow": lambda: (an_id(),),
        "AboutToShowGroup": lambda: ([an_id() for _ in range(rng.randint(0, 4))],),
        "Scroll": lambda: (edge_int(32), text()),
    }.get(method, lambda: (edge_int(32), edge_int(32)))()
    return GLib.Variant(METHODS[method][2], arguments), clicks


def properties_call():
    interface = rng.choice([MENU, ITEM, text()])
    method = rng.choice(["Get", "GetAll", "Set"])
    if method == "Get":
        return method, GLib.Variant("(ss)", (interface, rng.choice(["Status", "Menu", "ToolTip", "Version", text()])))
    if method == "GetAll":
        return method, GLib.Variant("(s)", (interface,))
    return method, GLib.Variant("(ssv)", (interface, rng.choice(["Status", "Id", text()]), any_variant()))


def fetch():
    reply = bus.call_sync(name, "/MenuBar", MENU, "GetLayout", GLib.Variant("(iias)", (0, -1, [])), None,
                          Gio.DBusCallFlags.NONE, TIMEOUT, None).unpack()
    for submenu in reply[1][2]:
        title = submenu[1].get("label", "").split(" — ")[0].split(",")[0].replace("__", "_")
        for child in submenu[2]:
            seen[child[0]] = title


def alive():
    owner = bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                          GLib.Variant("(s)", (name,)), None, Gio.DBusCallFlags.NONE, TIMEOUT, None)
    return owner.unpack()[0]


def registered_again(old):
    """reminderd's new unique name once it registered again after losing its connection."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with open(watcher_log) as log:
            names = [json.loads(line)["sender"] for line in log if '"service"' in line]
        if names and names[-1] != old:
            return names[-1]
        time.sleep(0.1)
    return None


calls = errors = reconnects = 0
gone = None
deadline = time.monotonic() + seconds
while time.monotonic() < deadline:
    choice, clicks = rng.random(), []
    try:
        if choice < 0.15:
            described = "GetLayout (a host's fetch)"
            fetch()
        else:
            if choice < 0.55:
                method = rng.choice(list(METHODS))
                interface, path, _ = METHODS[method]
                parameters, clicks = well_typed(method)
            elif choice < 0.7:
                interface, path = PROPERTIES, rng.choice(["/MenuBar", "/StatusNotifierItem"])
                method, parameters = properties_call()
            else:
                method = rng.choice(list(METHODS) + ["Get", "Introspect", "Frobnicate"])
                interface, path = rng.choice([(m[0], m[1]) for m in METHODS.values()] + [(PROPERTIES, "/MenuBar")])
                signature = "(" + "".join(random_type() for _ in range(rng.randint(0, 4))) + ")"
                parameters = GLib.Variant(signature, value_of(signature))
            described = f"{interface}.{method} at {path} with {parameters.print_(True)[:200]}"
            allowed.update(clicks)  # before the call: a click counts once it was sent
            bus.call_sync(name, path, interface, method, parameters, None, Gio.DBusCallFlags.NONE, TIMEOUT, None)
    except GLib.Error as error:
        errors += 1
        if "Timeout" in str(error) or "NoReply" in str(error) or "ServiceUnknown" in str(error) or not alive():
            new_name = registered_again(name)
            if new_name is None:
                gone = {"call": described, "error": str(error)}
                break
            name, reconnects = new_name, reconnects + 1
            seen.clear()  # what it knows of the menu is fetched again, from the new name
    calls += 1
    log = (log + [described])[-5:]
    if calls % 25 == 0 and not alive():
        new_name = registered_again(name)
        if new_name is None:
            gone = {"call": described, "error": "left the bus"}
            break
        name, reconnects = new_name, reconnects + 1
        seen.clear()

with open(output, "w") as out:
    json.dump({"calls": calls, "errors": errors, "reconnects": reconnects, "allowed": sorted(allowed), "gone": gone,
               "last": log}, out)
