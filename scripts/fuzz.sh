#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ (their own package: they link
# libFuzzer) and runs each for SECONDS (default 600), starting from the
# corpus kept in Fuzz/Corpus/<target>. New inputs go to a scratch corpus;
# a crash, a leak, a timeout or an out-of-memory stops the run, leaves its
# input in .build/fuzz-artifacts/ and fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-600}
build="$root/.build/fuzz"
artifacts="$root/.build/fuzz-artifacts"
mkdir -p "$artifacts"
echo "fuzz: building the targets (instrumented; a few minutes the first time)"
(cd "$root/Fuzz" && swift build -c debug --build-path "$build" \
  -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library -Xcc -fsanitize=fuzzer-no-link)
status=0
for target in FuzzInputScript FuzzSetValues FuzzScene FuzzMorphAPI FuzzLibraryDiff FuzzTestFile; do
  work=$(mktemp -d)
  echo "fuzz: $target for $seconds s"
  if "$build/debug/$target" "$work" "$root/Fuzz/Corpus/$target" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
    -artifact_prefix="$artifacts/$target-" -print_final_stats=1 >"$work.log" 2>&1; then
    grep -E '^Done|stat::number_of_executed_units' "$work.log" | tr '\n' ' '
    echo
  else
    echo "fuzz: $target FAILED; input in $artifacts" >&2
    grep -E 'ERROR|SUMMARY|Fatal error|panic' "$work.log" | head -n 20 >&2
    status=1
  fi
  rm -rf "$work" "$work.log"
done
exit "$status"
