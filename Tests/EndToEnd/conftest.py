"""Real parts for the end-to-end tests: a private D-Bus session bus, the python3-dbusmock
notification server, a NOTIFY_SOCKET that reads what reminderd tells systemd, and the real
reminderd and reminderctl binaries."""
import contextlib
import json
import re
import os
import select
import shutil
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
# The programs under test write to pipes, which have no width; pytest-xdist's workers set
# COLUMNS=80 and LINES=24, which reminderctl would obey and truncate its tables to (a test about
# a width sets COLUMNS itself).
for _name in ("COLUMNS", "LINES"):
    os.environ.pop(_name, None)
# The programs speak and write money as their locale says (gettext, LC_MONETARY); the tests read
# today's English text, so every child starts in C.UTF-8 whatever the machine's session says, and
# a test of a language sets LANG itself.
for _name in ("LC_ALL", "LC_MESSAGES", "LC_MONETARY", "LC_NUMERIC", "LC_TIME", "LANGUAGE"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"

# A test-only clock (scripts/e2e-at.sh, REMINDERD_TEST_AT): the suite runs as if the wall clock
# were CLOCK_SHIFT seconds ahead. This process runs under libfaketime (FAKETIME="+Ns"), so its
# datetime.now(), time.time() and date.today() are shifted; reminderd and reminderctl inherit
# REMINDERD_TEST_CLOCK_SHIFT=N and shift their own clocks, timers included (libfaketime would not
# move the kernel timers reminderd's reminders wait on). Every child runs without libfaketime:
# the CalDAV servers, dbusmock and openssl on the real clock, as curl's TLS checks are.
CLOCK_SHIFT = int(os.environ.get("REMINDERD_TEST_CLOCK_SHIFT") or 0)
_FAKETIME = os.environ.get("FAKETIME")
if _FAKETIME is not None or CLOCK_SHIFT:
    if _FAKETIME != f"+{CLOCK_SHIFT}s" or "libfaketime" not in os.environ.get("LD_PRELOAD", ""):
        raise RuntimeError(
            f"REMINDERD_TEST_CLOCK_SHIFT={CLOCK_SHIFT} needs this process under libfaketime with FAKETIME=+"
            f"{CLOCK_SHIFT}s (found FAKETIME={_FAKETIME!r}): run the tests through scripts/e2e-at.sh")
    os.environ["LD_PRELOAD"] = " ".join(
        entry for entry in os.environ["LD_PRELOAD"].replace(":", " ").split() if "libfaketime" not in entry)
    if not os.environ["LD_PRELOAD"]:
        del os.environ["LD_PRELOAD"]

    def _sleep(seconds):
        """time.sleep without clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME), which libfaketime
        0.9.10 refuses with EINVAL under FAKETIME_DONT_FAKE_MONOTONIC=1 (faking the monotonic
        clock instead hangs every lock or event wait with a timeout)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            select.select([], [], [], left)
    time.sleep = _sleep


def real_clock_env(env):
    """`env` without libfaketime's variables, for a program that shifts its own clock."""
    return {name: value for name, value in env.items() if not name.startswith("FAKETIME")}


def shell_env(daemon, shift=CLOCK_SHIFT):
    """The environment of a shell that runs commands as a user types them: reminderctl on PATH,
    and on a shifted clock (the test clock, or `shift` seconds ahead) a `date` on that clock too
    (the README's `date -d '+3 minutes'`), shifted by libfaketime."""
    path = f"{BIN}:{os.environ['PATH']}"
    if shift:
        tools = daemon.tmp / "shifted-date"
        tools.mkdir(exist_ok=True)
        (tools / "date").write_text(f'#!/bin/sh\nexec faketime -f "+{shift}s" /bin/date "$@"\n')
        (tools / "date").chmod(0o755)
        path = f"{tools}:{path}"
    return dict(daemon.env, PATH=path)


def clock_at(daemon, when):
    """Sets the not yet started `daemon`'s clock (and its reminderctl's) to read `when` and returns
    the environment of a shell whose `date` reads the same clock."""
    real_now = time.time() - CLOCK_SHIFT  # this process's clock is shifted too under scripts/e2e-at.sh
    shift = round(when.timestamp() - real_now)
    daemon.env["REMINDERD_TEST_CLOCK_SHIFT"] = str(shift)
    return shell_env(daemon, shift)


def midday_zone():
    """(name, today there) of an `Etc/GMT±N` zone in which it is now 12:xx: a test about "today"
    (a coupon expiring tonight, a fee in 40 days) gives the same answer at any hour of the UTC
    day, and its date stays "today" there for the next eleven hours. Etc/GMT's sign is POSIX's:
    Etc/GMT-3 is three hours east of UTC."""
    now = datetime.now(timezone.utc)
    east = 12 - now.hour  # -11 … +12, all within Etc/GMT's range
    name = "Etc/GMT" if east == 0 else f"Etc/GMT{-east:+d}"
    return name, (now + timedelta(hours=east)).date()


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


def installed_icon(directory):
    """XDG_DATA_DIRS for a notification server, with reminderd's icon and desktop entry in an XDG
    data directory under `directory` where the package puts them (icons/hicolor/scalable/apps,
    icons/hicolor/NxN/apps, applications): a pop-up then shows the icon the daemon names (app_icon
    and desktop-entry "reminderd"), as on an installed system, not the server's missing-icon
    placeholder. Readable by every user (GNOME Shell and mako run as one of their own)."""
    share = Path(directory) / "share"
    icons = [("icons/hicolor/scalable/apps/reminderd.svg", "systemd/reminderd.svg")]
    icons += [(f"icons/hicolor/{n}x{n}/apps/reminderd.png", f"systemd/reminderd-{n}.png") for n in (32, 48, 64)]
    for target, source in [*icons, ("applications/reminderd.desktop", "systemd/reminderd.desktop")]:
        (share / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / source, share / target)
    for path in [share, *share.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return f"{share}:/usr/local/share:/usr/share"


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
        # A body of several lines (a late label, a group) continues the call's line on the next ones.
        lines = []
        for line in self.log.read_text().splitlines():
            if lines and not re.match(r"\d+\.\d+ ", line):
                lines[-1] += "\n" + line
            else:
                lines.append(line)
        for line in lines:
            if " Notify " not in line or " Notify raised:" in line:
                continue
            parts = line.split('"')
            # time Notify "app" replaces_id "icon" "summary" "body" [actions] {hints} timeout
            calls.append((parts[5], parts[7], line))
        return calls

    def invoke(self, notification_id, action):
        self.gdbus("org.freedesktop.DBus.Mock.EmitSignal", "org.freedesktop.Notifications", "ActionInvoked", "us",
                   f"[<uint32 {notification_id}>, <'{action}'>]")

    def close(self, notification_id, reason):
        """The pop-up closed as the server says it (2: by the person)."""
        self.gdbus("org.freedesktop.DBus.Mock.EmitSignal", "org.freedesktop.Notifications", "NotificationClosed", "uu",
                   f"[<uint32 {notification_id}>, <uint32 {reason}>]")

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
            real_clock_env(os.environ), DBUS_SESSION_BUS_ADDRESS=bus.address, XDG_RUNTIME_DIR=str(self.runtime),
            XDG_DATA_HOME=str(self.tmp / "data"), XDG_CONFIG_HOME=str(self.tmp / "config"), TZ="UTC",
            NOTIFY_SOCKET=str(self.notify_path),
        )
        self.env.pop("REMINDERD_SOCKET", None)
        self.notify = None
        self.process = None
        self.messages = []
        self.prefix = []  # a command that execs the daemon (FaultDaemon's prlimit)
        self.program = BIN / "reminderd"  # another build's, to compare two in one run (bench_daemon)

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
            [*self.prefix, str(self.program)], env=self.env, stdout=self.log, stderr=self.log)
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


# ---------------------------------------------------------------------------------------------
# Sync: a CalDAV server on 127.0.0.1 and several "devices", each a reminderd with its own XDG
# directories and private bus plus its own reminderd-sync; and a plain WebDAV client that plays
# a phone (test_sync_devices.py, test_sync_faults.py, bench_sync.py).

VENV = Path(os.environ.get("REMINDERD_TEST_VENV", ROOT / ".build-venv"))
DAV_USER = "alice"
DAV_PASSWORD = "correct horse 9"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def accepts(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


class DavServer:
    """Radicale (the venv's, pinned in scripts/test.sh) with one plain htpasswd user and a
    throwaway folder; `log_level="info"` makes it log every request (the benchmark counts them).
    Stopped by its PID."""

    def __init__(self, folder, log_level="warning", password=DAV_PASSWORD):
        folder = Path(folder)
        folder.mkdir(parents=True)
        self.folder = folder
        self.collections = folder / "collections"
        (folder / "users").write_text(f"{DAV_USER}:{password}\n")
        self.port = free_port()
        (folder / "config").write_text(
            f"[server]\nhosts = 127.0.0.1:{self.port}\n[auth]\ntype = htpasswd\n"
            f"htpasswd_filename = {folder / 'users'}\nhtpasswd_encryption = plain\n"
            f"[storage]\nfilesystem_folder = {self.collections}\n[rights]\ntype = owner_only\n"
            f"[logging]\nlevel = {log_level}\n")
        program = VENV / "bin" / "radicale"
        assert program.exists(), f"{program} missing: run the venv line of scripts/test.sh"
        self.log_path = folder / "radicale.log"
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen([str(program), "--config", str(folder / "config")], stdout=self.log,
                                        stderr=self.log)
        # Its imports alone take tens of seconds on a loaded machine (2 cores, tests beside builds).
        wait_for(lambda: accepts(self.port), timeout=60, what="Radicale on its port")
        self.url = f"http://127.0.0.1:{self.port}/"

    def task_lists(self):
        home = self.collections / "collection-root" / DAV_USER
        return sorted(p.name for p in home.iterdir() if (p / ".Radicale.props").exists()) if home.exists() else []

    def collection_url(self, calendar="reminderd"):
        return f"{self.url}{DAV_USER}/{calendar}/"

    def collection_folder(self, calendar="reminderd"):
        return self.collections / "collection-root" / DAV_USER / calendar

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.log.close()


class XandikosServer:
    """Xandikos (the venv's) on a throwaway folder, the other server the sync tests run: it has no
    accounts on plain HTTP (any credentials do), its calendars are under /user/calendars/, and it
    answers sync-collection with the difference between two commits of its git store. Stopped
    by its PID."""

    def __init__(self, folder):
        folder = Path(folder)
        folder.mkdir(parents=True)
        self.folder = folder
        self.port = free_port()
        program = VENV / "bin" / "xandikos"
        assert program.exists(), f"{program} missing: run the venv line of scripts/test.sh"
        self.log_path = folder / "xandikos.log"
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [str(program), "serve", "-d", str(folder / "data"), "--defaults", "-l", "127.0.0.1", "-p", str(self.port),
             "--no-detect-systemd"], stdout=self.log, stderr=self.log, env={**os.environ, "HOME": str(folder)})
        # Its imports alone take tens of seconds on a loaded machine (2 cores, tests beside builds).
        wait_for(lambda: accepts(self.port), timeout=60, what="Xandikos on its port")
        self.url = f"http://127.0.0.1:{self.port}/"

    def collection_url(self, calendar="reminderd"):
        return f"{self.url}user/calendars/{calendar}/"

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.log.close()


class Dav:
    """A plain WebDAV client, as a phone's sync adapter is one: GET, PUT (conditional or not),
    DELETE, MKCALENDAR and a calendar-query listing every resource with its ETag and body."""

    def __init__(self, base, user=DAV_USER, password=DAV_PASSWORD):
        import base64
        import urllib.parse
        self.base = base
        self.origin = "{0.scheme}://{0.netloc}".format(urllib.parse.urlsplit(base))
        self.auth = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()

    def request(self, method, url, body=None, headers=None):
        """(status, headers, text); an HTTP error status is returned, not raised."""
        import urllib.error
        import urllib.request
        if url.startswith("/"):
            url = self.origin + url
        data = body.encode() if isinstance(body, str) else body
        request = urllib.request.Request(url, data=data, method=method,
                                         headers={"Authorization": self.auth, **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=15) as response:
                return response.status, dict(response.headers), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode(errors="replace")

    def resources(self, collection):
        """{href: (etag, body)} of every resource in the collection."""
        import xml.etree.ElementTree as ElementTree
        query = ('<?xml version="1.0" encoding="utf-8"?><C:calendar-query xmlns:D="DAV:" '
                 'xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/><C:calendar-data/></D:prop>'
                 '<C:filter><C:comp-filter name="VCALENDAR"/></C:filter></C:calendar-query>')
        status, _, text = self.request("REPORT", collection, query,
                                       {"Depth": "1", "Content-Type": "application/xml; charset=utf-8"})
        assert status == 207, f"REPORT {collection}: {status} {text[:300]}"
        found = {}
        for response in ElementTree.fromstring(text).iter("{DAV:}response"):
            href = response.findtext("{DAV:}href")
            etag = response.findtext(".//{DAV:}getetag")
            body = response.findtext(".//{urn:ietf:params:xml:ns:caldav}calendar-data")
            if body is not None:
                found[href] = (etag, body.replace("\r\n", "\n").replace("\n", "\r\n"))
        return found

    def get(self, href):
        status, headers, text = self.request("GET", href)
        assert status == 200, f"GET {href}: {status}"
        return headers.get("ETag") or headers.get("Etag"), text

    def put(self, href, body, etag=None, create=False):
        """PUT `body`: with If-Match when `etag` is given, If-None-Match: * when `create`,
        unconditionally otherwise (as some clients do). Returns the status."""
        headers = {"Content-Type": "text/calendar; charset=utf-8"}
        if etag:
            headers["If-Match"] = etag
        if create:
            headers["If-None-Match"] = "*"
        return self.request("PUT", href, body, headers)[0]

    def delete(self, href, etag=None):
        return self.request("DELETE", href, None, {"If-Match": etag} if etag else {})[0]

    def make_task_list(self, url):
        body = ('<?xml version="1.0" encoding="utf-8"?><C:mkcalendar xmlns:D="DAV:" '
                'xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop><C:supported-calendar-component-set>'
                '<C:comp name="VTODO"/></C:supported-calendar-component-set></D:prop></D:set></C:mkcalendar>')
        status = self.request("MKCALENDAR", url, body, {"Content-Type": "application/xml"})[0]
        assert status in (201, 405), f"MKCALENDAR {url}: {status}"


def vtodo_uid(body):
    """The UID of a resource's task (not of an override)."""
    for line in body.replace("\r\n ", "").splitlines():
        if line.startswith("UID:"):
            return line[4:].strip()
    return None


class SyncDevice:
    """One machine: reminderd with its own XDG directories and private session bus, a config
    whose `"sync"` object names the server (password in a 0600 file), and its own reminderd-sync
    started beside it. Both stopped by their PIDs."""

    def __init__(self, tmp, name, server_url, calendar="reminderd", config=None, notifications=False,
                 sync_options=None):
        self.name = name
        self.home = Path(tmp) / name
        self.home.mkdir(parents=True)
        self.bus = Bus(self.home)
        self.notifier = NotificationServer(self.bus, self.home / "notify.log") if notifications else None
        password = self.home / "dav-password"
        password.write_text(DAV_PASSWORD + "\n")
        password.chmod(0o600)
        self.password_file = password
        self.sync_settings = {"url": server_url, "username": DAV_USER, "passwordFile": str(password),
                              "calendar": calendar, **(sync_options or {})}
        self.daemon = Daemon(self.home, self.bus, {"timeZone": "UTC", "quietHours": None, **(config or {}),
                                                   "sync": self.sync_settings})
        self.sync_process = None
        self.sync_log = None

    def start(self, sync=True):
        self.daemon.start()
        if sync:
            self.start_sync()
        return self

    def start_sync(self, wait=True):
        """Starts reminderd-sync; `wait`: until its pass at start ended (a new `lastAttempt`,
        stamped in whole seconds) and it waits for work. (A `sync now` made during that pass
        waits for a pass of its own after it.)"""
        program = BIN / "reminderd-sync"
        if self.sync_log is None:
            self.sync_log = open(self.home / "reminderd-sync.log", "a")
        before = self.sync_status()["lastAttempt"]
        if before is not None:
            last = datetime.fromisoformat(before).timestamp()
            wait_for(lambda: time.time() >= last + 1, what="a new second for lastAttempt")
        # Not reminderd's NOTIFY_SOCKET: the test reads that one only now and then, and a full
        # one would block reminderd-sync's sd_notify (systemd's own is always drained).
        env = {name: value for name, value in self.daemon.env.items() if name != "NOTIFY_SOCKET"}
        self.sync_process = subprocess.Popen([str(program)], env=env, stdout=self.sync_log, stderr=self.sync_log)
        if wait:
            def ready():
                status = self.sync_status()
                return status["connected"] and status["lastAttempt"] != before
            wait_for(ready, timeout=30, what=f"{self.name}'s reminderd-sync through its first pass, waiting for work")
        return self

    def stop_sync(self, sig=signal.SIGTERM):
        if self.sync_process and self.sync_process.poll() is None:
            self.sync_process.send_signal(sig)
            try:
                self.sync_process.wait(10)
            except subprocess.TimeoutExpired:
                self.sync_process.kill()
                self.sync_process.wait(10)
        self.sync_process = None

    def ctl(self, *args, check=True):
        return self.daemon.ctl(*args, check=check)

    def ctl_json(self, *args):
        return self.daemon.ctl_json(*args)

    def sync_status(self):
        return self.ctl_json("sync", "status")["sync"]

    def sync_now(self, check=True):
        result = subprocess.run([str(BIN / "reminderctl"), "sync", "now"], env=self.daemon.env, capture_output=True,
                                text=True, timeout=120)
        if check and result.returncode != 0:
            raise AssertionError(f"{self.name}: reminderctl sync now exited {result.returncode}: {result.stderr}"
                                 f"\n--- reminderd-sync log:\n{self.sync_log_text()[-3000:]}")
        return result

    def items(self):
        return self.ctl_json("list", "--all")["items"]

    def history(self, *args):
        return self.ctl_json("history", "--limit", "500", *args)["entries"]

    def sync_log_text(self):
        path = self.home / "reminderd-sync.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self):
        self.stop_sync()
        self.daemon.stop()
        if self.sync_log:
            self.sync_log.close()
        if self.notifier:
            self.notifier.stop()
        self.bus.stop()


@pytest.fixture
def dav_server(tmp_path):
    server = DavServer(tmp_path / "radicale")
    yield server
    server.stop()


@pytest.fixture
def devices(tmp_path, dav_server):
    """`devices(n, **options)` → n started SyncDevices (A, B, …) syncing with `dav_server`'s task
    list "reminderd", made first as `reminderctl sync setup` would; all stopped at the end."""
    made = []
    Dav(dav_server.url).make_task_list(dav_server.collection_url())

    def make(count=2, url=None, sync=True, **options):
        """`sync=False`: reminderd-sync not started yet (a device before it joins)."""
        for _ in range(count):
            device = SyncDevice(tmp_path, "ABCDEFGH"[len(made)], url or dav_server.url, **options)
            made.append(device)
            device.start(sync=sync)
        return made[-count:]
    yield make
    for device in made:
        device.stop()


class DavProxy:
    """An HTTP proxy in this test process, in front of the CalDAV server: it counts and logs
    every request (method, path, status) and spoils answers on request — `fail(method, mode,
    times)` with mode "reset" (the connection reset once the request is read), "lost" (the
    request carried out by the server, then the connection reset: the answer is lost), "500" (an HTML
    error page), "truncate" (the server's XML cut in half), "401" (credentials refused),
    "html" (a login page with 200). `delay` slows every request (seconds); `rewrite(body)`
    changes each PUT's body on its way to the server, as servers that rewrite what they store do.
    Stopped at the end of the test."""

    ERROR_PAGE = b"<html><head><title>500 Internal Server Error</title></head><body>Oops</body></html>"
    LOGIN_PAGE = b"<!DOCTYPE html><html><head><title>Network login required</title></head><body>Sign in</body></html>"

    def __init__(self, upstream_port):
        import http.client
        import http.server
        import struct
        import threading
        proxy = self
        self.requests = []
        # Each REPORT, in order: what it asks for ("sync-collection", "calendar-multiget", …) and
        # the last path segment of each href it names (a multiget's resources).
        self.reports = []
        self.faults = []  # [method or "*", mode, times left, matching requests to let through first]
        self.delay = 0.0
        self.rewrite = None
        self.lock = threading.Lock()

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def __getattr__(self, name):
                if name.startswith("do_"):
                    return self.relay
                raise AttributeError(name)

            def log_message(self, format, *args):
                pass

            def relay(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0) or 0))
                if self.command == "REPORT":
                    import re
                    found = re.search(rb"<(?:[\w-]+:)?([\w-]+)[\s>]", body.split(b"?>", 1)[-1])
                    hrefs = [h.decode().rstrip("/").rsplit("/", 1)[-1]
                             for h in re.findall(rb"<(?:[\w-]+:)?href>([^<]*)<", body)]
                    with proxy.lock:
                        proxy.reports.append((found.group(1).decode() if found else "?", hrefs))
                mode = proxy.take_fault(self.command)
                if proxy.delay:
                    time.sleep(proxy.delay)
                if proxy.rewrite and self.command == "PUT":
                    body = proxy.rewrite(body.decode()).encode()
                if mode == "reset":
                    return self.reset()
                if mode == "500":
                    return self.answer(500, "text/html", DavProxy.ERROR_PAGE)
                if mode == "html":
                    return self.answer(200, "text/html; charset=utf-8", DavProxy.LOGIN_PAGE)
                if mode == "401":
                    return self.answer(401, "text/plain", b"Access to the requested resource forbidden.",
                                       [("WWW-Authenticate", 'Basic realm="Radicale"')])
                upstream = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=30)
                dropped = ("host", "content-length", "accept-encoding")
                headers = {k: v for k, v in self.headers.items() if k.lower() not in dropped}
                upstream.request(self.command, self.path, body=body, headers=headers)
                response = upstream.getresponse()
                data = response.read()
                upstream.close()
                if mode == "lost":
                    return self.reset()
                extra = [(name, value) for name, value in response.getheaders()
                         if name.lower() not in ("content-length", "transfer-encoding", "connection", "date", "server",
                                                 "content-type")]
                content_type = response.getheader("Content-Type", "application/octet-stream")
                if mode == "truncate":
                    data = data[: len(data) // 2]
                self.answer(response.status, content_type, data, extra)

            def reset(self):
                proxy.record(self.command, self.path, "reset")
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.connection.close()
                self.close_connection = True

            def answer(self, status, content_type, data, headers=()):
                proxy.record(self.command, self.path, status)
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def fail(self, method, mode, times=1, after=0):
        """The next `times` requests with `method` ("*" for any) get `mode`, once `after` such
        requests went through untouched."""
        with self.lock:
            self.faults.append([method, mode, times, after])

    def take_fault(self, method):
        with self.lock:
            for fault in self.faults:
                if fault[0] in ("*", method) and fault[2] > 0:
                    if fault[3] > 0:
                        fault[3] -= 1
                        continue
                    fault[2] -= 1
                    return fault[1]
        return None

    def clear(self):
        with self.lock:
            self.faults = []

    def record(self, method, path, status):
        with self.lock:
            self.requests.append((method, path, status))

    def count(self, method=None):
        with self.lock:
            return sum(1 for r in self.requests if method is None or r[0] == method)

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def dav_proxy(dav_server):
    proxy = DavProxy(dav_server.port)
    yield proxy
    proxy.stop()


def start_xvfb(screen):
    """Xvfb on a display it chose free, once it accepts clients: (process, ":N"). Xvfb writes the
    display's number to -displayfd only when it is ready, so nothing waits on the clock."""
    read, write = os.pipe()
    process = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", screen], pass_fds=(write,),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        ready, _, _ = select.select([pipe], [], [], 10)
        number = pipe.readline().strip() if ready else ""
    if not number:
        process.kill()
        raise AssertionError("Xvfb gave no display within 10 s")
    return process, f":{number}"
