#!/usr/bin/env python3
"""The daemon's load and cost figures, each beside its baseline measured in the same run:

- 64 concurrent clients × 1,000 mixed requests (`reminder-load`): throughput, p50/p99/max
  latency and errors, next to the same clients against a raw Unix-socket echo server;
- start-up time to READY=1 with 0, 10k and 100k stored items, and the RSS with 100k;
- context switches of every daemon thread over 60 s idle with 10k items scheduled (no
  watchdog).

    bash scripts/bench-daemon.sh [--quick]      (builds release binaries, then runs this)

--quick (what the test command runs) uses 200 requests per client, 10k items at most and 10 s
idle, and prints the same table.
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from conftest import BIN, Bus, Daemon, NotificationServer

TARGET_P99_RATIO = 10
TARGET_READY_SECONDS = 1.0


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


def load(path, clients, requests, echo):
    result = subprocess.run([str(BIN / "reminder-load"), "run", str(path), str(clients), str(requests)]
                            + (["--echo"] if echo else []), capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        raise RuntimeError(result.stderr)
    return json.loads(result.stdout)


def run(quick=False):
    """Measures everything; returns the figures (and prints the table)."""
    requests = 200 if quick else 1000
    idle = 10 if quick else 60
    sizes = [0, 10_000] if quick else [0, 10_000, 100_000]
    tmp = Path(tempfile.mkdtemp(prefix="reminderd-bench-"))
    bus = Bus(tmp)
    server = NotificationServer(bus, tmp / "notify.log")
    daemon = Daemon(tmp, bus, {"timeZone": "America/New_York"})
    echo = subprocess.Popen([str(BIN / "reminder-load"), "echo", str(tmp / "echo.sock")])
    figures = {"ready": {}}
    try:
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
    print_table(figures, requests, idle)
    return figures


def print_table(figures, requests, idle):
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
    print(f"Idle: {figures['idle']} context switches of all daemon threads over {idle} s with 10k items scheduled (goal 0)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    run(parser.parse_args().quick)
