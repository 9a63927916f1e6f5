#!/usr/bin/env bash
# Renders the HTML report of a run against a deliberately faulty reference
# relay in headless Chromium and checks that each failure shows its clause,
# expected vs actual, the wire transcript and a repro command.
# Usage: scripts/check-html-report.sh   (installs Debian's chromium if missing)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if ! command -v chromium >/dev/null 2>&1; then
  echo "installing chromium (Debian package)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/nipcl-conform" ./cmd/nipcl-conform
set +e
"$work/nipcl-conform" run --profile labels --fault private-messages-readable --report-dir "$work/report" >"$work/run.log" 2>&1
code=$?
set -e
if [ "$code" -ne 1 ]; then
  echo "expected exit 1 from a faulty relay, got $code"; cat "$work/run.log"; exit 1
fi

chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$work/profile" --dump-dom "file://$work/report/report.html" >"$work/dom.html" 2>"$work/chromium.log"

fail=0
check() {
  if grep -qF -- "$1" "$work/dom.html"; then echo "ok: $2"; else echo "MISSING: $2 ($1)"; fail=1; fi
}
check "base/read/1" "the failing case ID"
check "nip29/read-access" "the clause (section) it cites"
check "NIP-29 §" "the source: the NIP and heading the sentence stands under"
check "Expected vs actual" "the expected-vs-actual heading"
check "to read nothing" "the expected vs actual values, in our words"
check "Wire transcript" "the transcript heading"
check '["REQ"' "the REQ frames in the transcript"
check "nipcl-conform run --profile labels --fault private-messages-readable --focus base/read/1" "the repro command"
check "Clause coverage" "the coverage table"
check "root cause" "the root-cause grouping the report leads with"
check 'id="fo-fail"' "the outcome filter (CSS only, no JavaScript)"
exit $fail
