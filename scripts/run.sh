#!/usr/bin/env bash
# Builds reminderctl (release) and runs it with the given arguments. Without arguments it shows
# the plan of examples/items.json for the next 60 days under config.example.json's settings.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build -c release --product reminderctl >&2
if [ $# -eq 0 ]; then
  set -- plan --config config.example.json --items examples/items.json \
    --from "$(date +%F)" --to "$(date -d '+60 days' +%F)"
fi
exec .build/release/reminderctl "$@"
