"""The reminderd-sync process: its loop, signals, readiness, idleness and unit, against a real
Radicale. reminderd is played here by a small varlink server that records the Sync… calls and
answers SyncWait when the test says, so the loop can be driven and watched without the engine's
sync (the end-to-end tests with real reminderd instances are in test_sync_e2e… files)."""
import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from conftest import BIN, ROOT, wait_for
from test_sync_setup import PASSWORD, USER, free_port, radicale  # noqa: F401 (radicale: a fixture)

INTERFACE = "io.reminderd.Reminders."
# What `Calendar` answers: one coupon, as `reminderctl export --ics` writes it.
EXPORT = "\r\n".join(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//reminderd//reminderctl export//EN", "METHOD:PUBLISH",
                       "BEGIN:VEVENT", "UID:3eec@reminderd", "DTSTAMP:20261122T120000Z", "DTSTART:20270131T235900",
                       "SUMMARY:Pizza expires", "END:VEVENT", "END:VCALENDAR", ""])


class FakeReminderd:
    """A varlink server on a Unix socket: each connection on its own thread, NUL-framed JSON.
    SyncWait is parked until `wake`; the other Sync… calls get the plainest good answers."""

    def __init__(self, path, refuse_wait=False):
        self.path = path
        self.refuse_wait = refuse_wait
        self.calls = []
        self.parked = []
        self.lock = threading.Condition()
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(str(path))
        self.listener.listen()
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.serve, args=(connection,), daemon=True).start()

    def serve(self, connection):
        buffer = b""
        while True:
            try:
                chunk = connection.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            while b"\0" in buffer:
                message, buffer = buffer.split(b"\0", 1)
                call = json.loads(message)
                method = call["method"].removeprefix(INTERFACE)
                with self.lock:
                    self.calls.append((method, call.get("parameters", {})))
                    self.lock.notify_all()
                    if method == "SyncWait" and not self.refuse_wait:
                        self.parked.append(connection)
                        continue
                if method == "SyncWait":
                    error = {"error": INTERFACE + "SyncFailed", "parameters": {"reason": "SyncWait is not available"}}
                    connection.sendall(json.dumps(error).encode() + b"\0")
                    continue
                reply = {"SyncBegin": {"token": None, "resources": []}, "SyncPulled": {"applied": 0, "conflicts": 0, "skipped": []},
                         "SyncPending": {"changes": []}, "Calendar": {"ics": EXPORT}}.get(method, {})
                connection.sendall(json.dumps({"parameters": reply}).encode() + b"\0")

    def wake(self, reason, uids=()):
        wait_for(lambda: self.parked, what="a parked SyncWait")
        with self.lock:
            connection = self.parked.pop(0)
        connection.sendall(json.dumps({"parameters": {"reason": reason, "uids": list(uids)}}).encode() + b"\0")

    def methods(self):
        with self.lock:
            return [method for method, _ in self.calls]

    def calls_on_the_pass_connection(self):
        return [method for method in self.methods() if method != "SyncWait"]

    def reports(self):
        with self.lock:
            return [parameters.get("error") for method, parameters in self.calls if method == "SyncReport"]

    def close(self):
        """Stops listening (shutdown wakes the accepting thread, which holds the socket open) and removes the path."""
        try:
            self.listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.listener.close()
        self.path.unlink(missing_ok=True)


class SyncProcess:
    """reminderd-sync with a private config and runtime directory, and a NOTIFY_SOCKET to read."""

    def __init__(self, tmp):
        self.tmp = Path(tmp)
        self.tmp.mkdir()
        self.runtime = self.tmp / "run"
        self.runtime.mkdir(mode=0o700)
        self.config = self.tmp / "config.json"
        self.notify_path = self.tmp / "notify.sock"
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(str(self.notify_path))
        self.env = dict(os.environ, XDG_RUNTIME_DIR=str(self.runtime), XDG_CONFIG_HOME=str(self.tmp / "xdg"),
                        NOTIFY_SOCKET=str(self.notify_path))
        self.env.pop("REMINDERD_SOCKET", None)
        self.socket_path = self.runtime / "reminderd.sock"
        self.process = None
        self.messages = []

    def setup_account(self, radicale, calendar="reminderd"):
        secret = self.tmp / "password"
        secret.write_text(PASSWORD + "\n")
        secret.chmod(0o600)
        subprocess.run([str(BIN / "reminderctl"), "sync", "setup", "--url", radicale.url, "--username", USER,
                        "--password-file", str(secret), "--calendar", calendar, "--config", str(self.config)],
                       env=self.env, check=True, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)

    def start(self, *arguments):
        self.log = open(self.tmp / "sync.log", "w")
        self.process = subprocess.Popen([str(BIN / "reminderd-sync"), "--config", str(self.config), *arguments],
                                        env=self.env, stdout=self.log, stderr=self.log)
        return self

    def stderr(self):
        return (self.tmp / "sync.log").read_text()

    def read_messages(self):
        self.notify.settimeout(0.05)
        try:
            while True:
                self.messages.append(self.notify.recv(4096).decode())
        except (socket.timeout, BlockingIOError):
            pass
        return self.messages

    def context_switches(self):
        """All threads' voluntary and involuntary context switches, as scripts/idle-wakeups.sh counts them."""
        total = 0
        for status in Path(f"/proc/{self.process.pid}/task").glob("*/status"):
            for line in status.read_text().splitlines():
                if "ctxt_switches" in line:
                    total += int(line.split()[1])
        return total

    def set_sync(self, **fields):
        """Changes fields of the config's "sync" section that setup wrote."""
        config = json.loads(self.config.read_text())
        config["sync"].update(fields)
        self.config.write_text(json.dumps(config))

    def assert_idle(self, seconds):
        """No context switch at all in `seconds` (idleness is real time passing), once two looks
        0.1 s apart agree that the last reply is done."""
        last = [None]

        def still():
            now = self.context_switches()
            same, last[0] = now == last[0], now
            return same
        wait_for(still, timeout=10, interval=0.1, what="reminderd-sync done with the last reply")
        before = self.context_switches()
        time.sleep(seconds)
        assert self.context_switches() == before

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        self.notify.close()


@pytest.fixture
def sync(tmp_path):
    process = SyncProcess(tmp_path / "sync")
    yield process
    process.stop()


@pytest.fixture
def reminderd(sync):
    fake = FakeReminderd(sync.socket_path)
    yield fake
    fake.close()


def test_without_a_sync_section_it_exits_78_naming_the_file(sync):
    sync.config.write_text(json.dumps({"timeZone": "UTC"}))
    sync.start()
    assert sync.process.wait(10) == 78
    assert sync.stderr() == (f'reminderd-sync: {sync.config} has no "sync" section: no account to sync with; '
                             "set one up with: reminderctl sync setup\n")


def test_a_config_it_cannot_use_is_reported_to_a_reachable_reminderd_before_it_exits_78(sync, reminderd):
    """So `reminderctl sync status` and `sync now` give the reason, not "not running"."""
    sync.config.write_text(json.dumps({"timeZone": "UTC"}))
    sync.start("--check-config")
    assert sync.process.wait(10) == 78 and reminderd.reports() == []
    sync.start()
    assert sync.process.wait(10) == 78
    no_section = (f'{sync.config} has no "sync" section: no account to sync with; '
                  "set one up with: reminderctl sync setup")
    assert reminderd.reports() == [no_section]
    sync.config.write_text(json.dumps({"sync": {"url": "127.0.0.1:5299", "username": USER,
                                                "passwordFile": str(sync.tmp / "password")}}))
    sync.start()
    assert sync.process.wait(10) == 78
    words = sync.stderr().removeprefix("reminderd-sync: ").removesuffix("\n")
    assert "sync.url" in words and reminderd.reports() == [no_section, words]


def test_without_libcurl_it_says_which_library_tells_reminderd_and_exits_78(sync, reminderd):
    """libcurl is loaded when reminderd-sync starts, not linked (it is one executable with the
    daemon, which never syncs over HTTP). Where it is missing — a source install, a forced
    removal — it names the library and why, tells reminderd, and exits 78, which its unit does
    not restart (it exited 1, and systemd restarted it every 30 s, saying nothing to reminderd).
    The library is hidden in a mount namespace of the test's own."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("hiding libcurl takes a mount namespace: needs root and unshare")
    library = next(line.split(" => ")[1] for line in subprocess.run(
        ["ldconfig", "-p"], capture_output=True, text=True, check=True).stdout.splitlines()
        if "libcurl.so.4 " in line and "x86-64" in line)
    secret = sync.tmp / "password"
    secret.write_text(PASSWORD + "\n")
    secret.chmod(0o600)
    sync.config.write_text(json.dumps({"sync": {"url": "http://127.0.0.1:9/", "username": USER,
                                                "passwordFile": str(secret)}}))
    sync.log = open(sync.tmp / "sync.log", "w")
    sync.process = subprocess.Popen(
        ["unshare", "-m", "sh", "-c", 'mount --bind /dev/null "$0" && exec "$@"', library,
         str(BIN / "reminderd-sync"), "--config", str(sync.config)], env=sync.env, stdout=sync.log, stderr=sync.log)
    assert sync.process.wait(10) == 78, sync.stderr()
    words = sync.stderr().removeprefix("reminderd-sync: ").removesuffix("\n")
    assert words.startswith("cannot load libcurl.so.4 (Debian's libcurl4), which the CalDAV client needs: "), words
    assert reminderd.reports() == [words]


def test_a_password_it_cannot_get_is_reported_to_reminderd_and_it_waits(sync, radicale, reminderd):
    sync.setup_account(radicale)
    sync.set_sync(passwordFile=str(sync.tmp / "no-such-file"))
    sync.start()
    wait_for(lambda: reminderd.reports(), what="the SyncReport")
    assert reminderd.reports()[0].startswith("no password: ") and "no-such-file" in reminderd.reports()[0]
    assert sync.process.poll() is None


def test_it_waits_for_reminderd_saying_so_once_then_is_ready_and_syncs(sync, radicale):
    sync.setup_account(radicale)
    sync.start()
    wait_for(lambda: "cannot reach reminderd" in sync.stderr(), what="the complaint about reminderd")
    time.sleep(3.5)  # back-off retries at 1 s and 2 s, unheard
    assert sync.stderr().count("cannot reach reminderd") == 1, sync.stderr()
    assert not any("READY=1" in m for m in sync.read_messages())
    reminderd = FakeReminderd(sync.socket_path)
    try:
        wait_for(lambda: any("READY=1" in m for m in sync.read_messages()), timeout=10, what="READY=1")
        wait_for(lambda: reminderd.reports() == [None], what="the first pass's SyncReport")
        # SyncWait comes on a connection of its own, so it may be recorded before or after SyncBegin.
        assert "SyncWait" in reminderd.methods() and reminderd.calls_on_the_pass_connection()[0] == "SyncBegin"
        assert "connected to reminderd" in sync.stderr()
    finally:
        reminderd.close()


def test_a_second_one_for_the_same_reminderd_exits_75_naming_the_first_and_its_lock(sync, radicale, reminderd):
    sync.setup_account(radicale)
    sync.start()
    wait_for(lambda: reminderd.reports() == [None], what="the first pass")
    lock = sync.runtime / "reminderd.sock.sync.lock"
    for arguments in ([], ["--once"]):
        second = subprocess.run([str(BIN / "reminderd-sync"), "--config", str(sync.config), *arguments], env=sync.env,
                                capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL)
        assert second.returncode == 75
        assert second.stderr == (f"reminderd-sync: another reminderd-sync (PID {sync.process.pid}) already syncs "
                                 f"for the reminderd at {sync.socket_path}: it holds {lock}\n")
    assert sync.process.poll() is None and reminderd.reports() == [None]


def test_triggers_run_passes_a_refresh_pulls_only_and_sigterm_exits_0(sync, radicale, reminderd):
    sync.setup_account(radicale)
    sync.start()
    wait_for(lambda: reminderd.reports() == [None], what="the first pass")
    reminderd.wake("now")
    wait_for(lambda: len(reminderd.reports()) == 2, what="the pass asked for")
    pushes_asked = reminderd.methods().count("SyncPending")
    reminderd.wake("refresh", ["x@reminderd"])
    wait_for(lambda: len(reminderd.reports()) == 3, what="the refresh")
    assert reminderd.methods().count("SyncPending") == pushes_asked
    wait_for(lambda: reminderd.methods().count("SyncWait") == 3, what="SyncWait held open again")
    sync.process.send_signal(signal.SIGTERM)
    assert sync.process.wait(10) == 0
    assert reminderd.reports() == [None, None, None]


def test_idle_it_does_not_wake_up(sync, radicale, reminderd):
    sync.setup_account(radicale)
    sync.start()
    wait_for(lambda: reminderd.reports() == [None], what="the first pass")
    wait_for(lambda: reminderd.methods().count("SyncWait") >= 1, what="SyncWait held open")
    sync.assert_idle(5)



def fill_datagram_socket(path):
    """Sends to the datagram socket at `path` until it takes no more: its queue is full when a
    sender of its own cannot send even one (one sender alone may run out of its send buffer first).
    Returns the senders, which must stay open: what they sent counts against them until read."""
    senders = []
    while True:
        sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sender.setblocking(False)
        senders.append(sender)
        sent = 0
        try:
            while True:
                sender.sendto(b"STATUS=filler", str(path))
                sent += 1
        except BlockingIOError:
            if sent == 0:
                return senders


def test_a_service_manager_that_does_not_read_does_not_keep_it_from_stopping(sync, radicale, reminderd):
    sync.setup_account(radicale)
    senders = fill_datagram_socket(sync.notify_path)
    try:
        sync.start()
        wait_for(lambda: "SyncWait" in reminderd.methods(), what="SyncWait held open")
        wait_for(lambda: reminderd.reports() == [None], what="the first pass, after READY=1")
        sync.process.send_signal(signal.SIGTERM)
        assert sync.process.wait(5) == 0
        # One line says so; the STATUS= after the pass and STOPPING=1 are dropped as quietly.
        assert [line for line in sync.stderr().splitlines() if "not sent" in line] == [
            f"reminderd-sync: READY=1 not sent to {sync.notify_path}: Resource temporarily unavailable "
            "(the service manager is not reading); dropped, as are the next until one is sent"], sync.stderr()
    finally:
        for sender in senders:
            sender.close()


def test_ready_goes_to_an_abstract_notify_socket(sync, radicale, reminderd):
    sync.setup_account(radicale)
    name = f"reminderd-sync-test-{os.getpid()}"
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    abstract.bind("\0" + name)
    sync.notify.close()
    sync.notify = abstract
    sync.env["NOTIFY_SOCKET"] = "@" + name
    sync.start()
    wait_for(lambda: any("READY=1" in m for m in sync.read_messages()), what="READY=1")
    assert "not sent" not in sync.stderr()

def test_a_reminderd_that_refuses_sync_wait_leaves_periodic_passes_without_a_busy_loop(sync, radicale):
    sync.setup_account(radicale)
    reminderd = FakeReminderd(sync.socket_path, refuse_wait=True)
    try:
        sync.start()
        wait_for(lambda: reminderd.reports() == [None], what="the first pass")
        wait_for(lambda: "refused SyncWait" in sync.stderr(), what="the warning")
        sync.assert_idle(2)
        assert reminderd.methods().count("SyncWait") == 1 and sync.stderr().count("refused SyncWait") == 1
    finally:
        reminderd.close()


def test_an_unreachable_server_is_reported_in_words_and_not_retried_in_a_loop(sync, radicale, reminderd, tmp_path):
    sync.setup_account(radicale)
    port = free_port()
    sync.set_sync(url=f"http://127.0.0.1:{port}/")
    sync.start()
    wait_for(lambda: reminderd.reports(), what="the failed pass's SyncReport")
    words = reminderd.reports()[0]
    assert words.startswith(f"cannot reach 127.0.0.1:{port} (") and words.endswith("for PROPFIND /.well-known/caldav; will retry"), words
    # The pass reports before the journal line is written: the line may come a moment later.
    wait_for(lambda: words in sync.stderr(), what="the failure in the journal")
    # Backing off (30 s), it sleeps: no wake-ups, so no loop.
    sync.assert_idle(2)


def test_a_task_list_missing_on_the_server_is_not_created(sync, radicale, reminderd):
    sync.setup_account(radicale)
    sync.set_sync(calendar="elsewhere")
    sync.start()
    wait_for(lambda: reminderd.reports(), what="the failed pass's SyncReport")
    words = reminderd.reports()[0]
    assert words.startswith('the task list "elsewhere" is not on the server (') and \
        words.endswith("/alice/elsewhere/); run reminderctl sync setup"), words
    assert radicale.task_lists() == ["reminderd"]


def test_once_runs_one_pass_and_says_how_it_went(sync, radicale, reminderd):
    sync.setup_account(radicale)
    sync.start("--once")
    assert sync.process.wait(30) == 0
    assert reminderd.reports() == [None] and "SyncWait" not in reminderd.methods()
    reminderd.close()
    sync.start("--once")
    assert sync.process.wait(30) == 69
    assert "cannot reach reminderd" in sync.stderr()


def test_the_unit_verifies_and_is_hardened_but_may_use_the_network(tmp_path):
    units = tmp_path / "units"
    units.mkdir()
    for name in ("reminderd.service", "reminderd.socket", "reminderd-sync.service"):
        text = (ROOT / "systemd" / name).read_text()
        (units / name).write_text(text.replace("/usr/bin/", f"{BIN}/"))
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime))
    unit = str(units / "reminderd-sync.service")
    verify = subprocess.run(["systemd-analyze", "verify", "--user", unit], env=env, capture_output=True, text=True)
    assert verify.returncode == 0, verify.stderr
    security = subprocess.run(["systemd-analyze", "security", "--offline=true", "--user", unit], env=env,
                              capture_output=True, text=True)
    exposure = float(security.stdout.split("Overall exposure level for reminderd-sync.service:")[1].split()[0])
    assert exposure <= 3.0, security.stdout[-400:]
    text = (ROOT / "systemd" / "reminderd-sync.service").read_text()
    assert "PrivateNetwork" not in text and "IPAddressDeny" not in text and "Type=notify" in text
    assert "PrivateNetwork=yes" in (ROOT / "systemd" / "reminderd.service").read_text()


def test_the_event_mirror_follows_a_successful_pass(sync, radicale, reminderd):
    sync.setup_account(radicale)
    sync.set_sync(mirror="reminderd-deadlines")
    sync.start()
    wait_for(lambda: 'mirror "reminderd-deadlines": wrote 1, deleted 0' in sync.stderr(), what="the mirror written")
    assert reminderd.calls_on_the_pass_connection()[:5] == [
        "SyncBegin", "SyncPulled", "SyncPending", "SyncReport", "Calendar"]
    assert radicale.task_lists() == ["reminderd", "reminderd-deadlines"]
    events = list((radicale.collections / "collection-root" / USER / "reminderd-deadlines").glob("*.ics"))
    assert len(events) == 1 and "SUMMARY:Pizza expires" in events[0].read_text()


def test_the_man_page_offers_no_subcommand_it_does_not_have():
    """argument-parser's generator gives every command with subcommands a `help` subcommand: reminderd-sync
    has `setup` (what `reminderctl sync setup` runs) and so `help`, and runs without either."""
    page = (ROOT / "man" / "reminderd-sync.1").read_text()
    assert ".It Em setup" in page and ".It Em help" in page
    for words in (["help"], ["setup", "--help"]):
        assert subprocess.run([str(BIN / "reminderd-sync"), *words], capture_output=True, timeout=10).returncode == 0
    synopsis = page.split(".Sh SYNOPSIS\n")[1].split(".Sh ")[0].splitlines()
    assert synopsis == [".Nm", ".Op Ar subcommand", ".Op Fl -config Ar config", ".Op Fl -once", ".Op Fl -check-config",
                        ".Op Fl -version", ".Op Fl -help"]
