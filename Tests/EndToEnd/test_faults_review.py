"""A stranger's faults against the promises already kept: a digest of held reminders in flight
when the daemon stops, and SIGTERM while a change waits for a slow flush."""
import json
import signal
import socket

from conftest import FaultDaemon, NotificationServer, local_in, wait_for
from test_faults_notify import hang_notify, history

METHOD = "io.reminderd.Reminders."


def test_a_digest_in_flight_to_a_hung_server_when_the_daemon_stops_is_shown_after_restart(bus, daemon, tmp_path):
    hung = NotificationServer(bus, tmp_path / "hung.log")
    try:
        daemon.start()
        daemon.ctl("pause")
        daemon.ctl("add", "coupon", "Deal one", "--expires", local_in(2 * 86400 + 4), "--lead", "48h")
        daemon.ctl("add", "coupon", "Deal two", "--expires", local_in(2 * 86400 + 4), "--lead", "48h")
        wait_for(lambda: len(history(daemon, "held")) == 2, timeout=15, what="both reminders held")
        hang_notify(hung, 60)
        daemon.ctl("resume")  # the digest of both goes to a server that never answers
        wait_for(lambda: any(s == "Reminders" for s, _, _ in hung.notifications()), what="the digest's Notify")
        daemon.kill(signal.SIGTERM)  # a clean stop while the call is in flight
    finally:
        hung.process.kill()
        hung.process.wait(5)
    server = NotificationServer(bus, tmp_path / "new.log")
    try:
        daemon.start()
        # Owed, not lost: each is shown once more (late), or at least reported.
        wait_for(lambda: len(history(daemon, "fired")) == 2, timeout=15, what="both reminders shown after restart")
        bodies = [body for _, body, _ in server.notifications()]
        assert len(bodies) == 2, bodies
        # It was handed to the hung server while reminderd ran: not "reminderd was not running".
        confirmed = "\nLate: reminderd stopped before the notification server confirmed its "
        assert all(confirmed in body for body in bodies), bodies
    finally:
        server.stop()


def test_sigterm_while_a_change_waits_for_a_slow_flush_still_answers_it(bus, tmp_path, fsync_daemon):
    fault, daemon = fsync_daemon
    flushes = fault.calls()
    fault.set(delay_ms=2000)
    client = socket.socket(socket.AF_UNIX)
    client.settimeout(10)
    client.connect(str(daemon.socket_path))
    item = {"kind": "coupon", "title": "Kept", "expires": "2027-06-30"}
    client.sendall(json.dumps({"method": METHOD + "Add", "parameters": {"item": item}}).encode() + b"\0")
    wait_for(lambda: fault.calls() > flushes, what="the flush to start")
    daemon.process.send_signal(signal.SIGTERM)  # the change is stored; its flush is under way
    reply = b""
    while b"\0" not in reply:
        chunk = client.recv(65536)
        assert chunk, "the daemon hung up without answering a change it stored"
        reply += chunk
    answer = json.loads(reply.partition(b"\0")[0])
    assert "error" not in answer, answer
    assert daemon.process.wait(10) == 0
    client.close()
    daemon = FaultDaemon(tmp_path, bus).start()
    try:
        assert [i["title"] for i in daemon.ctl_json("list")["items"]] == ["Kept"]
    finally:
        daemon.stop()


def test_a_client_that_shuts_down_its_sending_side_still_gets_the_reply_to_its_change(fsync_daemon):
    fault, daemon = fsync_daemon
    fault.set(delay_ms=1000)
    client = socket.socket(socket.AF_UNIX)
    client.settimeout(10)
    client.connect(str(daemon.socket_path))
    item = {"kind": "coupon", "title": "Half-closed", "expires": "2027-06-30"}
    client.sendall(json.dumps({"method": METHOD + "Add", "parameters": {"item": item}}).encode() + b"\0")
    client.sendall(json.dumps({"method": METHOD + "Status", "parameters": {}}).encode() + b"\0")
    client.shutdown(socket.SHUT_WR)  # done sending (as `socat` or `nc -N` do), still reading
    received = b""
    while received.count(b"\0") < 2:
        chunk = client.recv(65536)
        assert chunk, f"the daemon hung up without answering; got {received!r}"
        received += chunk
    added, status = [json.loads(m) for m in received.split(b"\0")[:2]]
    assert "error" not in added and "id" in added["parameters"], added
    assert status["parameters"]["status"]["items"] == 1, status
    client.close()


def test_a_done_button_whose_flush_fails_is_not_confirmed_as_done(server, fsync_daemon):
    fault, daemon = fsync_daemon
    daemon.ctl("add", "coupon", "Flushed deal", "--expires", local_in(64), "--lead", "1m")
    wait_for(server.notifications, timeout=15, what="the reminder")
    wait_for(lambda: history(daemon, "fired"), what="the reminder recorded")
    fault.fail_next()  # the flush that should cover the Done fails
    server.invoke(1, "done")
    wait_for(lambda: len(server.notifications()) == 2, what="the answer to the Done button")
    summary, body, _ = server.notifications()[1]
    assert summary != "Done", body
    assert "not confirmed on disk" in body and "fdatasync" in body, body
    assert history(daemon, "done")  # applied, as a client's NotDurable change is
