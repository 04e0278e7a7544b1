"""The desktop's side of test_desktop_model.py, run by Debian's python3 (its gi): one process that
answers JSON lines on stdin with JSON lines on stdout, so a step costs no process start. It reads
the python3-dbusmock notification server's call log (`GetCalls`: every Notify and
CloseNotification, with their arguments as sent), makes that server emit a signal as a real one
would (ActionInvoked for a button, NotificationClosed for a pop-up closed), and plays two panel
hosts: two connections of their own on the session bus that fetch reminderd's dbusmenu layout
and click in it, as two trays (a bar on each output) do.

Requests: {"op": "calls"}, {"op": "emit", "signal": NAME, "signature": SIG, "args": [...]},
{"op": "hosts"} (new host connections: a panel restarted), {"op": "layout", "host": N, "dest": NAME},
{"op": "click", "host": N, "dest": NAME, "id": ID}. Answers: {"ok": VALUE} or {"error": TEXT}."""
import json
import sys

from gi.repository import Gio, GLib

NOTIFICATIONS = ("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
MOCK = "org.freedesktop.DBus.Mock"
MENU = "com.canonical.dbusmenu"
address = sys.argv[1]


def connect():
    flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
    return Gio.DBusConnection.new_for_address_sync(address, flags, None, None)


server = connect()
hosts = [connect(), connect(), connect()]  # two panel hosts, and the checks' own


def call(connection, dest, path, interface, method, value):
    return connection.call_sync(dest, path, interface, method, value, None, Gio.DBusCallFlags.NONE, 5000, None)


def plain(value):
    """A reply's value as JSON can hold it."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, bytes):
        return value.hex()
    return value


def answer(request):
    global hosts
    op = request["op"]
    if op == "calls":
        reply = call(server, *NOTIFICATIONS, MOCK, "GetCalls", None)
        return [[stamp, method, plain(args)] for stamp, method, args in reply.unpack()[0]]
    if op == "emit":
        types = request["signature"]
        args = [GLib.Variant(t, a) for t, a in zip(types, request["args"])]
        value = GLib.Variant("(sssav)", (NOTIFICATIONS[0], request["signal"], types, args))
        call(server, *NOTIFICATIONS, MOCK, "EmitSignal", value)
        return None
    if op == "hosts":
        for host in hosts:
            host.close_sync(None)
        hosts = [connect(), connect(), connect()]
        return [host.get_unique_name() for host in hosts]
    host = hosts[request["host"]]
    if op == "layout":
        reply = call(host, request["dest"], "/MenuBar", MENU, "GetLayout", GLib.Variant("(iias)", (0, -1, [])))
        return plain(reply.unpack())
    if op == "click":
        value = GLib.Variant("(isvu)", (request["id"], "clicked", GLib.Variant("i", 0), 0))
        call(host, request["dest"], "/MenuBar", MENU, "Event", value)
        return None
    raise ValueError(f"unknown op {op!r}")


for line in sys.stdin:
    try:
        result = {"ok": answer(json.loads(line))}
    except Exception as error:  # a failed call is the test's to judge: it gets the words
        result = {"error": f"{type(error).__name__}: {error}"}
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
