"""reminderd end to end: real bus, real notification server, real socket, real binaries."""
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from conftest import BIN, CLOCK_SHIFT, Daemon, NotificationServer, fired_once_and_settled, local_in, plain, wait_for


def test_ready_arrives_with_a_status_line(server, daemon):
    daemon.start()
    ready = [m for m in daemon.messages if "READY=1" in m]
    assert ready and "STATUS=0 items, no reminder pending" in ready[0]


def test_an_item_due_within_seconds_pops_up_once_with_text_urgency_and_actions(server, daemon):
    daemon.start()
    added = daemon.ctl("add", "coupon", "Pizza <2 for 1>", "--expires", local_in(66), "--lead", "1m", "--code", "P2")
    assert added.stdout.startswith("Added ")
    item_id = added.stdout.split()[1].rstrip(":")
    shown = wait_for(server.notifications, timeout=15, what="the pop-up")
    assert fired_once_and_settled(daemon, item_id) == 1
    assert len(server.notifications()) == 1
    summary, body, line = shown[0]
    assert summary == "\u2068Pizza <2 for 1>\u2069"  # the item's name, isolated
    assert plain(body).startswith("Coupon Expiring · Pizza &lt;2 for 1&gt; expires in 1 min")  # body-markup: escaped
    assert "code P2" in plain(body)
    assert line.rstrip().endswith(" 0")  # expire timeout 0: it stays until acted on
    assert '"urgency": 2' in line
    assert '["done", "Mark as used"]' in line  # a minute left: no snooze fits, and no "Show" that does nothing
    assert '"category": "x-reminderd.coupon"' in line and '"desktop-entry": "reminderd"' in line
    history = daemon.ctl_json("history")["entries"]
    assert [e["event"] for e in history if e["event"] == "fired"] == ["fired"]


def test_the_done_button_marks_it_used_and_offers_undo(server, daemon):
    daemon.start()
    item_id = daemon.ctl_json("add", "coupon", "Tacos", "--expires", local_in(66), "--lead", "1m")["id"]
    wait_for(server.notifications, timeout=15, what="the pop-up")
    server.invoke(1, "done")
    wait_for(lambda: daemon.ctl_json("list", "--all")["items"][0]["status"] == "used", what="the item marked used")
    listed = daemon.ctl("list", "--all").stdout
    assert item_id in listed and "used" in listed
    assert '"resident": True' in server.notifications()[0][2]  # the server keeps pop-ups (persistence)
    confirmation = wait_for(lambda: server.notifications()[1:], what="the Done confirmation")[0]
    assert confirmation[0] == "Done" and confirmation[1] == "Marked Tacos as used"
    assert '["undo", "Undo"]' in confirmation[2] and confirmation[2].endswith(" 10000")
    server.invoke(2, "undo")
    wait_for(lambda: daemon.ctl_json("list", "--all")["items"][0]["status"] == "expiring", what="the Undo")
    assert any(e["event"] == "undone" for e in daemon.ctl_json("history")["entries"])


def test_a_snooze_button_fires_again_after_the_snooze(server, bus, tmp_path):
    """The pop-up's "Snooze 1m" pressed: the snooze is stored, and the snoozed pop-up comes at its
    end, not before, once. The minute passes as a restart with the test clock moved on to a few
    seconds before the snooze's end (as test_repeat.py's quarter hours), so the restarted daemon's
    own timer brings the pop-up back at the end the button stored: what a real minute proved,
    and the snooze kept across a restart besides."""
    daemon = Daemon(tmp_path, bus, {"timeZone": "UTC", "quietHours": None, "snoozeOptions": ["1m"]}).start()
    try:
        daemon.ctl("add", "coupon", "Burgers", "--expires", local_in(126), "--lead", "2m")
        wait_for(server.notifications, timeout=20, what="the first pop-up")
        assert '"snooze-1m", "Snooze 1m"' in server.notifications()[0][2]
        server.invoke(1, "snooze-1m")
        pressed = wait_for(lambda: [e for e in daemon.ctl_json("history")["entries"] if e["event"] == "snoozed"],
                           what="the snooze")
        item = daemon.ctl_json("list")["items"][0]
        until = datetime.fromisoformat(item["nextReminder"])  # the snooze's end, a minute from the press
        assert until - datetime.fromisoformat(pressed[0]["at"]) == timedelta(minutes=1)
        daemon.stop()
        shift = round(until.timestamp() - 5 - (time.time() - CLOCK_SHIFT))  # 5 s before the end at start
        daemon.env["REMINDERD_TEST_CLOCK_SHIFT"] = str(shift)
        daemon.start()
        wait_for(lambda: len(server.notifications()) == 2, timeout=20, what="the snoozed pop-up")
        assert time.time() - CLOCK_SHIFT + shift >= until.timestamp()  # not before its time, on the daemon's clock
        assert fired_once_and_settled(daemon, item["id"]) == 2
    finally:
        daemon.stop()


def test_kill_9_after_acknowledged_adds_loses_nothing_and_shows_nothing_twice(server, daemon):
    daemon.start()
    daemon.ctl("add", "coupon", "Shown once", "--expires", local_in(63), "--lead", "1m")
    wait_for(server.notifications, timeout=15, what="the pop-up")
    # Bought today, so none is overdue (an overdue rebuy reminds at once).
    today = local_in(0)[:10]
    ids = [daemon.ctl_json("add", "rebuy", f"Item {n}", "--every-days", "30", "--last-purchased", today)["id"] for n in range(20)]
    assert daemon.kill(signal.SIGKILL) == -signal.SIGKILL
    database = daemon.tmp / "data" / "reminderd" / "reminderd.sqlite"
    with sqlite3.connect(database) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    daemon.stop()
    daemon.start()
    listed = {item["id"] for item in daemon.ctl_json("list", "--all")["items"]}
    assert set(ids) <= listed and len(listed) == 21
    coupon = next(item["id"] for item in daemon.ctl_json("list", "--all")["items"] if item["title"] == "Shown once")
    assert fired_once_and_settled(daemon, coupon) == 1
    # The pop-up left on screen is taken back: closed, and shown again once (history `reshown`).
    wait_for(lambda: len(server.notifications()) == 2, what="the pop-up shown again")
    assert server.notifications()[1][0] == server.notifications()[0][0]
    wait_for(lambda: re.findall(r" CloseNotification (\d+)", server.log.read_text()) == ["1"], what="the old one closed")


def test_socket_activation(server, bus, tmp_path):
    daemon = Daemon(tmp_path, bus)
    environment = [arg for key in ("DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "TZ", "NOTIFY_SOCKET")
                   for arg in ("-E", f"{key}={daemon.env[key]}")]
    daemon.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    daemon.notify.bind(str(daemon.notify_path))
    activator = subprocess.Popen(["systemd-socket-activate", "-l", str(daemon.socket_path), *environment, str(BIN / "reminderd")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(daemon.socket_path.exists, what="the activation socket")
        status = daemon.ctl_json("status")["status"]
        assert status["items"] == 0
        daemon.wait_for_message("READY=1")
    finally:
        activator.terminate()
        activator.wait(10)
        daemon.stop()


def raw_call(path, payload, read=True):
    client = socket.socket(socket.AF_UNIX)
    client.settimeout(5)
    client.connect(str(path))
    client.sendall(payload)
    if not read:
        return client
    data = b""
    try:
        while not data.endswith(b"\0"):
            chunk = client.recv(65536)
            if not chunk:
                break
            data += chunk
    except (ConnectionResetError, BrokenPipeError):
        pass
    client.close()
    return json.loads(data[:-1]) if data.endswith(b"\0") else None


def test_bad_requests_get_the_error_naming_them_and_the_next_client_is_served(server, daemon):
    daemon.start()
    malformed = raw_call(daemon.socket_path, b"this is not json\0")
    assert malformed["error"] == "org.varlink.service.InvalidParameter", malformed
    unknown = raw_call(daemon.socket_path, json.dumps({"method": "io.reminderd.Reminders.Frobnicate"}).encode() + b"\0")
    assert unknown["error"] == "org.varlink.service.MethodNotFound"
    other = raw_call(daemon.socket_path, json.dumps({"method": "com.example.Nothing.Here"}).encode() + b"\0")
    assert other["error"] == "org.varlink.service.InterfaceNotFound"
    bad_parameter = raw_call(daemon.socket_path, json.dumps({"method": "io.reminderd.Reminders.Get", "parameters": {"id": 5}}).encode() + b"\0")
    assert bad_parameter["error"] == "io.reminderd.Reminders.InvalidParameter"
    client = raw_call(daemon.socket_path, b"{" + b" " * (1024 * 1024 + 10), read=False)
    client.settimeout(5)
    reply = b""
    try:
        while chunk := client.recv(65536):  # an error naming the limit, then the end of the replies
            reply += chunk
    except ConnectionResetError:  # the request's unread tail resets the socket once the reply is read
        pass
    client.close()
    assert json.loads(reply.rstrip(b"\0"))["error"] == "io.reminderd.Reminders.RequestTooLarge", reply
    silent = raw_call(daemon.socket_path, b"", read=False)  # a client that never says anything
    assert daemon.ctl_json("status")["status"]["items"] == 0
    silent.close()


def test_no_server_then_one_appears_the_reminder_goes_out_exactly_once(bus, daemon, tmp_path):
    daemon.start()
    item_id = daemon.ctl_json("add", "coupon", "Waiting", "--expires", local_in(64), "--lead", "1m")["id"]
    wait_for(lambda: daemon.ctl_json("status")["status"]["waiting"] == 1, timeout=15, what="the reminder waiting")
    server = NotificationServer(bus, tmp_path / "late.log")
    try:
        wait_for(server.notifications, timeout=10, what="the waiting pop-up")
        assert fired_once_and_settled(daemon, item_id) == 1
        assert [plain(n[0]) for n in server.notifications()] == ["Waiting"]
    finally:
        server.stop()


def test_sighup_with_a_broken_config_keeps_the_old_one_and_sigterm_exits_cleanly(server, daemon):
    daemon.start()
    daemon.config_path.write_text('{"reminderTime": "25:00"}')
    daemon.messages.clear()
    daemon.process.send_signal(signal.SIGHUP)
    daemon.wait_for_message("RELOADING=1")
    daemon.wait_for_message("READY=1")
    assert daemon.process.poll() is None
    reload = daemon.ctl("reload", check=False)
    assert reload.returncode == 1 and "reminderTime" in reload.stderr and "25:00" in reload.stderr
    assert daemon.ctl_json("status")["status"]["items"] == 0
    assert daemon.kill(signal.SIGTERM) == 0
    daemon.wait_for_message("STOPPING=1")


def test_reminderctl_exit_codes(server, daemon):
    unreachable = daemon.ctl("status", check=False)
    # A checkout's build names the checkout's run script (StartHint).
    checkout = str(BIN.resolve()).split("/.build")[0]
    assert unreachable.returncode == 69 and f"hint: start it: cd {checkout} && scripts/run.sh" in unreachable.stderr
    daemon.start()
    refused = daemon.ctl("add", "coupon", "Bad", "--expires", "2026-02-30", check=False)
    assert refused.returncode == 1 and refused.stderr.strip() == 'reminderctl: expires: "2026-02-30": February 2026 has 28 days'
    assert daemon.ctl("show", "zzzz", check=False).returncode == 1
    assert daemon.ctl("add", check=False).returncode == 2
    first = daemon.ctl_json("add", "fee", "Fee", "--due", "2027-03-01")["id"]
    assert daemon.ctl_json("show", first[:2])["item"]["id"] == first


def test_the_stock_python_varlink_client_calls_through_the_interface_proxy(server, daemon):
    varlink = pytest.importorskip("varlink")
    daemon.start()
    with varlink.Client(address=f"unix:{daemon.socket_path}") as client:
        with client.open("io.reminderd.Reminders") as remote:
            added = remote.Add({"kind": "fee", "title": "Annual fee", "due": "2027-03-01", "amount": "695"})
            assert remote.Get(added["id"])["item"]["title"] == "Annual fee"
            assert remote.Status()["status"]["items"] == 1
            assert len(remote.Export()["items"]) == 1


def test_watchdog_pings_come_from_the_daemon_when_asked_for(server, daemon):
    daemon.env["WATCHDOG_USEC"] = "400000"
    daemon.start()
    daemon.messages.clear()
    daemon.wait_for_message("WATCHDOG=1", timeout=3)


def test_a_bad_config_at_start_is_refused_with_its_key_path(server, daemon):
    daemon.write_config({"leadTimes": ["7d", "soon"]})
    daemon.start(wait=False)
    assert daemon.process.wait(10) == 1
    log = (daemon.tmp / "daemon.log").read_text()
    assert 'leadTimes[1]: "soon"' in log


def test_many_concurrent_clients_are_all_served(server, daemon):
    daemon.start()
    results = []

    def client(n):
        results.append(daemon.ctl("add", "fee", f"Fee {n}", "--due", "2027-03-01").returncode)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(24)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [0] * 24
    assert len(daemon.ctl_json("list")["items"]) == 24


def test_a_reminder_due_while_the_daemon_was_stopped_fires_once_late(server, daemon):
    daemon.start()
    item_id = daemon.ctl_json("add", "coupon", "Missed", "--expires", local_in(72), "--lead", "1m")["id"]
    assert daemon.kill(signal.SIGTERM) == 0
    time.sleep(14)  # the reminder's time passes while the daemon is stopped
    assert server.notifications() == []
    daemon.stop()
    daemon.start()
    shown = wait_for(server.notifications, timeout=10, what="the late pop-up")
    assert fired_once_and_settled(daemon, item_id) == 1
    assert len(server.notifications()) == 1
    assert "\nLate: reminderd was not running at " in shown[0][1]


def test_an_edit_does_not_fire_reminders_whose_time_already_passed(server, daemon, tmp_path):
    daemon.start()
    # Created three days ago and expiring tomorrow: after the edit its 2d reminder (yesterday) is a
    # reminder of this item whose time passed while the daemon ran — the edit must not show it.
    created = (datetime.now(timezone.utc) - timedelta(days=3)).strftime("%Y-%m-%dT%H:%M:%SZ")
    items = tmp_path / "items.json"
    items.write_text(json.dumps([{"kind": "coupon", "title": "Later", "expires": local_in(86400), "lead": ["1h"],
                                  "createdAt": created}]))
    item_id = daemon.ctl_json("import", str(items))["ids"][0]
    daemon.ctl("edit", item_id, "--lead", "2d,1m")
    two_days = next(s for s in daemon.ctl_json("explain", item_id)["steps"] if s["lead"] == "2d")
    # explain says so: passed over by the edit, not "kept" (issue 22: explain gives the real reason).
    assert two_days["result"] == "dropped: its time had passed when the item or the settings changed"
    assert datetime.fromisoformat(two_days["fireAt"]) < datetime.now(timezone.utc)
    # A marker due in seconds: once it is shown, anything the edit had put on the wheel for "now"
    # would have been shown before it.
    marker = daemon.ctl_json("add", "coupon", "Marker", "--expires", local_in(63), "--lead", "1m")["id"]
    assert fired_once_and_settled(daemon, marker) == 1
    assert [plain(n[0]) for n in server.notifications()] == ["Marker"]
    assert "fired" not in [e["event"] for e in daemon.ctl_json("history", "--item", item_id)["entries"]]


def test_the_units_verify_and_are_hardened(tmp_path):
    units = tmp_path / "units"
    units.mkdir()
    for name in ("reminderd.service", "reminderd.socket"):
        text = (Path(__file__).resolve().parents[2] / "systemd" / name).read_text()
        (units / name).write_text(text.replace("/usr/bin/reminderd", str(BIN / "reminderd")))
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime))
    verify = subprocess.run(["systemd-analyze", "verify", "--user", str(units / "reminderd.socket"), str(units / "reminderd.service")],
                            env=env, capture_output=True, text=True)
    assert verify.returncode == 0, verify.stderr
    security = subprocess.run(["systemd-analyze", "security", "--offline=true", "--user", str(units / "reminderd.service")],
                              env=env, capture_output=True, text=True)
    exposure = float(security.stdout.split("Overall exposure level for reminderd.service:")[1].split()[0])
    assert exposure <= 2.0, security.stdout[-400:]


def test_a_partial_use_is_told_against_this_periods_own_amount(server, daemon):
    """A credit whose amount differs by month (`--amount-in`) is recorded against this period's
    amount: every month's is $35 here, so whatever month the test runs in, $5 leaves $30."""
    daemon.start()
    months = [arg for month in range(1, 13) for arg in ("--amount-in", f"{month}=35")]
    item_id = daemon.ctl_json("add", "benefit", "Uber Cash", "--amount", "15", "--period", "monthly", *months)["id"]
    partial = daemon.ctl("done", item_id, "--amount", "5")
    assert partial.stdout.strip() == "Recorded $5 of $35 Uber Cash used; reminders go on for the remaining $30"


def test_history_filters_by_item_and_time(server, daemon):
    daemon.start()
    first = daemon.ctl_json("add", "fee", "First", "--due", "2027-03-01")["id"]
    daemon.ctl("add", "fee", "Second", "--due", "2027-04-01")
    assert [e["title"] for e in daemon.ctl_json("history", "--item", first[:3])["entries"]] == ["First"]
    assert len(daemon.ctl_json("history", "--since", "2000-01-01")["entries"]) == 2
    assert daemon.ctl_json("history", "--since", "2199-01-01T00:00:00Z")["entries"] == []
    bad = daemon.ctl("history", "--since", "last week", check=False)
    assert bad.returncode == 2 and "--since \"last week\" is not a date" in bad.stderr  # as every date option


def test_partial_use_of_a_benefit_is_recorded_and_reminders_go_on(server, daemon):
    daemon.start()
    item_id = daemon.ctl_json("add", "benefit", "Uber Cash", "--amount", "15", "--period", "monthly")["id"]
    partial = daemon.ctl("done", item_id, "--amount", "7.50")
    assert partial.stdout.strip() == "Recorded $7.50 of $15 Uber Cash used; reminders go on for the remaining $7.50"
    item = daemon.ctl_json("show", item_id)["item"]
    assert item["amountUsed"] == "7.50" and item["status"] != "used"
    assert daemon.ctl("done", item_id, "--amount", "7.50").stdout.startswith(
            "Recorded $7.50, all that was left of $15: Uber Cash is used")


def test_a_partial_use_ends_with_its_month(server, daemon):
    """$5 of a $15 monthly credit used in January 2030 (a shifted clock): in February the credit is
    whole again in `show`, `wallet` and `summary`, and a new `done --amount 5` records $5, not $10."""
    def shift_to(*when):
        target = datetime(*when, tzinfo=timezone.utc).timestamp()
        daemon.env["REMINDERD_TEST_CLOCK_SHIFT"] = str(round(target - (time.time() - CLOCK_SHIFT)))

    shift_to(2030, 1, 20, 12, 0)
    daemon.start()
    item_id = daemon.ctl_json("add", "benefit", "Ride credit", "--card", "Month Card", "--amount", "15",
                              "--period", "monthly")["id"]
    assert daemon.ctl_json("done", item_id, "--amount", "5")["item"]["amountUsed"] == "5"
    daemon.stop()
    shift_to(2030, 2, 10, 12, 0)
    daemon.start()
    item = daemon.ctl_json("show", item_id)["item"]
    assert item["createdAt"].startswith("2030-01-20") and item["due"].startswith("2030-02-28")
    assert "amountUsed" not in item
    cards = daemon.ctl_json("wallet")["cards"]
    assert [(c["card"], c["available"]) for c in cards] == [("Month Card", "15")]
    assert daemon.ctl_json("summary")["summary"]["benefits"]["available"] == "15"
    again = daemon.ctl("done", item_id, "--amount", "5")
    assert again.stdout.strip() == "Recorded $5 of $15 Ride credit used; reminders go on for the remaining $10"


def test_a_client_of_another_user_is_refused_and_logged(server, daemon):
    import shutil
    if os.getuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to act as another user")
    import tempfile
    public = tempfile.mkdtemp(prefix="reminderd-peer-")
    os.chmod(public, 0o755)
    daemon.socket_path = Path(public) / "reminderd.sock"
    daemon.env["REMINDERD_SOCKET"] = str(daemon.socket_path)
    daemon.start()
    os.chmod(daemon.socket_path, 0o666)  # let the file through, so SO_PEERCRED is what refuses
    probe = ("import socket, json, sys\n"
             "s = socket.socket(socket.AF_UNIX); s.settimeout(5); s.connect(sys.argv[1])\n"
             "s.sendall(json.dumps({'method': 'io.reminderd.Reminders.Status'}).encode() + b'\\0')\n"
             "print(repr(s.recv(100)))\n")
    result = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", probe,
                             str(daemon.socket_path)], capture_output=True, text=True, timeout=20)
    assert result.stdout.strip() in ("b''", "") or "Connection reset" in result.stderr, result
    assert "refused a client of another user" in (daemon.tmp / "daemon.log").read_text()
    assert daemon.ctl_json("status")["status"]["items"] == 0  # the owner is still served


def test_the_desktops_do_not_disturb_holds_reminders_but_not_those_due_today(server, daemon):
    server.gdbus("org.freedesktop.DBus.Mock.AddProperty", "org.freedesktop.Notifications", "Inhibited", "<true>")
    daemon.start()
    daemon.ctl("add", "coupon", "Later deal", "--expires", local_in(2 * 86400 + 8), "--lead", "48h")
    daemon.ctl("add", "coupon", "Today deal", "--expires", local_in(68), "--lead", "1m")
    wait_for(lambda: any(e["event"] == "held" for e in daemon.ctl_json("history")["entries"]), timeout=20, what="the held reminder")
    wait_for(server.notifications, timeout=15, what="the critical pop-up")
    assert [plain(n[0]) for n in server.notifications()] == ["Today deal"]
    assert "Today deal" in server.notifications()[0][1]
    server.gdbus("org.freedesktop.DBus.Properties.Set", "org.freedesktop.Notifications", "Inhibited", "<false>")
    wait_for(lambda: len(server.notifications()) == 2, timeout=10, what="the held pop-up after do-not-disturb ended")
    assert "Later deal" in server.notifications()[1][1]


def test_a_server_without_buttons_or_markup_gets_the_command_in_plain_text(bus, daemon, tmp_path):
    bare = NotificationServer(bus, tmp_path / "plain.log", capabilities="body")
    try:
        daemon.start()
        item_id = daemon.ctl_json("add", "coupon", "Fish & Chips <2>", "--expires", local_in(64), "--lead", "1m")["id"]
        summary, body, line = wait_for(bare.notifications, timeout=15, what="the pop-up")[0]
        assert plain(body).startswith("Coupon Expiring · Fish & Chips <2> expires in 1 min")  # no markup: not escaped
        log = bare.log.read_text()  # the body's second line is on the log's next line
        assert f"expires in 1 min\nreminderctl done {item_id}" in log
        assert '" [] {' in log and '"resident"' not in log  # no buttons, no persistence
    finally:
        bare.stop()


@pytest.mark.parametrize("payload, error", [
    (b"\xff\xfe not utf-8 \xc3\x28\0", "org.varlink.service.InvalidParameter"),
    (b'{"method": "io.reminderd.Reminders.Add", "parameters": {"item": {"kind": "fee", "ti\0tle": "x"}}}\0', "org.varlink.service.InvalidParameter"),
    (b'{"method": "io.reminderd.Reminders.Status", "parameters": ' + b"[" * 100000 + b"]" * 100000 + b"}\0", "org.varlink.service.InvalidParameter"),
    (b'{"method": "io.reminderd.Reminders.Add", "parameters": {"item": {"kind": "rebuy", "title": "x", "everyDays": 1e400, "lastPurchased": "2026-01-01"}}}\0', "org.varlink.service.InvalidParameter"),
    (b'{"method": "io.reminderd.Reminders.Add", "parameters": {"item": {"kind": "rebuy", "title": "x", "everyDays": 99999999999999999999999, "lastPurchased": "2026-01-01"}}}\0', "io.reminderd.Reminders.InvalidItem"),
    (b'{"method": "io.reminderd.Reminders.Snooze", "parameters": {"id": "zz", "duration": "-5m"}}\0', "io.reminderd.Reminders.NoSuchItem"),
    (b'{"method": "io.reminderd.Reminders.Add", "parameters": {"item": {"kind": "coupon", "title": "x", "expires": "2026-02-30"}}}\0', "io.reminderd.Reminders.InvalidItem"),
    (b'{"method": 12}\0', "org.varlink.service.InvalidParameter"),
    (b'[]\0', "org.varlink.service.InvalidParameter"),
    (b'\0', "org.varlink.service.InvalidParameter"),
], ids=["invalid-utf8", "nul-inside-json", "deeply-nested", "huge-float", "huge-integer", "negative-duration",
        "impossible-date", "method-not-a-string", "not-an-object", "empty"])
def test_bad_input_gets_the_error_naming_it_and_the_daemon_carries_on(server, daemon, payload, error):
    daemon.start()
    reply = raw_call(daemon.socket_path, payload)
    assert reply["error"] == error, reply
    assert daemon.process.poll() is None
    assert daemon.ctl_json("status")["status"]["items"] == 0


def test_a_hundred_megabytes_without_a_terminator_is_cut_off(server, daemon):
    daemon.start()
    client = socket.socket(socket.AF_UNIX)
    client.connect(str(daemon.socket_path))
    sent = 0
    try:
        chunk = b"x" * (1 << 20)
        while sent < 100 * (1 << 20):
            client.sendall(chunk)
            sent += len(chunk)
    except (BrokenPipeError, ConnectionResetError):
        pass
    finally:
        client.close()
    assert sent < 100 * (1 << 20)  # the daemon hung up long before
    assert daemon.ctl_json("status")["status"]["items"] == 0


def test_a_new_notification_server_gets_the_open_pop_ups_once_and_its_own_ids(bus, daemon, tmp_path):
    first = NotificationServer(bus, tmp_path / "first.log")
    daemon.start()
    item_id = daemon.ctl_json("add", "coupon", "Churn deal", "--expires", local_in(3606), "--lead", "1h")["id"]
    wait_for(first.notifications, timeout=15, what="the pop-up on the first server")
    daemon.ctl("add", "fee", "Quiet fee", "--due", "2027-06-01")
    first.stop()
    second = NotificationServer(bus, tmp_path / "second.log")
    try:
        shown = wait_for(second.notifications, timeout=10, what="the pop-up again on the second server")
        assert fired_once_and_settled(daemon, item_id, event="reshown") == 1
        assert [plain(n[0]) for n in second.notifications()] == ["Churn deal"]
        second.invoke(1, "done")  # the new server numbers from 1 again
        wait_for(lambda: daemon.ctl_json("show", item_id)["item"]["status"] == "used", what="Done from the new server")
        assert plain(shown[0][0]) == "Churn deal"
    finally:
        second.stop()


def answer_notify(server, code):
    """Replaces dbusmock's Notify with `code` (Python run for each call; `ret` is the id)."""
    server.gdbus("org.freedesktop.DBus.Mock.AddMethod", "org.freedesktop.Notifications", "Notify", "susssasa{sv}i", "u", code)


def test_a_refused_pop_up_is_retried_with_back_off(server, daemon):
    answer_notify(server, "raise dbus.exceptions.DBusException('too many pop-ups', name='org.freedesktop.DBus.Error.LimitsExceeded')")
    daemon.start()
    daemon.ctl("add", "coupon", "Retry deal", "--expires", local_in(64), "--lead", "1m")
    wait_for(server.notifications, timeout=15, what="the refused Notify call")
    assert not any(e["event"] == "fired" for e in daemon.ctl_json("history")["entries"])
    assert daemon.ctl_json("status")["status"]["waiting"] == 1
    answer_notify(server, "ret = 42")
    wait_for(lambda: any(e["event"] == "fired" for e in daemon.ctl_json("history")["entries"]), timeout=20, what="the retry")
    assert len(server.notifications()) == 2


def test_a_change_of_the_system_time_zone_recomputes_fire_times(server, bus, tmp_path):
    zones = tmp_path / "etc"
    zones.mkdir()
    link = zones / "localtime"
    link.symlink_to("/usr/share/zoneinfo/America/New_York")
    daemon = Daemon(tmp_path, bus, {"quietHours": None})
    daemon.env.pop("TZ")
    daemon.env["REMINDERD_LOCALTIME"] = str(link)
    daemon.start()
    try:
        item_id = daemon.ctl_json("add", "fee", "Fee", "--due", "2027-06-01", "--lead", "1d")["id"]
        assert daemon.ctl_json("status")["status"]["timeZone"] == "America/New_York"
        assert daemon.ctl_json("show", item_id)["item"]["nextReminder"] == "2027-05-31T09:00:00-04:00"
        replacement = zones / "localtime.new"
        replacement.symlink_to("/usr/share/zoneinfo/Europe/Berlin")
        os.replace(replacement, link)  # as timedatectl does
        wait_for(lambda: daemon.ctl_json("status")["status"]["timeZone"] == "Europe/Berlin", what="the new zone")
        assert daemon.ctl_json("show", item_id)["item"]["nextReminder"] == "2027-05-31T09:00:00+02:00"
    finally:
        daemon.stop()


def test_gnomes_show_banners_off_holds_reminders_until_it_is_back_on(server, daemon, tmp_path):
    # GSettings' keyfile backend is shared through a file that GLib watches, so `gsettings set`
    # from this process reaches the running daemon as GNOME's settings daemon would.
    settings = dict(os.environ, GSETTINGS_BACKEND="keyfile", XDG_CONFIG_HOME=str(tmp_path / "config"))
    daemon.env.update(GSETTINGS_BACKEND="keyfile", XDG_CONFIG_HOME=settings["XDG_CONFIG_HOME"])
    gsettings = lambda *args: subprocess.run(["gsettings", *args], env=settings, check=True, capture_output=True, text=True)
    gsettings("set", "org.gnome.desktop.notifications", "show-banners", "false")
    daemon.start()
    daemon.ctl("add", "coupon", "Later deal", "--expires", local_in(2 * 86400 + 8), "--lead", "48h")
    wait_for(lambda: any(e["event"] == "held" for e in daemon.ctl_json("history")["entries"]), timeout=20, what="the held reminder")
    assert server.notifications() == []
    gsettings("set", "org.gnome.desktop.notifications", "show-banners", "true")
    wait_for(server.notifications, timeout=15, what="the held pop-up after banners came back")
    assert "Later deal" in server.notifications()[0][1]


def test_after_a_freeze_like_suspend_the_due_reminder_fires_within_a_second_of_resuming(server, daemon):
    # SIGSTOP freezes the daemon as suspend does (its timers run on); SIGCONT is the resume.
    daemon.start()
    item_id = daemon.ctl_json("add", "coupon", "Frozen deal", "--expires", local_in(64), "--lead", "1m")["id"]
    daemon.process.send_signal(signal.SIGSTOP)
    try:
        time.sleep(8)  # the reminder came due 4 s ago
        assert server.notifications() == []
    finally:
        daemon.process.send_signal(signal.SIGCONT)
    resumed = time.monotonic()
    wait_for(server.notifications, timeout=5, interval=0.02, what="the pop-up after resuming")
    assert time.monotonic() - resumed < 1.0
    assert fired_once_and_settled(daemon, item_id) == 1
    assert len(server.notifications()) == 1
