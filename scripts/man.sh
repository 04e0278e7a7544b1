#!/usr/bin/env bash
# Regenerates man/reminderctl.1, man/reminderd.1 and man/reminderd-sync.1 from the commands' help with
# swift-argument-parser's manual generator, with each page's EXIT STATUS, FILES and SEE ALSO from
# man/sections/ (man/reminderd.conf.5 is written by hand).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift package --allow-writing-to-package-directory generate-manual --configuration debug --section 1 \
  --authors "reminderd developers" >&2
# A paragraph break in a command's discussion comes out as an empty line, which groff (and
# lintian's groff-message) warns about; .Pp is mdoc's paragraph break.
# The generator gives every command a `help` subcommand, which reminderd and reminderd-sync do not
# have (`reminderd-sync help` is an error): on a page whose only subcommand is that one, the
# synopsis's `subcommand` and the `help` entry (up to the end of its nested list) are dropped.
# reminderd-sync runs without one (its subcommand `setup` is what `reminderctl sync setup` runs):
# its synopsis's `subcommand` is optional.
for page in reminderctl/reminderctl.1 reminderd/reminderd.1 reminderd-sync/reminderd-sync.1; do
  awk -v optional="$([ "$page" = reminderd-sync/reminderd-sync.1 ] && echo 1)" '
    { lines[NR] = $0 }
    /^\.It Em / && $3 != "help" { others = 1 }
    END {
      for (n = 1; n <= NR; n++) {
        line = lines[n]
        if (!others && line == ".Ar subcommand") continue
        if (optional && line == ".Ar subcommand") line = ".Op Ar subcommand"
        if (!others && line == ".It Em help") { skipping = 1 }
        if (skipping) { if (line == ".El") skipping = 0; continue }
        printf "%s%s", (printed++ ? "\n" : ""), (line == "" ? ".Pp" : line)
      }
    }' ".build/plugins/GenerateManual/outputs/$page" > "man/$(basename "$page")"
  # The generator's EXIT STATUS is mdoc's generic ".Ex -std"; each page's own exit statuses, FILES
  # and SEE ALSO (man/sections/PAGE, by hand) take its place, before AUTHORS.
  name=$(basename "$page")
  awk -v sections="man/sections/$name" '
    $0 == ".Sh \"EXIT STATUS\"" { while ((getline line < sections) > 0) print line; skip = 1; next }
    skip && /^\.Sh / { skip = 0 }
    !skip' "man/$name" > "man/$name.new"
  mv "man/$name.new" "man/$name"
done
echo "man pages updated in man/" >&2
