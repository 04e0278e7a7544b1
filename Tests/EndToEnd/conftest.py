"""Real parts for the end-to-end tests: a private D-Bus session bus, the python3-dbusmock
notification server, a NOTIFY_SOCKET that reads what reminderd tells systemd, and the real
reminderd and reminderctl binaries."""
import contextlib
import json
import os
import signal
import socket
import subprocess
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("REMINDERD_BIN", ROOT / ".build" / "debug"))
SYSTEM_PYTHON = "/usr/bin/python3"  # Debian's, which has python3-dbusmock


def wait_for(predicate, timeout=10.0, interval=0.05, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def fired_once_and_settled(daemon, item_id, event="fired"):
    """Waits until the item's pop-up is recorded in history and nothing more is pending for it
    (no reminder scheduled or waiting for a server), then returns how often history says it was
    shown: with nothing pending, a count of 1 cannot become 2 later."""
    def settled():
        events = [e["event"] for e in daemon.ctl_json("history", "--item", item_id)["entries"]]
        if event not in events:
            return None
        if daemon.ctl_json("show", item_id)["item"]["nextReminder"] is not None:
            return None
        if daemon.ctl_json("status")["status"]["waiting"] != 0:
            return None
        return events
    events = wait_for(settled, timeout=20, what=f"{item_id}'s {event} entry and nothing else pending")
    return events.count(event)


BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


class Bus:
    """A private session bus, gone when the test ends. It activates no services, so a
    notification server is on it only when a test starts one."""

    def __init__(self, directory):
        config = Path(directory) / "bus.conf"
        config.write_text(BUS_CONFIG)
        self.process = subprocess.Popen(
            ["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address=1"], stdout=subprocess.PIPE, text=True
        )
        self.address = self.process.stdout.readline().strip()
        assert self.address, "dbus-daemon printed no address"

    def stop(self):
        self.process.terminate()
        self.process.wait(5)


class NotificationServer:
    """dbusmock's notification_daemon template; its log records every Notify call."""

    def __init__(self, bus, log, capabilities="body actions body-markup persistence"):
        self.bus = bus
        self.log = Path(log)
        self.log.write_text("")
        env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus.address)
        self.process = subprocess.Popen(
            [SYSTEM_PYTHON, "-m", "dbusmock", "--template", "notification_daemon", "-l", str(self.log),
             "-p", json.dumps({"capabilities": capabilities})],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        wait_for(self.is_up, what="the mock notification server")

    def is_up(self):
        result = self.gdbus("org.freedesktop.Notifications.GetServerInformation", check=False)
        return result.returncode == 0

    def gdbus(self, method, *args, check=True):
        env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=self.bus.address)
        return subprocess.run(
            ["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications",
             "--object-path", "/org/freedesktop/Notifications", "--method", method, *args],
            env=env, capture_output=True, text=True, check=check, timeout=10,
        )

    def notifications(self):
        """Every Notify call: (summary, body, raw line)."""
        calls = []
        for line in self.log.read_text().splitlines():
            if " Notify " not in line or " Notify raised:" in line:
                continue
            parts = line.split('"')
            # time Notify "app" replaces_id "icon" "summary" "body" [actions] {hints} timeout
            calls.append((parts[5], parts[7], line))
        return calls

    def invoke(self, notification_id, action):
        self.gdbus("org.freedesktop.DBus.Mock.EmitSignal", "org.freedesktop.Notifications", "ActionInvoked", "us",
                   f"[<uint32 {notification_id}>, <'{action}'>]")

    def stop(self):
        self.process.terminate()
        self.process.wait(5)


class Daemon:
    """reminderd with private XDG directories, a NOTIFY_SOCKET to read, and reminderctl beside it."""

    def __init__(self, tmp, bus, config=None):
        self.tmp = Path(tmp)
        self.runtime = self.tmp / "run"
        self.runtime.mkdir(mode=0o700, exist_ok=True)
        (self.tmp / "config" / "reminderd").mkdir(parents=True, exist_ok=True)
        self.config_path = self.tmp / "config" / "reminderd" / "config.json"
        self.write_config(config if config is not None else {"timeZone": "UTC", "quietHours": None})
        self.socket_path = self.runtime / "reminderd.sock"
        self.notify_path = self.tmp / "notify.sock"
        self.env = dict(
            os.environ, DBUS_SESSION_BUS_ADDRESS=bus.address, XDG_RUNTIME_DIR=str(self.runtime),
            XDG_DATA_HOME=str(self.tmp / "data"), XDG_CONFIG_HOME=str(self.tmp / "config"), TZ="UTC",
            NOTIFY_SOCKET=str(self.notify_path),
        )
        self.env.pop("REMINDERD_SOCKET", None)
        self.notify = None
        self.process = None
        self.messages = []
        self.prefix = []  # a command that execs the daemon (FaultDaemon's prlimit)

    def write_config(self, config):
        self.config_path.write_text(json.dumps(config))

    def start(self, wait=True):
        if self.notify is None:
            if self.notify_path.exists():
                self.notify_path.unlink()
            self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self.notify.bind(str(self.notify_path))
        self.read_messages(timeout=0)
        self.messages = []  # a READY=1 from the last run must not count for this one
        self.log = open(self.tmp / "daemon.log", "a")
        self.process = subprocess.Popen(
            [*self.prefix, str(BIN / "reminderd")], env=self.env, stdout=self.log, stderr=self.log)
        if wait:
            self.wait_for_message("READY=1")
        return self

    def read_messages(self, timeout=0.1):
        self.notify.settimeout(timeout)
        try:
            while True:
                self.messages.append(self.notify.recv(4096).decode())
                self.notify.settimeout(0.01)
        except (socket.timeout, BlockingIOError):
            pass
        return self.messages

    def wait_for_message(self, text, timeout=10):
        return wait_for(lambda: any(text in m for m in self.read_messages()), timeout, what=f"{text!r} on NOTIFY_SOCKET")

    def ctl(self, *args, check=True):
        result = subprocess.run([str(BIN / "reminderctl"), *args], env=self.env, capture_output=True, text=True, timeout=30)
        if check and result.returncode != 0:
            raise AssertionError(f"reminderctl {' '.join(args)} exited {result.returncode}: {result.stderr}")
        return result

    def ctl_json(self, *args):
        return json.loads(self.ctl(*args, "--json").stdout)

    def kill(self, sig=signal.SIGKILL):
        self.process.send_signal(sig)
        return self.process.wait(10)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        if self.notify:
            self.notify.close()
            self.notify = None


def local_in(seconds):
    """A UTC wall-clock time `seconds` from now, as an item's local date-time."""
    return (datetime.now(timezone.utc) + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S")


@pytest.fixture
def bus(tmp_path):
    bus = Bus(tmp_path)
    yield bus
    bus.stop()


@pytest.fixture
def server(bus, tmp_path):
    server = NotificationServer(bus, tmp_path / "notify.log")
    yield server
    server.stop()


@pytest.fixture
def daemon(bus, tmp_path):
    daemon = Daemon(tmp_path, bus)
    yield daemon
    daemon.stop()


class FaultDaemon(Daemon):
    """reminderd with extra environment (an LD_PRELOAD shim) and a command prefix that execs it
    (`prlimit --nofile=64 --`), so the test's PID is the daemon's."""

    def __init__(self, tmp, bus, extra_env=None, prefix=(), config=None):
        super().__init__(tmp, bus, config)
        self.env.update(extra_env or {})
        self.prefix = list(prefix)


class FsyncFault:
    """Tests/EndToEnd/fsync_fault.c compiled, and its control file: slows or fails the daemon's
    fdatasync calls by their process-wide number."""

    def __init__(self, directory):
        directory = Path(directory)
        self.library = directory / "fsync_fault.so"
        subprocess.run(["cc", "-shared", "-fPIC", "-o", str(self.library),
                        str(Path(__file__).with_name("fsync_fault.c")), "-ldl"], check=True)
        self.control = directory / "fsync_fault.control"
        self.control.write_text("")
        self.env = {"LD_PRELOAD": str(self.library), "FSYNC_FAULT_CONTROL": str(self.control)}

    def calls(self):
        """How many fdatasync calls have started."""
        try:
            return int(Path(str(self.control) + ".count").read_text())
        except (FileNotFoundError, ValueError):
            return 0

    def set(self, delay_ms=0, fail=None):
        """Delays every later call by delay_ms; `fail` = (first, last) call numbers to fail."""
        text = f"delay_ms={delay_ms}"
        if fail:
            text += f" fail={fail[0]}-{fail[1]}"
        self.control.write_text(text + "\n")

    def fail_next(self, count=1, delay_ms=0):
        first = self.calls() + 1
        self.set(delay_ms, (first, first + count - 1))


@contextlib.contextmanager
def tmpfs(path, size):
    """A small tmpfs mounted at `path` (to fill it up); the test is skipped where mounting is
    not allowed (not root, no mount namespace)."""
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(path)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs to fill up: {mounted.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


@contextlib.contextmanager
def fill(path):
    """Fills the file system holding `path` until ENOSPC; frees the space afterwards."""
    filler = Path(path) / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for block in (65536, 512, 1):  # then the last partial blocks
            try:
                while True:
                    os.write(fd, b"\0" * block)
            except OSError:
                pass
    finally:
        os.close(fd)
    try:
        yield filler
    finally:
        filler.unlink()


def plain(text):
    """Pop-up text without the bidi isolates (U+2068 … U+2069) reminderd puts around user text."""
    return text.replace("\u2068", "").replace("\u2069", "")


@pytest.fixture
def fsync_daemon(bus, tmp_path):
    """reminderd started with the fdatasync shim, and the shim's control: `(fault, daemon)`."""
    fault = FsyncFault(tmp_path)
    daemon = FaultDaemon(tmp_path, bus, fault.env).start()
    yield fault, daemon
    fault.set()
    daemon.stop()
