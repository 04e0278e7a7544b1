#!/usr/bin/env bash
# How heavy reminderd is beside remind and calcurse (issue 21), in one run: the package's size,
# what reminderctl loads and the instructions it runs, plan's table beside its JSON
# (Tests/EndToEnd/bench_light.py). Builds the package first (scripts/package-deb.sh), so the
# figures are the shipped, stripped binaries'. --quick: fewer items for plan.
set -euo pipefail
cd "$(dirname "$0")/.."
REMINDERD_SETUP=bench source scripts/setup.sh
deb=$(bash scripts/package-deb.sh | tail -1)  # at its own compression level (9), as shipped
# The binaries as the package installs them (stripped; reminderd-sync a link).
rm -rf .build-deb/bench-root && dpkg-deb -x "$deb" .build-deb/bench-root
REMINDERD_BIN="$PWD/.build-deb/bench-root/usr/bin" exec python3 Tests/EndToEnd/bench_light.py "$@"
