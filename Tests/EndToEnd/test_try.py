"""A first pop-up at any hour (issue 28, item 7): `reminderctl try` shows a sample reminder at
once — at 23:00, inside the default quiet hours 22:00–08:00, and while paused — in a real
reminder's words and with its buttons, on a dbusmock notification server; pressing them says what
they would do and changes no item."""
import json
import socket
import time
from datetime import datetime, timezone

from conftest import CLOCK_SHIFT, ROOT, Daemon, NotificationServer, plain, wait_for


def daemon_at_night(bus, tmp_path):
    """A daemon with the default quiet hours (no config file) whose clock reads 23:00 UTC."""
    when = datetime(2030, 3, 5, 23, 0, 5, tzinfo=timezone.utc)
    shift = round(when.timestamp() - (time.time() - CLOCK_SHIFT))
    daemon = Daemon(tmp_path, bus)
    daemon.config_path.unlink()  # the built-in defaults: quiet hours 22:00–08:00
    daemon.env["REMINDERD_TEST_CLOCK_SHIFT"] = str(shift)
    return daemon.start()


def sample_calls(server):
    return [(n, summary, body, line) for n, (summary, body, line) in enumerate(server.notifications(), 1)
            if "A sample from reminderctl try" in body]


def test_try_shows_a_sample_at_a_quiet_hour_whose_buttons_change_nothing(bus, server, tmp_path):
    daemon = daemon_at_night(bus, tmp_path)
    try:
        daemon.ctl("pause")  # held reminders wait for resume; the sample does not
        result = daemon.ctl("try")
        assert 'A sample reminder is on your screen: "Uber Cash".' in result.stdout, result.stdout
        assert "Press Mark as used, Snooze 1h, Snooze until tomorrow" in result.stdout, result.stdout
        # The README's sample output is what it prints.
        readme = (ROOT / "README.md").read_text()
        assert "$ reminderctl try\n" + result.stdout + "```" in readme, result.stdout
        (number, summary, body, line), = sample_calls(server)
        assert plain(summary) == "Uber Cash"
        assert plain(body).startswith("Reward Expiring Soon · Amex Platinum · Your $15 Uber Cash expires in 3 days")
        assert '["done", "Mark as used", "snooze-1h", "Snooze 1h", "snooze-tomorrow", "Snooze until tomorrow"]' in line, line

        server.invoke(number, "done")
        wait_for(lambda: any(s == "Sample: nothing changed" for s, _, _ in server.notifications()),
                 what="the sample's answer to Mark as used")
        answer = [b for s, b, _ in server.notifications() if s == "Sample: nothing changed"][-1]
        assert "Mark as used would record this period's credit as used" in answer, answer

        daemon.ctl("try")
        number = sample_calls(server)[-1][0]
        server.invoke(number, "snooze-1h")
        wait_for(lambda: len([s for s, _, _ in server.notifications() if s == "Sample: nothing changed"]) == 2,
                 what="the sample's answer to Snooze 1h")
        answer = [b for s, b, _ in server.notifications() if s == "Sample: nothing changed"][-1]
        # 00:00 is inside quiet hours: a real snooze ends when they do.
        assert "Snooze 1h would show this reminder again at Wed 08:00" in answer, answer

        # Nothing was added, done or snoozed, and the pause still holds.
        assert daemon.ctl_json("list", "--all")["items"] == []
        assert daemon.ctl_json("history")["entries"] == []
        assert "Paused" in daemon.ctl("status").stdout
    finally:
        daemon.stop()


def test_try_without_a_notification_server_says_so(bus, daemon):
    daemon.start()
    result = daemon.ctl("try", check=False)
    assert result.returncode == 1
    assert "no notification server is on the session bus" in result.stderr, result.stderr


def test_try_waits_a_few_seconds_for_a_server_that_is_starting(bus, daemon, tmp_path):
    """`try` at once after a login or the daemon's start, before reminderd has heard of the
    desktop's server: it waits for it (up to 5 s) rather than say there is none (test_quiet_hours'
    walk-through met this: "no notification server" with dbusmock starting beside it)."""
    daemon.start()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.connect(str(daemon.socket_path))
        client.sendall(json.dumps({"method": "io.reminderd.Reminders.ShowSample", "parameters": {}}).encode() + b"\0")
        # A later call's answer on the same serial engine queue: the sample call was read first,
        # while no server was on the bus.
        daemon.ctl("status")
        server = NotificationServer(bus, tmp_path / "notify.log")
        try:
            client.settimeout(20)
            reply = b""
            while not reply.endswith(b"\0"):
                chunk = client.recv(65536)
                assert chunk, "reminderd closed the connection without an answer"
                reply += chunk
            answer = json.loads(reply[:-1])
            assert "error" not in answer, answer
            assert plain(answer["parameters"]["summary"]) == "Uber Cash", answer
            assert len(sample_calls(server)) == 1
        finally:
            server.stop()
