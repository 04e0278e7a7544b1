"""reminderd-sync's wake-ups on the real daemon and a real socket: a parked SyncWait is answered
"changed" after `reminderctl add` (not at once: 2 s after the change), a call after it on its
connection waits behind it, SyncStatus says connected while it is parked, SyncNow is answered by
the next SyncReport or fails in words when no reminderd-sync waits (also once the waiting
connection closed), a due reminder asks for a refresh and is shown within 2 s without a pull,
and a daemon with a parked SyncWait and nothing changing does not wake up."""
import json
import os
import socket
import time

import bench_daemon
from conftest import fired_once_and_settled, local_in, wait_for

METHOD = "io.reminderd.Reminders."
NOT_RUNNING = "reminderd-sync is not running (start it: systemctl --user enable --now reminderd-sync)"
# The reason, and beside it the template a client translates it from (docs/CONTRACT.md, the interface's errors).
NOT_RUNNING_REPLY = {"reason": NOT_RUNNING, "reasonTemplate": {"format": NOT_RUNNING, "arguments": []}}


class Connection:
    """A varlink connection whose replies are read when they come, not when asked for."""

    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX)
        self.socket.connect(str(path))
        self.buffer = b""

    def send(self, method, **parameters):
        self.socket.sendall(json.dumps({"method": METHOD + method, "parameters": parameters}).encode() + b"\0")

    def ready(self):
        """The next reply if it came, else None (without waiting)."""
        self.socket.setblocking(False)
        try:
            while b"\0" not in self.buffer:
                chunk = self.socket.recv(1 << 16)
                if not chunk:
                    raise ConnectionError("the daemon closed the connection")
                self.buffer += chunk
        except BlockingIOError:
            return None
        finally:
            self.socket.setblocking(True)
        message, _, self.buffer = self.buffer.partition(b"\0")
        return json.loads(message)

    def receive(self, timeout=10, what="a reply"):
        return wait_for(self.ready, timeout=timeout, what=what)

    def close(self):
        self.socket.close()


def read_up_to_here(daemon):
    """Returns once the daemon read every call sent so far on connections already open: a call on
    a new connection is accepted, and its data read, after theirs."""
    probe = Connection(daemon.socket_path)
    probe.send("Status")
    assert "status" in probe.receive()["parameters"]
    probe.close()


def connected(daemon):
    """SyncStatus's word: a reminderd-sync waits for work."""
    probe = Connection(daemon.socket_path)
    probe.send("SyncStatus")
    reply = probe.receive()
    probe.close()
    return reply["parameters"]["sync"]["connected"]


def descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def test_a_parked_wait_is_answered_changed_after_an_add_and_calls_behind_it_wait(daemon):
    daemon.start()
    waiter = Connection(daemon.socket_path)
    waiter.send("SyncWait")
    waiter.send("Status")  # answered only after the SyncWait before it
    read_up_to_here(daemon)
    assert waiter.ready() is None
    before = time.monotonic()
    daemon.ctl("add", "coupon", "Deal", "--expires", "2030-06-30")
    wait = waiter.receive(what="SyncWait's answer")
    assert wait == {"parameters": {"reason": "changed", "uids": []}}
    assert time.monotonic() - before >= 1.0  # told once the change settled, not at once
    assert "status" in waiter.receive(what="the Status behind it")["parameters"]
    waiter.close()


def test_sync_now_fails_in_words_without_a_waiter_and_is_answered_by_the_report_with_one(daemon):
    daemon.start()
    asker = Connection(daemon.socket_path)
    asker.send("SyncNow")
    assert asker.receive() == {"error": METHOD + "SyncFailed", "parameters": NOT_RUNNING_REPLY}

    assert not connected(daemon)
    waiter = Connection(daemon.socket_path)
    waiter.send("SyncWait")
    read_up_to_here(daemon)
    assert connected(daemon)
    asker.send("SyncNow")
    assert waiter.receive(what="the waiter told now") == {"parameters": {"reason": "now", "uids": []}}
    assert asker.ready() is None
    reporter = Connection(daemon.socket_path)
    reporter.send("SyncReport", error="PUT https://dav.example/alice/tasks/x.ics: 507 Insufficient Storage")
    assert reporter.receive() == {"parameters": {}}
    assert asker.receive(what="SyncNow's answer") == {
        "error": METHOD + "SyncFailed",
        "parameters": {"reason": "PUT https://dav.example/alice/tasks/x.ics: 507 Insufficient Storage"}}

    # The waiter waits again, then goes away: its parked call is forgotten.
    waiter.send("SyncWait")
    read_up_to_here(daemon)
    with_waiter = descriptors(daemon.process.pid)
    waiter.close()
    wait_for(lambda: descriptors(daemon.process.pid) < with_waiter, what="the daemon to close the waiter's connection")
    assert not connected(daemon)
    asker.send("SyncNow")
    assert asker.receive() == {"error": METHOD + "SyncFailed", "parameters": NOT_RUNNING_REPLY}
    asker.close()
    reporter.close()


def test_a_due_reminder_asks_the_waiting_sync_to_refresh_and_is_shown_within_two_seconds(server, daemon):
    daemon.start()
    item_id = daemon.ctl_json("add", "coupon", "Tacos", "--expires", local_in(66), "--lead", "1m")["id"]
    waiter = Connection(daemon.socket_path)
    waiter.send("SyncWait")
    assert waiter.receive(what="the add told")["parameters"]["reason"] == "changed"
    waiter.send("SyncWait")
    refresh = waiter.receive(timeout=15, what="the refresh before the pop-up")["parameters"]
    told = time.monotonic()
    assert refresh["reason"] == "refresh"
    assert len(refresh["uids"]) == 1 and refresh["uids"][0].endswith("@reminderd")
    assert server.notifications() == []  # held for the pull (no reminderd-sync here sends one)
    wait_for(server.notifications, timeout=5, what="the pop-up once the refresh's 2 s are over")
    assert time.monotonic() - told <= 3
    assert fired_once_and_settled(daemon, item_id) == 1
    waiter.close()


def test_a_parked_wait_with_nothing_changing_wakes_the_daemon_not_once(daemon):
    daemon.start()
    daemon.ctl("add", "coupon", "Deal", "--expires", "2030-06-30")
    waiter = Connection(daemon.socket_path)
    waiter.send("SyncWait")
    assert waiter.receive(what="the add told") == {"parameters": {"reason": "changed", "uids": []}}
    waiter.send("SyncWait")
    time.sleep(3)  # past start-up's one-off work, as the benchmark waits
    assert waiter.ready() is None
    assert bench_daemon.idle_switches(daemon.process.pid, 10) == 0
    assert waiter.ready() is None
    waiter.close()
