#!/usr/bin/env bash
# Runs the whole suite N times in a row, each in a random case order
# (--seed 1..N), with any extra run flags, and prints one line per run:
# wall time, exit code, worker count, outcome counts. Fails when a run
# does not exit 0 (a false failure against the clean reference relay).
#   scripts/repeat-runs.sh 10                          # in-process, random order
#   scripts/repeat-runs.sh 10 --simulate-rtt 50ms      # behind the delay proxy
#   scripts/repeat-runs.sh 5 --simulate-rtt 150ms
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
runs="${1:?usage: scripts/repeat-runs.sh RUNS [run flags...]}"
shift
bin="${TMPDIR:-/tmp}/nipcl-conform-repeat-runs"
go build -o "$bin" ./cmd/nipcl-conform
failed=0
for i in $(seq 1 "$runs"); do
  dir="$(mktemp -d)"
  start=$(date +%s.%N)
  code=0
  "$bin" run --seed "$i" "$@" --report-dir "$dir" >"$dir/stdout" 2>"$dir/stderr" || code=$?
  end=$(date +%s.%N)
  counts=$(awk '/^outcome/{f=1;next} f&&NF==2{printf "%s=%s ",$1,$2} f&&NF==0{exit}' "$dir/stdout")
  workers=$(grep -o -- '--parallel [0-9]*' "$dir/stderr" | head -1 || true)
  printf 'run %2d  seed %2d  %6.1f s  exit %d  %s %s\n' "$i" "$i" "$(awk -v a="$start" -v b="$end" 'BEGIN{print b-a}')" "$code" "$workers" "$counts"
  if [ "$code" -ne 0 ]; then
    failed=$((failed + 1))
    echo "  reports kept in $dir"
  else
    rm -rf "$dir"
  fi
done
[ "$failed" -eq 0 ]
