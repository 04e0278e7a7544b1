#!/usr/bin/env bash
# Fuzzes the parsers that read outside input — varlink framing and decoding, the config file,
# the item validator, the iCalendar codec and VTODO reader, the WebDAV XML reader — with libFuzzer and AddressSanitizer,
# each for FUZZ_SECONDS (default 20; the test command runs this). A longer run:
# FUZZ_SECONDS=3600 scripts/fuzz.sh [json|varlink|config|item|ical|xml]
#
# Starts from the committed corpus in Fuzz/corpus/TARGET and works in a scratch copy, so the
# repository is not changed. A crash stops the run with the input saved under
# .build-fuzz/findings/TARGET/; copy it to Fuzz/regressions/TARGET/ with the fix, and the unit
# tests replay it on every run from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
REMINDERD_SETUP=test source scripts/setup.sh
seconds="${FUZZ_SECONDS:-20}"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(json varlink config item ical xml)

# (gold warns about every ASan helper symbol; the build log keeps that out of sight)
mkdir -p .build-fuzz
swift build --build-path .build-fuzz --product reminder-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING > .build-fuzz/build.log 2>&1 \
  || { grep -v "Cannot export local symbol" .build-fuzz/build.log | tail -30 >&2; exit 1; }
fuzzer=.build-fuzz/debug/reminder-fuzz

for target in "${targets[@]}"; do
  work=".build-fuzz/corpus/$target"
  findings=".build-fuzz/findings/$target"
  rm -rf "$work" && mkdir -p "$work" "$findings"
  cp Fuzz/corpus/"$target"/* "$work"/
  inputs=("$work")  # git keeps no empty directory: a target may have no regressions yet
  [ -d "Fuzz/regressions/$target" ] && inputs+=("Fuzz/regressions/$target")
  echo "fuzz: $target for ${seconds}s from $(ls "$work" | wc -l) seeds" >&2
  if ! REMINDERD_FUZZ_TARGET="$target" "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
      -print_final_stats=1 -artifact_prefix="$findings/" "${inputs[@]}" \
      2> ".build-fuzz/$target.log"; then
    tail -40 ".build-fuzz/$target.log" >&2
    echo "fuzz: $target failed (a crash leaves its input in $findings/)" >&2
    exit 1
  fi
  grep -E "stat::number_of_executed_units|cov: " ".build-fuzz/$target.log" | tail -2 | sed "s/^/fuzz: $target: /" >&2
done
