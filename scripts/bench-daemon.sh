#!/usr/bin/env bash
# The daemon's load and cost figures beside same-run baselines (Tests/EndToEnd/bench_daemon.py):
# 64 clients × 1,000 requests vs a raw socket echo, start-up to READY=1 with 0/10k/100k items,
# RSS, idle context switches, anonymous memory before and after 30 rounds of reads. Release
# binaries; --quick for a shorter run, --memory for the memory figures alone.
set -euo pipefail
cd "$(dirname "$0")/.."
REMINDERD_SETUP=test source scripts/setup.sh
swift build -c release --static-swift-stdlib --product reminderd >&2
swift build -c release --static-swift-stdlib --product reminderctl >&2
swift build -c release --static-swift-stdlib --product reminder-load >&2
REMINDERD_BIN="$PWD/.build/release" exec python3 Tests/EndToEnd/bench_daemon.py "$@"
