#!/usr/bin/env bash
# Why the daemon avoids Swift Concurrency, measured: a tiny program idles in dispatchMain(), once
# as is and once after one `Task {}` has run, and the context switches of all its threads
# (/proc/PID/task/*/status, voluntary + involuntary) are counted over SECONDS (default 60) after
# a 2 s settle. The figures go in docs/ARCHITECTURE.md ("No async, no Swift Concurrency").
# Usage: scripts/idle-wakeups.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
REMINDERD_SETUP=test source scripts/setup.sh >/dev/null
seconds=${1:-60}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/idle.swift" <<'SWIFT'
import Dispatch

// "task": start Swift Concurrency once, as any `async` entry point or `Task` would.
if CommandLine.arguments.dropFirst().first == "task" {
    Task { print("a task ran") }
}
dispatchMain()
SWIFT
swiftc -O "$work/idle.swift" -o "$work/idle"

switches() {  # all threads' context switches of process $1
    cat /proc/"$1"/task/*/status | awk '/ctxt_switches/ { n += $2 } END { print n }'
}

for mode in plain task; do
    "$work/idle" "$mode" >/dev/null &
    pid=$!
    sleep 2
    before=$(switches "$pid")
    sleep "$seconds"
    after=$(switches "$pid")
    threads=$(ls /proc/"$pid"/task | wc -l)
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    echo "$mode: $((after - before)) context switches in ${seconds} s idle ($threads threads)"
done
