"""How heavy reminderd is beside the C tools it is measured against (issue 21), in one run:
the package's size beside remind's and calcurse's, what `reminderctl` loads and costs at start,
`plan`'s table beside its JSON, `status`'s instructions and CPU beside `remind -n`, and the
daemon's idle memory by item count beside `calcurse --daemon`. Instruction counts come from callgrind (stable on these
machines, unlike wall time). Run by scripts/bench-light.sh on the package's own stripped,
statically linked release binaries (REMINDERD_BIN, dist/ for the .deb)."""
import json
import os
import re
import shutil
import subprocess
import sys
import signal
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("REMINDERD_BIN", ROOT / ".build-deb" / "release"))


def run(*command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, check=True, **kwargs)


def instructions(*command, env=None):
    """Instructions the command runs (callgrind's total), its output thrown away."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
        totals = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
        return int(totals.group(1))


def apt_field(package, field):
    """A field of the candidate version of a Debian package (`Size`, `Installed-Size`)."""
    shown = run("apt-cache", "show", "--no-all-versions", package).stdout
    return int(re.search(rf"^{field}: (\d+)", shown, re.MULTILINE).group(1))


def package_figures():
    debs = sorted((ROOT / "dist").glob("reminderd_*.deb"))
    if not debs:
        return None
    deb = debs[-1]
    installed_kib = int(run("dpkg-deb", "--field", str(deb), "Installed-Size").stdout.strip())
    return deb.stat().st_size / 1024, installed_kib


def items_file(folder, count):
    """`count` items of every kind, as `plan` reads them."""
    items = []
    for n in range(count):
        kind = n % 4
        if kind == 0:
            items.append({"id": f"b{n}", "kind": "benefit", "title": f"Credit {n}", "card": "Card",
                          "amount": "10", "period": "monthly"})
        elif kind == 1:
            items.append({"id": f"s{n}", "kind": "subscription", "title": f"Service {n}", "amount": "9.99",
                          "every": "1mo", "next": "2027-01-05"})
        elif kind == 2:
            items.append({"id": f"c{n}", "kind": "coupon", "title": f"Deal {n}", "expires": "2027-03-01"})
        else:
            items.append({"id": f"f{n}", "kind": "fee", "title": f"Fee {n}", "amount": "95", "due": "2027-06-01"})
    path = Path(folder) / "items.json"
    path.write_text(json.dumps(items))
    return path


class Daemon:
    """reminderd with `count` items in its store, started afresh (so its memory is what a start
    with those items costs, not what importing them left), on folders of its own and no session
    bus (no pop-ups are due)."""

    def __init__(self, folder, count):
        self.folder = Path(folder)
        (self.folder / "config" / "reminderd").mkdir(parents=True)
        (self.folder / "config" / "reminderd" / "config.json").write_text('{"timeZone": "UTC", "quietHours": null}')
        (self.folder / "run").mkdir(mode=0o700)
        self.env = dict(os.environ, XDG_RUNTIME_DIR=str(self.folder / "run"), XDG_DATA_HOME=str(self.folder / "data"),
                        XDG_CONFIG_HOME=str(self.folder / "config"), TZ="UTC",
                        DBUS_SESSION_BUS_ADDRESS=f"unix:path={self.folder}/no-bus")
        self.env.pop("NOTIFY_SOCKET", None)
        self.process = None
        self.start()
        if count:
            run(str(BIN / "reminderctl"), "import", str(items_file(folder, count)), env=self.env)
            self.stop()
            self.start()

    def start(self):
        self.process = subprocess.Popen([str(BIN / "reminderd")], env=self.env, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        for _ in range(600):
            if subprocess.run([str(BIN / "reminderctl"), "status"], env=self.env, capture_output=True).returncode == 0:
                return
            time.sleep(0.05)
        raise RuntimeError("reminderd did not answer within 30 s")

    def anon_kib(self):
        """RssAnon once it has been idle for a moment."""
        time.sleep(2)
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"^RssAnon:\s+(\d+) kB", status, re.MULTILINE).group(1))

    def stop(self):
        self.process.terminate()
        self.process.wait(30)


def calcurse_anon_kib(folder, count):
    """`calcurse --daemon`'s RssAnon with `count` appointments."""
    data = Path(folder) / "calcurse"
    data.mkdir()
    (data / "apts").write_text("".join(
        f"12/{n % 28 + 1:02d}/2027 @ 09:00 -> 12/{n % 28 + 1:02d}/2027 @ 09:30 |Item {n}\n" for n in range(count)))
    (data / "todo").write_text("")
    (data / "conf").write_text("daemon.enable=yes\n")
    run("calcurse", "-D", str(data), "--daemon")
    time.sleep(2)
    pid = int((data / ".daemon.pid").read_text())
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        return int(re.search(r"^RssAnon:\s+(\d+) kB", status, re.MULTILINE).group(1))
    finally:
        os.kill(pid, signal.SIGTERM)


def cpu_seconds(command, env=None, rounds=30):
    """User and system CPU of `rounds` runs of `command`, from each child's own rusage."""
    total = 0.0
    for _ in range(rounds):
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        _, _, usage = os.wait4(process.pid, 0)
        total += usage.ru_utime + usage.ru_stime
    return total


def status_rows(quick):
    """`reminderctl status` against a running daemon: its instructions, its CPU time beside
    `remind -n` (alternating rounds, so both see the same machine), and the daemon's idle memory
    at 200 and 10k items (100k too without --quick) beside calcurse's daemon."""
    rows = []
    remind = shutil.which("remind")
    with tempfile.TemporaryDirectory() as folder:
        daemon = Daemon(Path(folder) / "status", 0)
        try:
            ctl = [str(BIN / "reminderctl"), "status"]
            status = instructions(*ctl, env=daemon.env)
            rows.append(("reminderctl status instructions", f"{status / 1e6:.1f} M", "", "≤ 12 M", status <= 12e6))
            if remind:
                reminders = Path(folder) / "reminders"
                reminders.write_text("REM 1 Dec 2026 MSG Netflix\n")
                ours = theirs = 0.0
                for _ in range(5):
                    ours += cpu_seconds(ctl, env=daemon.env, rounds=10)
                    theirs += cpu_seconds([remind, "-n", str(reminders)], rounds=10)
                # Shown, not checked: CPU time on a shared machine is too noisy to fail a run on.
                rows.append(("reminderctl status CPU, 50 runs", f"{ours * 1000:.0f} ms", f"remind -n {theirs * 1000:.0f} ms",
                             f"{ours / theirs:.1f}× (≤ 3×)", None))
        finally:
            daemon.stop()
        for count, limit in ((200, 2.5), (10_000, 8)) + (() if quick else ((100_000, 60),)):
            daemon = Daemon(Path(folder) / f"rss{count}", count)
            try:
                ours = daemon.anon_kib()
            finally:
                daemon.stop()
            peer = f"calcurse --daemon {calcurse_anon_kib(Path(folder) / f'rss{count}', count) / 1024:.2f} MiB" \
                if shutil.which("calcurse") else ""
            rows.append((f"reminderd anon RSS idle, {count} items", f"{ours / 1024:.1f} MiB", peer, f"≤ {limit} MiB",
                         ours / 1024 <= limit))
    return rows


def main():
    """--quick: fewer items; --check: exit 1 when a target that is stable here (sizes, libraries,
    instructions, memory; not CPU time) is missed; --fast-deb: the .deb was packed at xz level 0
    (as the test command packs it, for speed), so its size is not the shipped one's."""
    quick = "--quick" in sys.argv
    ctl = str(BIN / "reminderctl")
    rows = []
    figures = package_figures()
    if figures:
        deb_kib, installed_kib = figures
        shipped = "--fast-deb" not in sys.argv
        peers = {name: (apt_field(name, "Size") / 1024, apt_field(name, "Installed-Size")) for name in ("remind", "calcurse")}
        rows.append(("package .deb", f"{deb_kib / 1024:.1f} MiB" + ("" if shipped else " (xz level 0)"),
                     ", ".join(f"{n} {s:.0f} KiB" for n, (s, _) in peers.items()), "≤ 8 MiB",
                     deb_kib / 1024 <= 8 if shipped else None))
        rows.append(("package installed", f"{installed_kib / 1024:.1f} MiB",
                     ", ".join(f"{n} {i} KiB" for n, (_, i) in peers.items()), "≤ 32 MiB", installed_kib / 1024 <= 32))
    # ldd fails on a static executable ("not a dynamic executable"): it loads none.
    listed = subprocess.run(["ldd", ctl], capture_output=True, text=True)
    libraries = [line for line in listed.stdout.splitlines() if "=>" in line or "ld-linux" in line] \
        if listed.returncode == 0 else []
    rows.append(("reminderctl shared libraries", str(len(libraries)), "", "≤ 12", len(libraries) <= 12))
    help_instructions = instructions(ctl, "--help")
    remind = shutil.which("remind")
    peer = ""
    if remind:
        with tempfile.TemporaryDirectory() as folder:
            reminders = Path(folder) / "reminders"
            reminders.write_text("REM 1 Dec 2026 MSG Netflix\n")
            peer = f"remind -n {instructions(remind, '-n', str(reminders)) / 1e6:.1f} M"
    rows.append(("reminderctl --help instructions", f"{help_instructions / 1e6:.1f} M", peer, "", None))
    count = 500 if quick else 5_000
    with tempfile.TemporaryDirectory() as folder:
        items = items_file(folder, count)
        plan = [ctl, "plan", "--items", str(items), "--from", "2027-01-01", "--to", "2028-01-01"]
        env = dict(os.environ, TZ="UTC", COLUMNS="120")
        table = instructions(*plan, env=env)
        as_json = instructions(*plan, "--json", env=env)
    rows.append((f"plan a year of {count} items, table", f"{table / 1e6:.0f} M",
                 f"--json {as_json / 1e6:.0f} M", f"{table / as_json:.2f}× (≤ 1.5×)", table / as_json <= 1.5))
    rows += status_rows(quick)
    width = max(len(r[0]) for r in rows)
    print(f"Binaries: {BIN}")
    for name, ours, peers, target, met in rows:
        mark = "" if met is None else ("  met" if met else "  NOT MET")
        print(f"  {name:<{width}}  {ours:>10}  {peers:<36}  {target}{mark}")
    missed = [row[0] for row in rows if row[4] is False]
    if "--check" in sys.argv and missed:
        print(f"bench-light: targets not met: {', '.join(missed)}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
