#!/usr/bin/env python3
"""Figures for the closing note and the README, measured on the real daemon (not a test):
start-up time to READY=1, idle wake-ups (context switches of every daemon thread) over a
minute with items scheduled, and the round-trip time of a Status request next to a raw
Unix-socket round trip measured in the same run.

    python3 Tests/EndToEnd/measure_daemon.py [--idle-seconds 60]
"""
import argparse
import json
import os
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

from conftest import Bus, Daemon, NotificationServer


def thread_switches(pid):
    """Context switches so far of each live thread, by thread id."""
    counts = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            lines = (task / "status").read_text().splitlines()
        except FileNotFoundError:
            continue  # the thread just exited
        counts[task.name] = sum(int(line.split()[1]) for line in lines if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")))
    return counts


def idle_wakeups(pid, seconds):
    """Context switches of every daemon thread over `seconds`, threads that come or go included:
    sampled twice a second, each thread counted from its first sample (0 if it was born meanwhile)."""
    first = thread_switches(pid)
    last = dict(first)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(0.5)
        for tid, count in thread_switches(pid).items():
            first.setdefault(tid, 0)
            last[tid] = count
    return sum(last[tid] - first[tid] for tid in last)


def round_trips(path, payload, count):
    client = socket.socket(socket.AF_UNIX)
    client.connect(str(path))
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        client.sendall(payload)
        data = b""
        while not data.endswith(b"\0"):
            data += client.recv(65536)
        samples.append(time.perf_counter() - start)
    client.close()
    return samples


def echo_server(path):
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(path))
    listener.listen(1)

    def serve():
        connection, _ = listener.accept()
        while True:
            data = connection.recv(65536)
            if not data:
                return
            connection.sendall(data)

    threading.Thread(target=serve, daemon=True).start()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--idle-seconds", type=int, default=60)
    arguments = parser.parse_args()
    tmp = Path(tempfile.mkdtemp())
    bus = Bus(tmp)
    server = NotificationServer(bus, tmp / "notify.log")
    daemon = Daemon(tmp, bus)
    try:
        started = time.perf_counter()
        daemon.start()
        ready = time.perf_counter() - started
        print(f"start-up to READY=1 (empty store): {ready * 1000:.0f} ms")
        for n in range(200):
            daemon.ctl("add", "benefit", f"Credit {n}", "--amount", "15", "--period", "monthly")
        daemon.stop()
        started = time.perf_counter()
        daemon.start()
        print(f"start-up to READY=1 (200 items): {(time.perf_counter() - started) * 1000:.0f} ms")
        time.sleep(1)
        wakeups = idle_wakeups(daemon.process.pid, arguments.idle_seconds)
        print(f"idle wake-ups over {arguments.idle_seconds} s with 200 items scheduled: {wakeups} context switches")
        payload = json.dumps({"method": "io.reminderd.Reminders.Status"}).encode() + b"\0"
        daemon_samples = round_trips(daemon.socket_path, payload, 2000)
        echo_path = tmp / "echo.sock"
        echo_server(echo_path)
        echo_samples = round_trips(echo_path, payload, 2000)
        for name, samples in (("Status request", daemon_samples), ("raw socket echo", echo_samples)):
            samples.sort()
            print(f"{name}: p50 {statistics.median(samples) * 1e6:.0f} µs, p99 {samples[int(len(samples) * 0.99)] * 1e6:.0f} µs")
        print(f"p50 ratio: {statistics.median(daemon_samples) / statistics.median(echo_samples):.1f}×")
    finally:
        daemon.stop()
        server.stop()
        bus.stop()


if __name__ == "__main__":
    main()
