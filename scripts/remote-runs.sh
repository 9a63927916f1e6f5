#!/usr/bin/env bash
# Measures whole runs against the reference relays behind the project's
# delay proxy: RTT and number of consecutive runs as arguments.
#   scripts/remote-runs.sh 50ms 10
#   scripts/remote-runs.sh 150ms 5
# Prints one line per run (wall time, outcome counts) and fails when a run
# does not exit 0 (a false failure against the clean reference relay).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rtt="${1:-50ms}"
runs="${2:-10}"
bin="${TMPDIR:-/tmp}/nipcl-conform-remote-runs"
go build -o "$bin" ./cmd/nipcl-conform
failed=0
for i in $(seq 1 "$runs"); do
  dir="$(mktemp -d)"
  start=$(date +%s.%N)
  code=0
  "$bin" run --simulate-rtt "$rtt" --report-dir "$dir" >"$dir/stdout" 2>"$dir/stderr" || code=$?
  end=$(date +%s.%N)
  counts=$(awk '/^outcome/{f=1;next} f&&NF==2{printf "%s=%s ",$1,$2} /^$/{if(f)exit}' "$dir/stdout")
  workers=$(grep -o -- '--parallel [0-9]*' "$dir/stderr" | head -1 || true)
  printf 'run %2d  rtt %s  %6.1f s  exit %d  %s %s\n' "$i" "$rtt" "$(awk -v a="$start" -v b="$end" 'BEGIN{print b-a}')" "$code" "$workers" "$counts"
  if [ "$code" -ne 0 ]; then
    failed=$((failed + 1))
    echo "  reports kept in $dir"
  else
    rm -rf "$dir"
  fi
done
[ "$failed" -eq 0 ]
