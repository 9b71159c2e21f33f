#!/usr/bin/env bash
# Runs the test suite with the clock shifted to given Bangkok times, in every process the tests start
# (the bot, the sandbox, Chromium), through libfaketime (Debian package "faketime").
#   scripts/test-at-hours.sh                                  the whole suite at each default time
#   scripts/test-at-hours.sh --at "2026-12-01 00:05" test/browser one time, some test files
# Times are Asia/Bangkok wall times. The clock keeps running from the shifted start.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v faketime >/dev/null 2>&1; then
  echo "test-at-hours: needs libfaketime: apt-get install -y faketime" >&2
  exit 2
fi

times=()
while [ $# -gt 0 ]; do
  case "$1" in
    --at) times+=("$2"); shift 2 ;;
    --) shift; break ;;
    *) break ;;
  esac
done
if [ ${#times[@]} -eq 0 ]; then
  # Just after midnight on the first of a month (still the 30th in UTC), opening time, just before
  # midnight, and just before midnight on the last day of February.
  times=("2026-12-01 00:05" "2026-11-24 09:00" "2026-11-24 23:55" "2027-02-28 23:55")
fi

summary=()
status=0
for at in "${times[@]}"; do
  target=$(date -d "$at +07:00" +%s) || { echo "test-at-hours: cannot read the time \"$at\"" >&2; exit 2; }
  offset=$(printf '%+d' $((target - $(date +%s))))
  echo "== tests at $at Asia/Bangkok (clock offset ${offset} s)"
  log=$(mktemp)
  # The monotonic clock stays real: timers and timeouts keep their length.
  if faketime --exclude-monotonic -f "$offset" node_modules/.bin/vitest run "$@" 2>&1 | tee "$log"; then result=passed; else result=FAILED; status=1; fi
  files=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^ +Test Files ' | tail -n 1 | sed 's/^ *//')
  tests=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^ +Tests ' | tail -n 1 | sed 's/^ *//')
  rm -f "$log"
  summary+=("$at  $result  ${files:-no summary}; ${tests:-}")
done

echo
echo "== shifted-clock runs (Asia/Bangkok)"
printf '%s\n' "${summary[@]}"
exit $status
