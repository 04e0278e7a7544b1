"""reminderd's notification promises under faults: a Notify that hangs or is killed mid-call,
a server slow to say what it can do, a session bus that goes away, and a bus that could start a
notification server on demand."""
import json
import signal
import subprocess
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from conftest import BUS_CONFIG, Bus, Daemon, NotificationServer, local_in, plain, wait_for


def answer(server, method, in_signature, out_signature, code):
    """Replaces one of dbusmock's notification methods with `code` (Python; `ret` is the answer)."""
    server.gdbus("org.freedesktop.DBus.Mock.AddMethod", "org.freedesktop.Notifications", method, in_signature,
                 out_signature, code)


def hang_notify(server, seconds):
    answer(server, "Notify", "susssasa{sv}i", "u", f"import time; time.sleep({seconds}); ret = 7")


def history(daemon, event):
    return [e for e in daemon.ctl_json("history")["entries"] if e["event"] == event]


class FixedBus(Bus):
    """A private session bus at a fixed socket path, so it can be stopped and started again at
    the same address; `services` is a directory of D-Bus activation files, when given."""

    def __init__(self, directory, services=None):
        self.directory = Path(directory)
        self.socket = self.directory / "bus.socket"
        config = BUS_CONFIG.replace("<listen>unix:tmpdir=/tmp</listen>", f"<listen>unix:path={self.socket}</listen>")
        if services:
            config = config.replace("</busconfig>", f"  <servicedir>{services}</servicedir>\n</busconfig>")
        (self.directory / "fixed-bus.conf").write_text(config)
        self.start()

    def start(self):
        if self.socket.exists():
            self.socket.unlink()
        self.process = subprocess.Popen(
            ["dbus-daemon", f"--config-file={self.directory / 'fixed-bus.conf'}", "--nofork", "--print-address=1"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        self.address = self.process.stdout.readline().strip()
        assert self.address, "dbus-daemon printed no address"

    def kill(self):
        self.process.kill()
        self.process.wait(5)


def test_a_reminder_in_flight_to_a_hung_server_when_the_daemon_is_killed_is_shown_once_after_restart(
        bus, daemon, tmp_path):
    hung = NotificationServer(bus, tmp_path / "hung.log")
    try:
        hang_notify(hung, 60)
        daemon.start()
        daemon.ctl("add", "coupon", "Hung deal", "--expires", local_in(64), "--lead", "1m")
        wait_for(hung.notifications, timeout=15, what="the Notify call that hangs")
        daemon.kill(signal.SIGKILL)  # while the call is in flight
    finally:
        hung.process.kill()  # the hung server dies without ever answering
        hung.process.wait(5)
    server = NotificationServer(bus, tmp_path / "new.log")
    try:
        daemon.start()
        wait_for(lambda: history(daemon, "fired"), timeout=15, what="the reminder shown after the restart")
        shown = server.notifications()
        assert len(shown) == 1
        assert plain(shown[0][0]) == "Hung deal"
        assert "\nLate: reminderd stopped before the notification server confirmed its " in shown[0][1]
        assert len(history(daemon, "fired")) == 1
    finally:
        server.stop()


def test_a_notify_answered_after_the_dbus_timeout_is_shown_once_and_never_sent_again(server, daemon):
    # The server takes 27 s to answer, past D-Bus's usual 25 s timeout.
    hang_notify(server, 27)
    daemon.start()
    daemon.ctl("add", "coupon", "Slow deal", "--expires", local_in(64), "--lead", "1m")
    wait_for(server.notifications, timeout=15, what="the Notify call that hangs")
    for _ in range(5):  # while the call hangs, requests are answered at once
        started = time.monotonic()
        assert daemon.ctl_json("status")["status"]["items"] == 1
        assert time.monotonic() - started < 1.0
        time.sleep(1)  # the hang is seconds of real time: a request each second of it
    wait_for(lambda: history(daemon, "fired"), timeout=40, what="the late answer")
    assert len(server.notifications()) == 1
    assert daemon.ctl_json("status")["status"]["waiting"] == 0
    assert len(history(daemon, "fired")) == 1


def test_a_late_reminder_at_start_waits_for_the_servers_capabilities_and_has_buttons(server, daemon):
    daemon.start()
    daemon.ctl("add", "coupon", "Late deal", "--expires", local_in(63), "--lead", "1m")
    daemon.stop()
    fire_time = time.time() + 4
    wait_for(lambda: time.time() > fire_time, timeout=10, what="the reminder's time, while stopped")
    answer(server, "GetCapabilities", "", "as", "import time; time.sleep(1); ret = ['body', 'actions', 'persistence']")
    daemon.start()
    shown = wait_for(server.notifications, timeout=15, what="the late pop-up")
    summary, body, line = shown[0]
    assert "\nLate: reminderd was not running at " in body
    assert '"done"' in line
    assert "reminderctl done" not in body


def test_the_session_bus_going_away_and_coming_back_does_not_stop_the_daemon(tmp_path):
    bus = FixedBus(tmp_path)
    server = NotificationServer(bus, tmp_path / "first.log")
    daemon = Daemon(tmp_path, bus)
    replacement = None
    try:
        daemon.start()
        daemon.ctl("add", "coupon", "Deal", "--expires", local_in(70), "--lead", "1m")
        bus.kill()
        server.process.kill()
        server.process.wait(5)
        log = tmp_path / "daemon.log"
        wait_for(lambda: "session bus connection closed" in log.read_text(), timeout=10, what="the lost bus logged")
        assert daemon.process.poll() is None, "reminderd exited when the session bus went away"
        bus.start()
        replacement = NotificationServer(bus, tmp_path / "second.log")
        wait_for(lambda: "connected to the D-Bus session bus again" in log.read_text(), timeout=15,
                 what="the reconnection")
        wait_for(replacement.notifications, timeout=20, what="the reminder on the new bus")
        assert daemon.process.poll() is None
        assert len(history(daemon, "fired")) == 1
    finally:
        daemon.stop()
        if replacement:
            replacement.stop()
        bus.stop()


def test_reminderd_never_asks_the_bus_to_start_a_notification_server(tmp_path):
    services = tmp_path / "services"
    services.mkdir()
    marker = tmp_path / "started"
    script = tmp_path / "fake-server.sh"
    script.write_text(f"#!/bin/sh\ntouch {marker}\n")
    script.chmod(0o755)
    (services / "org.freedesktop.Notifications.service").write_text(
        f"[D-BUS Service]\nName=org.freedesktop.Notifications\nExec={script}\n")
    bus = FixedBus(tmp_path, services=services)
    daemon = Daemon(tmp_path, bus)
    server = None
    try:
        daemon.start()
        daemon.ctl("add", "coupon", "Deal", "--expires", local_in(64), "--lead", "1m")
        wait_for(lambda: marker.exists() or daemon.ctl_json("status")["status"]["waiting"] == 1, timeout=15,
                 what="the reminder waiting for a server")
        assert not marker.exists(), "reminderd asked the bus to start a notification server"
        server = NotificationServer(bus, tmp_path / "notify.log")
        wait_for(server.notifications, timeout=15, what="the pop-up once a server appeared")
        assert len(history(daemon, "fired")) == 1
    finally:
        daemon.stop()
        if server:
            server.stop()
        bus.stop()


def test_the_missed_reminders_pop_up_at_start_waits_for_the_servers_capabilities(server, daemon, tmp_path):
    daemon.start()
    # Created three days ago, expiring in 3 s, its 1h reminder already past: missed once it expires.
    created = (datetime.now(timezone.utc) - timedelta(days=3)).strftime("%Y-%m-%dT%H:%M:%SZ")
    items = tmp_path / "items.json"
    items.write_text(json.dumps([{"kind": "coupon", "title": "Gone", "expires": local_in(3), "lead": ["1h"],
                                  "createdAt": created}]))
    daemon.ctl_json("import", str(items))
    daemon.stop()
    due = time.time() + 4
    wait_for(lambda: time.time() > due, timeout=10, what="the due time, while stopped")
    answer(server, "GetCapabilities", "", "as", "import time; time.sleep(1); ret = ['body', 'actions']")
    daemon.start()
    shown = wait_for(server.notifications, timeout=15, what="the While You Were Away pop-up")
    assert [n[0] for n in shown] == ["While You Were Away"]
    assert len(history(daemon, "missed")) == 1
