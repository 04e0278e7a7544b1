#!/usr/bin/env python3
"""The daemon's load and cost figures, each beside its baseline measured in the same run:

- 64 concurrent clients × 1,000 mixed requests (`reminder-load`): throughput, p50/p99/max
  latency and errors, next to the same clients against a raw Unix-socket echo server;
- start-up time to READY=1 with 0, 10k and 100k stored items, and the RSS with 100k;
- context switches of every daemon thread over 60 s idle with 10k items scheduled (no
  watchdog);
- anonymous memory (RssAnon) with 10k items, idle after start-up and after 30 rounds of
  `reminderctl list`, `summary` and `export`, with the ratio, the peak RSS (VmHWM) and what
  malloc holds free (glibc's malloc_stats, read through gdb when it is installed);
- a snooze's round trip (median of 7) and the daemon's CPU over them with 100k items, without
  a panel and then with one (a StatusNotifierWatcher, sni_watcher.py, that the panel indicator
  registers with), in the same run on the same store.

    bash scripts/bench-daemon.sh [--quick]      (builds release binaries, then runs this)

--quick (what the test command runs) uses 200 requests per client, 10k items at most, 10 s
idle, 10 rounds of reads over 2k items and the snoozes over 10k, and prints the same table. --memory runs only the
memory figures; --compare DIR measures them also for DIR/reminderd (an older build) in the same
run, on the same store.
"""
import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from conftest import BIN, SYSTEM_PYTHON, Bus, Daemon, NotificationServer, wait_for

TARGET_P99_RATIO = 10
TARGET_READY_SECONDS = 1.0
TARGET_MEMORY_RATIO = 1.15


def seed_items(count):
    """`count` items of every kind whose reminders all fall in 2027 or later, so none fires
    while the idle figure is measured."""
    makers = [
        lambda n: {"kind": "subscription", "title": f"Subscription {n}", "amount": "9.99", "every": "1mo",
                   "next": "2027-%02d-%02d" % (n % 12 + 1, n % 28 + 1)},
        lambda n: {"kind": "coupon", "title": f"Coupon {n}", "expires": "2027-%02d-%02dT18:00" % (n % 12 + 1, n % 28 + 1)},
        lambda n: {"kind": "fee", "title": f"Fee {n}", "amount": "95", "due": "2027-%02d-%02d" % (n % 12 + 1, n % 28 + 1)},
        lambda n: {"kind": "rebuy", "title": f"Rebuy {n}", "everyDays": 365, "lastPurchased": "2026-%02d-%02d" % (n % 6 + 1, n % 28 + 1)},
    ]
    return [makers[n % len(makers)](n) for n in range(count)]


def call(path, method, **parameters):
    with socket.socket(socket.AF_UNIX) as client:
        client.connect(str(path))
        client.sendall(json.dumps({"method": "io.reminderd.Reminders." + method, "parameters": parameters}).encode() + b"\0")
        data = b""
        while not data.endswith(b"\0"):
            chunk = client.recv(1 << 20)
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
    reply = json.loads(data[:-1])
    if "error" in reply:
        raise RuntimeError(f"{method}: {reply}")
    return reply["parameters"]


def import_items(daemon, items):
    for start in range(0, len(items), 2000):  # requests stay well under the 1 MiB limit
        call(daemon.socket_path, "Import", items=items[start:start + 2000])


def thread_switches(pid):
    counts = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            lines = (task / "status").read_text().splitlines()
        except FileNotFoundError:
            continue
        counts[task.name] = sum(int(line.split()[1]) for line in lines if line.startswith(("voluntary_ctxt", "nonvoluntary_ctxt")))
    return counts


def idle_switches(pid, seconds):
    """Context switches of every daemon thread over `seconds`, threads born meanwhile included."""
    first = thread_switches(pid)
    last = dict(first)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(0.5)
        for tid, count in thread_switches(pid).items():
            first.setdefault(tid, 0)
            last[tid] = count
    return sum(last[tid] - first[tid] for tid in last)


def ready_seconds(daemon):
    """A restart's time to READY=1, with the RSS once ready."""
    daemon.stop()
    started = time.perf_counter()
    daemon.start()
    ready = time.perf_counter() - started
    rss = next(int(line.split()[1]) for line in Path(f"/proc/{daemon.process.pid}/status").read_text().splitlines()
               if line.startswith("VmRSS:"))
    return ready, rss


def status_kib(pid, field):
    return next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                if line.startswith(field + ":"))


def anon_kib(pid):
    """The process's anonymous resident memory (heap, stacks), in KiB: what reads can leave behind."""
    return status_kib(pid, "RssAnon")


def malloc_free_kib(daemon):
    """What glibc's malloc has from the kernel but has not handed out (free chunks in every
    arena, the top chunks included), in KiB: malloc_stats() called in the daemon through gdb,
    read from its log. Pages that malloc_trim gave back inside a free chunk still count here
    (they are not resident: RssAnon says what is). None without gdb or when the call fails."""
    gdb = shutil.which("gdb")
    if gdb is None:
        return None
    log = daemon.tmp / "daemon.log"
    start = log.stat().st_size
    result = subprocess.run([gdb, "-p", str(daemon.process.pid), "-batch", "-nx", "-ex", "call (void) malloc_stats()"],
                            capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        return None
    time.sleep(0.2)
    with open(log, "rb") as text:
        text.seek(start)
        lines = text.read().decode(errors="replace").splitlines()
    try:
        total = lines.index("Total (incl. mmap):")
        system = int(lines[total + 1].split("=")[1])
        in_use = int(lines[total + 2].split("=")[1])
    except (ValueError, IndexError):
        return None
    return (system - in_use) // 1024


def memory_after_reads(daemon, program, rounds, stats):
    """RssAnon of `program` serving the store `daemon` holds: idle after start-up, then after
    `rounds` rounds of `reminderctl list`, `summary` and `export` (one client at a time, as a
    person or a status bar would ask), with malloc's free bytes when `stats`."""
    daemon.stop()
    daemon.program = program
    daemon.start()
    time.sleep(2)  # past start-up's one-off work
    pid = daemon.process.pid
    idle = anon_kib(pid)
    idle_rss = status_kib(pid, "VmRSS")
    Path(f"/proc/{pid}/clear_refs").write_text("5")  # VmHWM starts again from the RSS now
    for _ in range(rounds):
        for command in (["list"], ["summary"], ["export"]):
            daemon.ctl(*command)
    time.sleep(1)
    after = anon_kib(pid)
    # The peak RSS (file pages too) during the reads, and the RSS at idle it rose from.
    peak = status_kib(pid, "VmHWM")
    return {"idle": idle, "after": after, "ratio": after / idle, "peak": peak, "idleRss": idle_rss,
            "free": malloc_free_kib(daemon) if stats else None}


def memory(tmp, bus, size, rounds, programs, stats=True):
    """`memory_after_reads` for each program (its name → figures) on one store of `size` items."""
    (tmp / "memory").mkdir()
    daemon = Daemon(tmp / "memory", bus, {"timeZone": "America/New_York"})
    figures = {}
    try:
        daemon.start()
        import_items(daemon, seed_items(size))
        for name, program in programs.items():
            figures[name] = memory_after_reads(daemon, program, rounds, stats)
    finally:
        daemon.stop()
    return figures


def cpu_seconds(pid):
    """The process's user and system CPU time so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def snoozes(daemon, ids):
    """A Snooze round trip's median in ms over `ids` (one each), the daemon's CPU seconds over
    them and its RssAnon after."""
    before, took = cpu_seconds(daemon.process.pid), []
    for item in ids:
        start = time.perf_counter()
        call(daemon.socket_path, "Snooze", id=item, duration="1h")
        took.append(time.perf_counter() - start)
    return {"medianMs": statistics.median(took) * 1000, "cpu": cpu_seconds(daemon.process.pid) - before,
            "rssAnon": anon_kib(daemon.process.pid)}


def panel(tmp, bus, size):
    """`snoozes` on `size` items without a panel, then with a StatusNotifierWatcher on the bus."""
    (tmp / "panel").mkdir()
    daemon = Daemon(tmp / "panel", bus, {"timeZone": "America/New_York"})
    watcher = None
    try:
        daemon.start()
        items = seed_items(size)
        ids = []
        for start in range(0, len(items), 2000):
            ids += call(daemon.socket_path, "Import", items=items[start:start + 2000])["ids"]
        figures = {"items": size, "none": snoozes(daemon, ids[:7])}
        log = tmp / "panel" / "watcher.log"
        log.write_text("")
        watcher = subprocess.Popen([SYSTEM_PYTHON, str(Path(__file__).parent / "sni_watcher.py"), str(log)],
                                   env={"DBUS_SESSION_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin"},
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: '"service"' in log.read_text(), timeout=60, what="the indicator's registration")
        call(daemon.socket_path, "Status")  # after the indicator's first composition, queued before it
        figures["panel"] = snoozes(daemon, ids[7:14])
        return figures
    finally:
        if watcher:
            watcher.terminate()
            watcher.wait(5)
        daemon.stop()


def load(path, clients, requests, echo):
    result = subprocess.run([str(BIN / "reminder-load"), "run", str(path), str(clients), str(requests)]
                            + (["--echo"] if echo else []), capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        raise RuntimeError(result.stderr)
    return json.loads(result.stdout)


def memory_settings(quick):
    """Items, rounds: 10k items and 30 rounds; the quick form 2k and 10 (a few seconds)."""
    return (2_000, 10) if quick else (10_000, 30)


def run(quick=False, memory_only=False, compare=None):
    """Measures everything; returns the figures (and prints the table)."""
    requests = 200 if quick else 1000
    idle = 10 if quick else 60
    sizes = [0, 10_000] if quick else [0, 10_000, 100_000]
    tmp = Path(tempfile.mkdtemp(prefix="reminderd-bench-"))
    bus = Bus(tmp)
    server = NotificationServer(bus, tmp / "notify.log")
    programs = {"reminderd": BIN / "reminderd"}
    if compare:
        programs[f"{compare}/reminderd"] = Path(compare) / "reminderd"
    if memory_only:
        try:
            figures = {"memory": memory(tmp, bus, *memory_settings(quick), programs, stats=not quick)}
        finally:
            server.stop()
            bus.stop()
        print_memory(figures["memory"], *memory_settings(quick))
        return figures
    daemon = Daemon(tmp, bus, {"timeZone": "America/New_York"})
    echo = subprocess.Popen([str(BIN / "reminder-load"), "echo", str(tmp / "echo.sock")])
    figures = {"ready": {}}
    try:
        figures["memory"] = memory(tmp, bus, *memory_settings(quick), programs, stats=not quick)
        figures["panel"] = panel(tmp, bus, sizes[-1])
        daemon.start()
        import_items(daemon, seed_items(100))
        figures["echo"] = load(tmp / "echo.sock", 64, requests, echo=True)
        figures["reminderd"] = load(daemon.socket_path, 64, requests, echo=False)
        call(daemon.socket_path, "Status")
        for size in sizes:
            daemon.stop()
            for suffix in ("", "-wal", "-shm"):
                Path(str(tmp / "data" / "reminderd" / "reminderd.sqlite") + suffix).unlink(missing_ok=True)
            daemon.start()
            import_items(daemon, seed_items(size))
            figures["ready"][size] = ready_seconds(daemon)
            if size == 10_000:
                time.sleep(5)  # past start-up's one-off work (GSettings' dconf worker settles)
                figures["idle"] = idle_switches(daemon.process.pid, idle)
    finally:
        echo.kill()
        daemon.stop()
        server.stop()
        bus.stop()
    print_table(figures, requests, idle, quick)
    return figures


def print_memory(figures, size, rounds):
    print(f"Anonymous memory (RssAnon), {size // 1000}k items, idle after start-up and after {rounds} rounds of "
          f"list, summary, export (target ≤ {TARGET_MEMORY_RATIO}× idle):")
    for name, f in figures.items():
        free = "" if f["free"] is None else f"; free in malloc's arenas {f['free'] / 1024:.1f} MiB (trimmed pages too)"
        print(f"  {name}: idle {f['idle'] / 1024:.1f} MiB, after {f['after'] / 1024:.1f} MiB, "
              f"ratio {f['ratio']:.2f}×, peak RSS {f['peak'] / 1024:.1f} MiB (RSS at idle {f['idleRss'] / 1024:.1f}){free}")


def print_table(figures, requests, idle, quick=False):
    d, e = figures["reminderd"], figures["echo"]
    print(f"\nBinaries: {BIN}")
    print(f"Load: 64 clients × {requests} mixed requests (70% reads; adds, edits, removes)")
    print(f"  {'':10} {'req/s':>9} {'p50 µs':>9} {'p99 µs':>9} {'max µs':>9} {'errors':>7}")
    for name, f in (("reminderd", d), ("raw echo", e)):
        print(f"  {name:10} {f['perSecond']:9.0f} {f['p50Microseconds']:9.0f} {f['p99Microseconds']:9.0f} "
              f"{f['maxMicroseconds']:9.0f} {f['errors']:7d}")
    ratio = d["p99Microseconds"] / e["p99Microseconds"]
    print(f"  p99 ratio {ratio:.1f}× (target ≤ {TARGET_P99_RATIO}×); p50 ratio "
          f"{d['p50Microseconds'] / e['p50Microseconds']:.1f}×; throughput {e['perSecond'] / d['perSecond']:.1f}× lower")
    print("Start-up to READY=1:")
    for size, (ready, rss) in figures["ready"].items():
        print(f"  {size:>7} items: {ready * 1000:6.0f} ms (target ≤ {TARGET_READY_SECONDS * 1000:.0f} ms), RSS {rss / 1024:.0f} MiB")
    p = figures["panel"]
    print(f"Snooze, {p['items'] // 1000}k items, median of 7 round trips: "
          f"{p['none']['medianMs']:.1f} ms without a panel ({p['none']['cpu']:.2f} s daemon CPU, RssAnon "
          f"{p['none']['rssAnon'] / 1024:.1f} MiB), {p['panel']['medianMs']:.1f} ms with one ({p['panel']['cpu']:.2f} s, "
          f"{p['panel']['rssAnon'] / 1024:.1f} MiB)")
    print(f"Idle: {figures['idle']} context switches of all daemon threads over {idle} s with 10k items scheduled (goal 0)")
    print_memory(figures["memory"], *memory_settings(quick))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--memory", action="store_true", help="only the memory figures")
    parser.add_argument("--compare", metavar="DIR", help="also measure DIR/reminderd's memory, in the same run")
    arguments = parser.parse_args()
    run(arguments.quick, arguments.memory, arguments.compare)
