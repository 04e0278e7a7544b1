"""The Debian package (issue 12): scripts/package-deb.sh builds it; it is installed with dpkg on
this machine, run under a real `systemd --user` manager for a user created here whose home holds
nothing of reminderd, upgraded, and purged — and everything the test makes is removed again.

Needs root (apt, useradd, a user manager's cgroup). A longer check behind
REMINDERD_CHROOT_CHECK=1 installs the package into a clean Debian made with
`debootstrap --variant=minbase`, proving its Depends: are complete.
"""
import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import wait_for

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="installs a package and creates a user: needs root")


def run(*command, check=True, timeout=300, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, **kwargs)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, command))} exited {result.returncode}:\n{result.stdout}\n{result.stderr}")
    return result


def dpkg_install(path):
    """`dpkg -i`, waiting out another package run on the machine (dpkg has no lock timeout)."""
    deadline = time.monotonic() + 300
    while True:
        result = run("dpkg", "-i", str(path), check=False, env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
        if result.returncode == 0:
            return
        if "lock" not in result.stderr or time.monotonic() > deadline:
            raise AssertionError(f"dpkg -i {path}: {result.stdout}{result.stderr}")
        time.sleep(2)  # another dpkg holds its lock: try again until the deadline


def control_field(deb, field):
    return run("dpkg-deb", "--field", str(deb), field).stdout.strip()


@pytest.fixture(scope="module")
def deb():
    """The package, built once for the module (the release build is shared with later runs)."""
    if run("dpkg-query", "-W", "-f=${Status}", "reminderd", check=False).stdout.startswith("install ok"):
        pytest.skip("a reminderd package is already installed here; the test would replace and remove it")
    # xz level 0: the same package, made in 13 s instead of 66 s (level 6 saves 7 MB of 38).
    built = run("bash", str(REPO / "scripts/package-deb.sh"), timeout=1800, cwd=REPO,
                env=dict(os.environ, DPKG_DEB_COMPRESSOR_LEVEL="0"))
    return REPO / built.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def installed(deb):
    """Installed once for the tests below; the last of them upgrades and purges it."""
    dpkg_install(deb)
    yield deb
    run("dpkg", "--purge", "reminderd", check=False)


class UserManager:
    """A fresh user and its own `systemd --user`, as a login would start it: a home with nothing of
    reminderd in it, /run/user/UID, and a cgroup of its own (a user manager needs one it may write)."""

    def __init__(self, tmp_path):
        self.name = f"rdpkg{os.getpid() % 100000}"
        self.log = tmp_path / "user-manager.log"
        self.runtime, self.made, self.cgroups, self.process = None, [], [], None

    def start(self):
        """Each step records what it made first, so close() removes it even when a later one fails."""
        run("useradd", "--create-home", "--shell", "/bin/sh", self.name)
        entry = pwd.getpwnam(self.name)
        self.uid, self.gid, self.home = entry.pw_uid, entry.pw_gid, Path(entry.pw_dir)
        self.runtime = Path(f"/run/user/{self.uid}")
        self.runtime.mkdir(mode=0o700, parents=True, exist_ok=False)
        os.chown(self.runtime, self.uid, self.gid)
        # What a booted systemd has made and a container lacks: /run/systemd/system (systemd --user
        # runs only where it exists) and /run/systemd/unit-root (where a unit's sandbox is built).
        for directory in (Path("/run/systemd/system"), Path("/run/systemd/unit-root")):
            if not directory.exists():
                directory.mkdir(parents=True)
                self.made.append(directory)
        self._make_cgroups()
        self.env = {"HOME": str(self.home), "USER": self.name, "LOGNAME": self.name, "SHELL": "/bin/sh",
                    "XDG_RUNTIME_DIR": str(self.runtime), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
        enter = "".join(f"echo $$ > {cgroup}/cgroup.procs; " for cgroup in self.cgroups)
        self.process = subprocess.Popen(["sh", "-c", enter + 'exec "$@"', "sh", *self.as_user("/lib/systemd/systemd", "--user")],
                                        stdout=self.log.open("w"), stderr=subprocess.STDOUT, start_new_session=True)
        wait_for(lambda: self.systemctl("is-system-running", check=False).stdout.strip() in ("running", "degraded"),
                 timeout=20, what=f"systemd --user of {self.name} (its output: {self.log})")

    def _make_cgroups(self):
        """A child of this process's cgroup in each hierarchy systemd uses, owned by the user."""
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            number, controllers, path = line.split(":", 2)
            if number == "0" and controllers == "":
                base = Path("/sys/fs/cgroup/unified") if Path("/sys/fs/cgroup/unified").is_dir() else Path("/sys/fs/cgroup")
            elif controllers == "name=systemd":
                base = Path("/sys/fs/cgroup/systemd")
            else:
                continue
            cgroup = base / path.lstrip("/") / f"{self.name}.user-manager"
            cgroup.mkdir()
            self.cgroups.append(cgroup)
            for entry in [cgroup, *cgroup.iterdir()]:
                os.chown(entry, self.uid, self.gid)

    def as_user(self, *command):
        environment = [f"{key}={value}" for key, value in self.env.items()]
        return ["setpriv", f"--reuid={self.uid}", f"--regid={self.gid}", "--init-groups", "env", "-i", *environment,
                *command]

    def run(self, *command, check=True, timeout=60):
        return run(*self.as_user(*command), check=check, timeout=timeout, cwd="/")

    def systemctl(self, *arguments, check=True):
        return self.run("systemctl", "--user", "--no-pager", *arguments, check=check)

    def service(self, *properties):
        shown = self.systemctl("show", "reminderd.service", *[f"--property={p}" for p in properties]).stdout
        return dict(line.split("=", 1) for line in shown.splitlines() if "=" in line)

    def close(self):
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # the manager stops its units, then exits
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        for cgroup in self.cgroups:  # deepest first; anything of the test user's still in one is killed
            for directory, _, _ in sorted(os.walk(cgroup), key=lambda entry: -len(entry[0])):
                for pid in Path(directory, "cgroup.procs").read_text().split():
                    try:
                        os.kill(int(pid), signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                wait_for(lambda: not Path(directory, "cgroup.procs").read_text().strip(), timeout=10,
                         what=f"the processes of {directory} to end")
                os.rmdir(directory)
        for directory in self.made:
            directory.rmdir()
        if self.runtime is not None:
            shutil.rmtree(self.runtime, ignore_errors=True)
        run("userdel", "--remove", self.name, check=False)


@pytest.fixture
def user(tmp_path):
    manager = UserManager(tmp_path)
    try:
        manager.start()
        yield manager
    finally:
        manager.close()


def test_lintian_finds_no_errors(deb):
    """Warnings are listed, with their reasons, in scripts/package-deb.sh."""
    if shutil.which("lintian") is None:
        pytest.fail("lintian is not installed (scripts/setup.sh installs it)")
    run("lintian", "--fail-on", "error", "--tag-display-limit", "0", str(deb))


def test_the_packaged_reminderctl_has_no_icu_and_no_full_foundation(deb, tmp_path):
    """reminderctl is linked statically and stripped, so no library list shows what is in it; ICU's
    data (which full Foundation and FoundationInternationalization bring, ~30 MB) is found by its
    table of contents' names, "icudt…". reminderd and reminderd-sync still carry it (issue 21)."""
    run("dpkg-deb", "-x", str(deb), str(tmp_path))
    binary = (tmp_path / "usr/bin/reminderctl").read_bytes()
    assert b"icudt" not in binary and b"FoundationInternationalization" not in binary


def test_the_packaged_reminderctl_is_a_static_executable_that_runs(deb, tmp_path):
    """What `reminderctl status` costs is mostly its start-up (issue 21): a static, non-PIE
    executable starts without the dynamic loader, relocations or libstdc++'s set-up, which took
    a quarter of its instructions."""
    run("dpkg-deb", "-x", str(deb), str(tmp_path))
    binary = tmp_path / "usr/bin/reminderctl"
    elf = run("readelf", "--file-header", "--dynamic", "--program-headers", str(binary)).stdout
    assert "EXEC (Executable file)" in elf and "There is no dynamic section" in elf and "INTERP" not in elf, elf
    assert run(str(binary), "--version").stdout.strip() == control_field(deb, "Version")
    unreachable = run(str(binary), "status", check=False, env={"XDG_RUNTIME_DIR": str(tmp_path), "HOME": str(tmp_path)})
    assert unreachable.returncode == 69 and "hint: start it" in unreachable.stderr, unreachable


def test_the_packaged_reminderd_is_reminderd_sync_too_and_linked_small(deb, tmp_path):
    """One executable for both (issue 21: the Swift runtime twice in the package, not three times),
    its relative relocations packed and no symbols exported (Package.swift): 1.5 MB of its 18."""
    run("dpkg-deb", "-x", str(deb), str(tmp_path))
    assert os.readlink(tmp_path / "usr/bin/reminderd-sync") == "reminderd"
    dynamic = run("readelf", "--dynamic", str(tmp_path / "usr/bin/reminderd")).stdout
    assert "(RELR)" in dynamic, dynamic
    exported = run("nm", "--dynamic", "--defined-only", str(tmp_path / "usr/bin/reminderd")).stdout.split("\n")
    assert len([line for line in exported if line.strip()]) < 10, exported[:20]


def test_the_package_depends_on_what_dpkg_shlibdeps_cannot_see(deb):
    """reminderd-sync loads libcurl with dlopen (Sources/CCurl/CurlLoader.c): the package names it
    itself, at a version with CURLOPT_PROTOCOLS_STR (7.85.0). reminderd's relocations are packed
    (DT_RELR, Package.swift), which needs glibc 2.36: its symbols alone ask for less."""
    depends = [entry.strip() for entry in control_field(deb, "Depends").split(",")]
    assert "libcurl4 (>= 7.85.0)" in depends and "libc6 (>= 2.36)" in depends, depends


def test_the_light_benchmark_meets_its_targets(deb, capsys, tmp_path):
    """Issue 21's figures (Tests/EndToEnd/bench_light.py, quick) on the package's binaries, printed
    with remind's and calcurse's beside them; the run fails on a stable target missed — sizes,
    libraries, instructions, memory — never on CPU time, which this machine's load moves."""
    run("dpkg-deb", "-x", str(deb), str(tmp_path))
    result = subprocess.run(
        [sys.executable, str(REPO / "Tests/EndToEnd/bench_light.py"), "--quick", "--check", "--fast-deb"],
        capture_output=True, text=True, timeout=900, cwd=REPO,
        env=dict(os.environ, REMINDERD_BIN=str(tmp_path / "usr/bin")))
    with capsys.disabled():
        print("\n" + result.stdout)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_package_declares_every_library_it_loads_and_needs_no_swift(installed):
    depends = control_field(installed, "Depends")
    declared = {re.split(r"[ (]", alternative.strip())[0] for entry in depends.split(",") for alternative in entry.split("|")}
    for binary in ("/usr/bin/reminderd", "/usr/bin/reminderctl", "/usr/bin/reminderd-sync"):
        if "There is no dynamic section" in run("readelf", "-d", binary).stdout:
            continue  # reminderctl is a static executable (issue 21): it loads no library
        ldd = run("ldd", binary).stdout
        assert "/opt/swift" not in ldd and "not found" not in ldd and "libswift" not in ldd, ldd
        needed = re.findall(r"NEEDED\s+Shared library: \[(.+?)\]", run("readelf", "-d", binary).stdout)
        resolved = dict(re.findall(r"^\s*(\S+) => (\S+)", ldd, re.M))
        for library, path in resolved.items():
            owner = run("dpkg", "-S", path, check=False)
            if owner.returncode != 0:
                owner = run("dpkg", "-S", os.path.realpath(path))
            package = owner.stdout.split(":")[0]
            assert library not in needed or package in declared, f"{binary} needs {library} from {package}, not in Depends: {depends}"
    assert run("reminderctl", "--version").stdout.strip() == run("reminderd", "--version").stdout.strip() \
        == run("reminderd-sync", "--version").stdout.strip() == control_field(installed, "Version")


def test_the_unit_honours_xdg_data_home_with_the_documented_drop_in(installed, user):
    elsewhere = user.home / "data"
    user.systemctl("set-environment", f"XDG_DATA_HOME={elsewhere}")
    drop_in = user.home / ".config/systemd/user/reminderd.service.d/data-home.conf"
    user.run("mkdir", "-p", str(drop_in.parent))
    user.run("sh", "-c", f"printf '[Service]\\nReadWritePaths={elsewhere}/reminderd\\n' > {drop_in}")
    user.systemctl("daemon-reload")
    user.systemctl("start", "reminderd.socket")
    user.run("reminderctl", "add", "fee", "Elsewhere", "--due", "2027-03-01")
    assert (elsewhere / "reminderd/reminderd.sqlite").exists()
    assert not (user.home / ".local/share/reminderd").exists()
    user.systemctl("stop", "reminderd.socket", "reminderd.service")


def test_reminderd_sync_runs_in_its_sandbox_and_syncs_with_a_server(installed, user, tmp_path):
    """(Before the next test, which purges the package.) The packaged unit as a user enables it: without an account it exits 78 and is not restarted;
    after `reminderctl sync setup` it becomes ready under its hardening, reaches the server over
    the network and pushes the user's items; SIGTERM stops it cleanly."""
    from conftest import DAV_PASSWORD as PASSWORD, DAV_USER as USER, DavServer

    def sync_unit():
        shown = user.systemctl("show", "reminderd-sync.service", "--property=ActiveState",
                               "--property=ExecMainStatus", "--property=NRestarts").stdout
        return dict(line.split("=", 1) for line in shown.splitlines())

    user.run("systemd-analyze", "verify", "--user", "/usr/lib/systemd/user/reminderd-sync.service")
    user.systemctl("enable", "--now", "reminderd.socket")
    user.run("reminderctl", "add", "coupon", "Packaged", "--expires", "2027-01-31")
    user.systemctl("start", "reminderd-sync.service", check=False)
    wait_for(lambda: sync_unit()["ActiveState"] == "failed", timeout=20, what="reminderd-sync to stop for want of an account")
    assert sync_unit() == {"ActiveState": "failed", "ExecMainStatus": "78", "NRestarts": "0"}

    radicale = DavServer(tmp_path / "radicale")
    try:
        secret = user.home / "dav-password"
        secret.write_text(PASSWORD + "\n")
        os.chown(secret, user.uid, user.gid)
        secret.chmod(0o600)
        user.run("reminderctl", "sync", "setup", "--url", radicale.url, "--username", USER, "--password-file", str(secret))
        user.systemctl("reset-failed", "reminderd-sync.service")
        user.systemctl("start", "reminderd-sync.service")  # Type=notify: returns once it reached reminderd
        assert sync_unit()["ActiveState"] == "active"
        task_list = radicale.collection_folder()
        wait_for(lambda: any("Packaged" in path.read_text() for path in task_list.glob("*.ics")), timeout=30,
                 what="the item pushed to Radicale")
        user.systemctl("stop", "reminderd-sync.service")
        assert sync_unit() == {"ActiveState": "inactive", "ExecMainStatus": "0", "NRestarts": "0"}
    finally:
        radicale.stop()
        user.systemctl("stop", "reminderd-sync.service", "reminderd.socket", "reminderd.service", check=False)


def test_a_new_user_enables_the_socket_and_the_service_works_upgrades_and_outlives_the_package(installed, user, tmp_path):
    data = user.home / ".local/share/reminderd"
    assert not data.exists() and not (user.home / ".config/reminderd").exists()
    user.systemctl("enable", "--now", "reminderd.socket")
    # The one command enables the service too, so reminderd runs from the next login on, not only
    # once a reminderctl command has activated it.
    assert user.systemctl("is-enabled", "reminderd.service", check=False).stdout.strip() == "enabled"

    # Socket activation: the first request starts the service, which is active only after READY=1.
    assert user.run("reminderctl", "status").returncode == 0
    assert user.service("ActiveState", "SubState") == {"ActiveState": "active", "SubState": "running"}
    assert data.is_dir() and data.stat().st_mode & 0o777 == 0o700 and data.stat().st_uid == user.uid
    added = user.run("reminderctl", "add", "coupon", "Packaged", "--expires", "2027-01-31").stdout
    assert "Packaged" in user.run("reminderctl", "list").stdout, added
    assert "Amex Gold" in user.run("reminderctl", "cards", "gold").stdout  # the catalog built into reminderctl
    user.run("reminderctl", "setup", "--no-input", "--reminder-time", "08:30", "--lead-times", "7d,1d",
             "--quiet-hours", "none", "--card", "amex-gold", "--fee-due", "amex-gold=2027-01-15", "--yes")

    pid = user.service("MainPID")["MainPID"]
    user.systemctl("reload", "reminderd.service")
    assert user.service("ActiveState", "MainPID") == {"ActiveState": "active", "MainPID": pid}
    user.systemctl("stop", "reminderd.socket", "reminderd.service")
    assert user.service("ActiveState", "NRestarts") == {"ActiveState": "inactive", "NRestarts": "0"}
    assert (data / "reminderd.sqlite").stat().st_uid == user.uid

    # A newer package over this one: the user's store is kept and served by the new binary.
    newer = tmp_path / "newer"
    run("dpkg-deb", "-R", str(installed), str(newer))
    control = newer / "DEBIAN/control"
    control.write_text(re.sub(r"^Version: (.*)$", r"Version: \1+1", control.read_text(), flags=re.M))
    run("dpkg-deb", "--root-owner-group", "-Zxz", "-z0", "--build", str(newer), str(tmp_path / "newer.deb"))
    dpkg_install(tmp_path / "newer.deb")
    user.systemctl("start", "reminderd.socket")
    titles = user.run("reminderctl", "list", "--all").stdout
    assert "Packaged" in titles and "Amex Gold" in titles, titles
    user.systemctl("stop", "reminderd.socket", "reminderd.service")

    # Removing and purging the package leave the user's data alone.
    run("dpkg", "--purge", "reminderd")
    assert (data / "reminderd.sqlite").stat().st_size > 0 and (user.home / ".config/reminderd/config.json").exists()


@pytest.mark.skipif(os.environ.get("REMINDERD_CHROOT_CHECK") != "1",
                    reason="the clean-Debian check takes minutes and downloads Debian: REMINDERD_CHROOT_CHECK=1 runs it")
def test_the_package_installs_and_runs_in_a_clean_debian(deb, tmp_path):
    """debootstrap --variant=minbase has only essential packages: apt must pull in every Depends:,
    and both binaries must then start there."""
    if shutil.which("debootstrap") is None:
        pytest.fail("debootstrap is not installed (scripts/setup.sh installs it)")
    suite = run("sh", "-c", ". /etc/os-release && echo $VERSION_CODENAME").stdout.strip()
    root = tmp_path / "debian"
    mirror = os.environ.get("REMINDERD_CHROOT_MIRROR", "http://deb.debian.org/debian")
    run("debootstrap", "--variant=minbase", suite, str(root), mirror, timeout=1800)
    mounted = []
    try:
        run("mount", "-t", "proc", "proc", str(root / "proc"))
        mounted.append(root / "proc")
        shutil.copy(deb, root / "tmp/reminderd.deb")
        env = dict(PATH="/usr/sbin:/usr/bin:/sbin:/bin", DEBIAN_FRONTEND="noninteractive", HOME="/root", LANG="C.UTF-8")
        run("chroot", str(root), "apt-get", "install", "-y", "-q", "/tmp/reminderd.deb", env=env, timeout=1800)
        assert "not found" not in run("chroot", str(root), "ldd", "/usr/bin/reminderd", env=env).stdout
        assert run("chroot", str(root), "reminderd", "--version", env=env).stdout.strip() == control_field(deb, "Version")
        # reminderd-sync is reminderd under another name; libcurl, which it loads only when it
        # syncs, must come with the Depends: the script names for it.
        assert run("chroot", str(root), "reminderd-sync", "--version", env=env).stdout.strip() == control_field(deb, "Version")
        assert run("chroot", str(root), "sh", "-c", "ls /usr/lib/*/libcurl.so.4", env=env).returncode == 0
        cards = run("chroot", str(root), "reminderctl", "cards", "platinum", env=env).stdout
        assert "Platinum" in cards
    finally:
        for point in reversed(mounted):
            run("umount", "--lazy", str(point), check=False)
        if not any(os.path.ismount(point) for point in mounted):
            shutil.rmtree(root, ignore_errors=True)
