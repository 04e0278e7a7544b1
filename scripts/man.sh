#!/usr/bin/env bash
# Regenerates man/reminderctl.1, man/reminderd.1 and man/reminderd-sync.1 from the commands' help with
# swift-argument-parser's manual generator (man/reminderd.conf.5 is written by hand).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift package --allow-writing-to-package-directory generate-manual --configuration debug --section 1 \
  --authors "reminderd developers" >&2
# A paragraph break in a command's discussion comes out as an empty line, which groff (and
# lintian's groff-message) warns about; .Pp is mdoc's paragraph break.
for page in reminderctl/reminderctl.1 reminderd/reminderd.1 reminderd-sync/reminderd-sync.1; do
  sed 's/^$/.Pp/' ".build/plugins/GenerateManual/outputs/$page" > "man/$(basename "$page")"
done
echo "man pages updated in man/" >&2
