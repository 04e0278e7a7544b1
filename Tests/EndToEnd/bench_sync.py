#!/usr/bin/env python3
"""Sync's figures, by hand (not part of the test run): two devices (reminderd + reminderd-sync
each, real binaries from .build/debug or $REMINDERD_BIN) on a Radicale on 127.0.0.1, behind
conftest's counting proxy.

    .build-venv/bin/python3 Tests/EndToEnd/bench_sync.py [--items 1000] [--rounds 10] [--idle 10]

Prints:
- latency: from `reminderctl sync now` on A to the change visible on B (B runs `sync now` right
  after; the issue's target: ≤ 5 s on loopback);
- the first push of N items, and then an idle pass of N items with nothing changed: its HTTP
  requests by method (target: 1, the sync-collection) and the CPU time of reminderd-sync
  (utime + stime from /proc/PID/stat; target < 50 ms);
- reminderd-sync idle for --idle seconds between passes: its context switches (target: 0).
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import BIN, Dav, DavProxy, DavServer, SyncDevice, wait_for  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_ms(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / TICKS  # utime, stime


def switches(pid):
    """Voluntary and involuntary context switches of every thread of `pid`."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        for line in (task / "status").read_text().splitlines():
            if "ctxt_switches:" in line:
                total += int(line.split()[1])
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--idle", type=float, default=10.0)
    options = parser.parse_args()
    if not (BIN / "reminderd-sync").exists():
        sys.exit(f"{BIN / 'reminderd-sync'} is not built: swift build first")
    tmp = Path(tempfile.mkdtemp(prefix="bench-sync-"))
    server = DavServer(tmp / "radicale")
    proxy = DavProxy(server.port)
    Dav(server.url).make_task_list(server.collection_url())
    devices = []
    try:
        a = SyncDevice(tmp, "A", proxy.url)
        devices.append(a)
        a.start()
        b = SyncDevice(tmp, "B", proxy.url)
        devices.append(b)
        b.start()

        item = a.ctl_json("add", "benefit", "Latency credit", "--card", "Bench Card", "--amount", "10",
                          "--period", "monthly")["id"]
        a.sync_now()
        b.sync_now()
        latencies = []
        for round_ in range(options.rounds):
            note = f"round {round_}"
            a.ctl("edit", item, "--notes", note)
            start = time.monotonic()
            a.sync_now()
            b.sync_now()
            wait_for(lambda: any(i.get("notes") == note for i in b.items()), timeout=30, interval=0.01,
                     what="the change on B")
            latencies.append(time.monotonic() - start)
        print(f"latency, sync now on A → visible on B ({options.rounds} rounds): "
              f"median {statistics.median(latencies) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms "
              f"(target ≤ 5000 ms)")

        items = [{"kind": "coupon", "title": f"Bench coupon {n:04}", "expires": "2027-06-01", "value": "5"}
                 for n in range(options.items - 1)]
        (tmp / "items.json").write_text(json.dumps(items))
        a.ctl("import", str(tmp / "items.json"))
        start = time.monotonic()
        wait_for(lambda: a.sync_now() and a.sync_status()["waiting"] == 0, timeout=600, interval=0,
                 what=f"the first push of {options.items} items")
        print(f"first push of {options.items} items: {time.monotonic() - start:.1f} s, "
              f"{proxy.count('PUT')} PUTs")

        b.sync_now()  # B takes them too, so that both are idle
        pid = a.sync_process.pid
        with proxy.lock:
            proxy.requests.clear()
        before = cpu_ms(pid)
        a.sync_now()
        used = cpu_ms(pid) - before
        methods = Counter(method for method, _, _ in proxy.requests)
        print(f"idle pass, {options.items} items, nothing changed: {sum(methods.values())} requests "
              f"({', '.join(f'{m} {n}' for m, n in sorted(methods.items()))}; target 1), "
              f"reminderd-sync CPU {used:.0f} ms (target < 50 ms; /proc ticks of {1000 / TICKS:.0f} ms)")

        wait_for(lambda: a.sync_status()["connected"], what="A's reminderd-sync waiting again")
        time.sleep(0.5)  # let the pass's last replies settle before counting
        before = switches(pid)
        time.sleep(options.idle)
        print(f"reminderd-sync idle {options.idle:.0f} s: {switches(pid) - before} context switches (target 0)")
    finally:
        for device in devices:
            device.stop()
        proxy.stop()
        server.stop()


if __name__ == "__main__":
    main()
