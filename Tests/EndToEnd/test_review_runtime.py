"""A stranger's review of the day's changes, as users meet them: reminderctl against a reminderd of
the previous version (still running after an upgrade until it is restarted)."""
import json
import signal
import socket
import sqlite3
import threading
import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from conftest import Daemon, NotificationServer, fired_once_and_settled, local_in, wait_for
from test_faults_notify import hang_notify

METHOD = "io.reminderd.Reminders."
# UTC+14: its date is never the UTC one reminderctl's own TZ gives, before 10:00 UTC.
OLD_DAEMON_ZONE = "Pacific/Kiritimati"


class PreviousDaemon:
    """Answers Status and Add as the previous version's reminderd did: its Status has no `today`."""

    def __init__(self, path):
        self.requests = []
        self.listener = socket.socket(socket.AF_UNIX)
        self.listener.bind(str(path))
        self.listener.listen(8)
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with client:
                buffer = b""
                while True:
                    chunk = client.recv(65536)
                    if not chunk:
                        break
                    buffer += chunk
                    while b"\0" in buffer:
                        message, _, buffer = buffer.partition(b"\0")
                        client.sendall(json.dumps(self.answer(json.loads(message))).encode() + b"\0")

    def answer(self, request):
        self.requests.append(request)
        method = request["method"].removeprefix(METHOD)
        if method == "Status":  # d3df8d5's StatusReply, field for field
            return {"parameters": {"status": {
                "version": "0.1.0", "uptimeSeconds": 60, "items": 0, "nextReminder": None,
                "notificationServer": None, "paused": None, "waiting": 0, "timeZone": OLD_DAEMON_ZONE,
                "store": "/tmp/store.sqlite", "held": 0, "heldReason": None}}}
        if method == "Add":
            item = dict(request["parameters"]["item"], id="ab12cd34", status="available")
            return {"parameters": {"id": "ab12cd34", "item": item}}
        return {"error": "org.varlink.service.MethodNotFound", "parameters": {"method": request["method"]}}

    def close(self):
        self.listener.close()


def test_status_and_add_work_against_a_daemon_of_the_previous_version(bus, tmp_path):
    ctl = Daemon(tmp_path, bus)  # only its environment: the daemon answering is the stub
    old = PreviousDaemon(ctl.socket_path)
    try:
        status = ctl.ctl("status", check=False)
        assert status.returncode == 0, status.stderr
        assert "0.1.0" in status.stdout
        added = ctl.ctl("add", "coupon", "Deal", "--expires", "tomorrow", check=False)
        assert added.returncode == 0, added.stderr
        # "tomorrow" in the old daemon's zone, not reminderctl's own TZ (UTC).
        tomorrow = (datetime.now(ZoneInfo(OLD_DAEMON_ZONE)) + timedelta(days=1)).date().isoformat()
        sent = [r["parameters"]["item"] for r in old.requests if r["method"] == METHOD + "Add"]
        assert [item["expires"] for item in sent] == [tomorrow]
    finally:
        old.close()


def last_seen(daemon):
    store = sqlite3.connect(daemon.tmp / "data" / "reminderd" / "reminderd.sqlite")
    try:
        row = store.execute("SELECT value FROM setting WHERE key = 'lastSeen'").fetchone()
        return int(row[0]) if row else None
    finally:
        store.close()


def test_sigterm_with_a_notify_hung_in_flight_exits_0_promptly_and_records_last_seen(bus, daemon, tmp_path):
    hung = NotificationServer(bus, tmp_path / "hung.log")
    try:
        daemon.start()
        daemon.ctl("add", "coupon", "Deal", "--expires", local_in(2 * 86400 + 3), "--lead", "48h")
        hang_notify(hung, 60)  # the whole server stops answering, Notify and property reads alike
        wait_for(lambda: hung.notifications(), timeout=15, what="the Notify to the hung server")
        before = int(time.time())
        started = time.monotonic()
        assert daemon.kill(signal.SIGTERM) == 0
        took = time.monotonic() - started
        assert took < 5, f"reminderd took {took:.1f} s to stop with a Notify in flight"
        assert last_seen(daemon) >= before
    finally:
        hung.process.kill()
        hung.process.wait(5)


def test_do_not_disturb_of_a_server_that_went_away_does_not_hold_reminders_on_the_next(bus, daemon, tmp_path):
    first = NotificationServer(bus, tmp_path / "first.log")
    first.gdbus("org.freedesktop.DBus.Mock.AddProperty", "org.freedesktop.Notifications", "Inhibited", "<false>")
    daemon.start()
    wait_for(lambda: daemon.ctl_json("status")["status"]["notificationServer"], what="reminderd to know the server")
    first.gdbus("org.freedesktop.DBus.Properties.Set", "org.freedesktop.Notifications", "Inhibited", "<true>")
    item = daemon.ctl_json("add", "coupon", "Deal", "--expires", local_in(2 * 86400 + 3), "--lead", "48h")["id"]
    wait_for(lambda: daemon.ctl_json("status")["status"]["held"] == 1, timeout=15, what="the reminder held")
    first.stop()  # the server restarts without do-not-disturb (no Inhibited property at all)
    wait_for(lambda: not daemon.ctl_json("status")["status"]["notificationServer"], what="the server gone")
    second = NotificationServer(bus, tmp_path / "second.log")
    try:
        wait_for(lambda: second.notifications(), timeout=15, what="the held reminder on the new server")
        assert fired_once_and_settled(daemon, item) == 1
        assert daemon.ctl_json("status")["status"]["held"] == 0
    finally:
        second.stop()
