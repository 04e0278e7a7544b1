#!/usr/bin/env bash
# Runs every test: installs what is missing, builds everything (the benchmark included), and
# runs the unit, property and command-line tests.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build --build-tests
swift test --skip-build "$@"
