#!/usr/bin/env bash
# Runs every test: installs what is missing, builds everything (the benchmark included), runs
# the unit, property and command-line tests, then the end-to-end tests against real processes
# (a private D-Bus bus, the dbusmock notification server, reminderd and reminderctl); the
# fuzzers run for a bounded time beside the latter.
set -euo pipefail
cd "$(dirname "$0")/.."
REMINDERD_SETUP=test source scripts/setup.sh
# The end-to-end tests' Python packages live in a virtual environment of the tests' own, so the
# system's Python is left as it was (dbusmock itself is Debian's python3-dbusmock).
python=.build-venv/bin/python3
[ -x "$python" ] || python3 -m venv .build-venv
"$python" -c "import pytest, xdist, varlink, pexpect, icalendar, recurring_ical_events, radicale, xandikos, holidays" 2>/dev/null \
  || "$python" -m pip install --quiet --disable-pip-version-check pytest pytest-xdist varlink pexpect icalendar recurring-ical-events \
    radicale==3.9.0 xandikos==0.4.10 holidays==0.109  # holidays: test_holiday_table.py, the version HolidayTable.swift names
swift_build --build-tests
# The package's static release build (test_package.py installs the package; it needs root) runs
# at the lowest priority beside the unit tests, which wait on timers and processes more than they
# compute (71 s of CPU over the 57 s they take on CI's two cores): the end-to-end tests then find
# it built. From a clean clone it takes 308 s of CPU.
package=
if [ "$(id -u)" = 0 ]; then
  mkdir -p .build-deb
  DPKG_DEB_COMPRESSOR_LEVEL=0 nice -n 19 scripts/package-deb.sh > .build-deb/prebuild.log 2>&1 & package=$!
fi
# The CalDAV server tests start Radicale and Xandikos from this venv (their default too).
export REMINDERD_TEST_VENV="$PWD/.build-venv"
swift test --skip-build "$@"
if [ -n "$package" ] && ! wait "$package"; then
  tail -40 .build-deb/prebuild.log >&2
  echo "test: scripts/package-deb.sh failed (its output: .build-deb/prebuild.log)" >&2
  exit 1
fi
# The fuzzers (FUZZ_SECONDS, default 20, per target, one after another on one core) run beside the
# end-to-end tests at the lowest priority: those mostly wait on timers and pop-ups (their whole run
# kept a third of one core busy, 2026-11-28), so the fuzzers' ~2.5 minutes, build included, no
# longer come before them. Their summary follows the tests' (.build-fuzz/run.log).
mkdir -p .build-fuzz
nice -n 19 scripts/fuzz.sh > .build-fuzz/run.log 2>&1 & fuzz=$!
# REMINDERD_TEST_AT=2026-11-30T23:30:00Z: the end-to-end tests as if it were then (scripts/e2e-at.sh).
# The slowest tests are named at the end, to keep the whole run under 15 minutes in view. Most
# end-to-end tests wait on timers and pop-ups rather than compute, so two files run at a time
# (pytest-xdist; a file's tests share one worker, as test_package's share the package it builds;
# REMINDERD_E2E_WORKERS=1 runs one at a time); a test clock's run is one process, as libfaketime
# is preloaded into pytest itself.
status=0
if [ -n "${REMINDERD_TEST_AT:-}" ]; then
  scripts/e2e-at.sh -q --durations=15 Tests/EndToEnd || status=$?
else
  "$python" -m pytest -q --durations=15 -n "${REMINDERD_E2E_WORKERS:-2}" --dist loadfile Tests/EndToEnd || status=$?
fi
if wait "$fuzz"; then
  cat .build-fuzz/run.log >&2
else
  tail -40 .build-fuzz/run.log >&2
  echo "test: scripts/fuzz.sh failed (its output: .build-fuzz/run.log; a crash's input in .build-fuzz/findings/)" >&2
  status=1
fi
exit "$status"
