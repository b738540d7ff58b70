#!/usr/bin/env bash
# Runs the whole suite N times in a row (default 10) while two CPU hogs keep
# both cores busy, as a loaded CI machine would; stops at the first failure.
#   scripts/stress-test.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
swift build --build-tests >/dev/null
hogs=()
for _ in 1 2; do
  (while :; do :; done) &
  hogs+=($!)
done
trap 'kill "${hogs[@]}" 2>/dev/null || true' EXIT
for i in $(seq 1 "$runs"); do
  start=$SECONDS
  if swift test --disable-xctest >".build/stress-$i.log" 2>&1; then
    echo "stress: run $i/$runs passed in $((SECONDS - start)) s ($(grep -oE 'with [0-9]+ tests' ".build/stress-$i.log" | tail -1))"
  else
    echo "stress: run $i/$runs FAILED after $((SECONDS - start)) s; see .build/stress-$i.log" >&2
    grep -E '^✘' ".build/stress-$i.log" | head -n 20 >&2
    exit 1
  fi
done
echo "stress: $runs runs passed with two CPU hogs"
