#!/usr/bin/env bash
# Runs every test: installs what is missing, builds everything (the benchmark included), runs
# the unit, property and command-line tests, then the end-to-end tests against real processes
# (a private D-Bus bus, the dbusmock notification server, reminderd and reminderctl); the
# fuzzers run for a bounded time between the two.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
python3 -c "import pytest, varlink, pexpect, icalendar, recurring_ical_events" 2>/dev/null \
  || python3 -m pip install --quiet --disable-pip-version-check pytest varlink pexpect icalendar recurring-ical-events
swift build --build-tests
swift test --skip-build "$@"
scripts/fuzz.sh  # FUZZ_SECONDS (default 20) per target
python3 -m pytest -q Tests/EndToEnd
