#!/usr/bin/env bash
# Runs the end-to-end tests as if it were REMINDERD_TEST_AT (any instant `date -d` reads, e.g.
# 2026-11-30T23:30:00Z): pytest under libfaketime shifted by the difference (its datetime.now(),
# time.time() and date.today() then read that instant), and reminderd and reminderctl told the same
# shift through REMINDERD_TEST_CLOCK_SHIFT (see Tests/EndToEnd/conftest.py). The arguments go to
# pytest, with paths from the repository's root (default: -q Tests/EndToEnd). Uses
# $REMINDERD_TEST_VENV's Python (default .build-venv).
#   REMINDERD_TEST_AT=2026-11-30T23:30:00Z scripts/e2e-at.sh -q Tests/EndToEnd -x
set -euo pipefail
cd "$(dirname "$0")/.."
at=${REMINDERD_TEST_AT:?"set REMINDERD_TEST_AT to the instant to run at, e.g. 2026-11-30T23:30:00Z"}
target=$(date -d "$at" +%s) || { echo "e2e-at: REMINDERD_TEST_AT=\"$at\" is not an instant date(1) reads" >&2; exit 2; }
command -v faketime >/dev/null || { echo "e2e-at: faketime missing (scripts/setup.sh installs it)" >&2; exit 2; }
venv=${REMINDERD_TEST_VENV:-$PWD/.build-venv}
export REMINDERD_TEST_VENV=$venv
export REMINDERD_TEST_CLOCK_SHIFT=$((target - $(date +%s)))
# The monotonic clock stays real, so timeouts and waits keep their lengths.
export FAKETIME_DONT_FAKE_MONOTONIC=1
echo "e2e-at: running at $(date -u -d "@$target" +%Y-%m-%dT%H:%M:%SZ) (shift ${REMINDERD_TEST_CLOCK_SHIFT}s)" >&2
[ $# -gt 0 ] || set -- -q Tests/EndToEnd
exec faketime -f "+${REMINDERD_TEST_CLOCK_SHIFT}s" "$venv/bin/python3" -m pytest "$@"
