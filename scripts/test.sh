#!/usr/bin/env bash
# Runs every test: installs what is missing, builds everything (the benchmark included), runs
# the unit, property and command-line tests, then the end-to-end tests against real processes
# (a private D-Bus bus, the dbusmock notification server, reminderd and reminderctl); the
# fuzzers run for a bounded time between the two.
set -euo pipefail
cd "$(dirname "$0")/.."
REMINDERD_SETUP=test source scripts/setup.sh
# The end-to-end tests' Python packages live in a virtual environment of the tests' own, so the
# system's Python is left as it was (dbusmock itself is Debian's python3-dbusmock).
python=.build-venv/bin/python3
[ -x "$python" ] || python3 -m venv .build-venv
"$python" -c "import pytest, varlink, pexpect, icalendar, recurring_ical_events, radicale, xandikos" 2>/dev/null \
  || "$python" -m pip install --quiet --disable-pip-version-check pytest varlink pexpect icalendar recurring-ical-events \
    radicale==3.9.0 xandikos==0.4.10
swift_build --build-tests
# The CalDAV server tests start Radicale and Xandikos from this venv (their default too).
export REMINDERD_TEST_VENV="$PWD/.build-venv"
swift test --skip-build "$@"
scripts/fuzz.sh  # FUZZ_SECONDS (default 20) per target
# REMINDERD_TEST_AT=2026-11-30T23:30:00Z: the end-to-end tests as if it were then (scripts/e2e-at.sh).
# The slowest tests are named at the end, to keep the whole run under 15 minutes in view.
if [ -n "${REMINDERD_TEST_AT:-}" ]; then
  scripts/e2e-at.sh -q --durations=15 Tests/EndToEnd
else
  "$python" -m pytest -q --durations=15 Tests/EndToEnd
fi
