#!/usr/bin/env bash
# Regenerates man/reminderctl.1, man/reminderd.1 and man/reminderd-sync.1 from the commands' help with
# swift-argument-parser's manual generator (man/reminderd.conf.5 is written by hand).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift package --allow-writing-to-package-directory generate-manual --configuration debug --section 1 \
  --authors "reminderd developers" >&2
cp .build/plugins/GenerateManual/outputs/reminderctl/reminderctl.1 man/
cp .build/plugins/GenerateManual/outputs/reminderd/reminderd.1 man/
cp .build/plugins/GenerateManual/outputs/reminderd-sync/reminderd-sync.1 man/
echo "man pages updated in man/" >&2
