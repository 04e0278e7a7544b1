#!/usr/bin/env bash
# Regenerates docs/WALKTHROUGHS.md's generated part from a real run (scripts/walkthrough.py says
# how): builds reminderd and reminderctl with LLVM's coverage counters in .build-cov, then runs
# each journey with and without its action and keeps what ran more often with it.
#   scripts/walkthrough.sh          rewrite the document
#   scripts/walkthrough.sh --check  exit 1, with a diff, when the document is not what a run gives
set -euo pipefail
cd "$(dirname "$0")/.."
REMINDERD_SETUP=test source scripts/setup.sh
for product in reminderd reminderctl; do
  swift_build --enable-code-coverage --build-path .build-cov --product "$product"
done
python=${REMINDERD_TEST_VENV:-$PWD/.build-venv}/bin/python3  # scripts/test.sh makes it
exec "$python" scripts/walkthrough.py "$@"
