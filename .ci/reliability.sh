#!/usr/bin/env bash
# Reliability step (called by .ci/run after the tests): the fault scenarios, the attacks at their
# limits (bench/reliability/attacks.ts), then a short mixed load,
# both services as real processes on 127.0.0.1. With TEST_DATABASE_URL set, on PostgreSQL (and the
# PostgreSQL restart scenario runs: it restarts the cluster FAULTS_PG_CLUSTER, default `main`);
# otherwise on embedded PGlite. Bounded: RELIABILITY_TIMEOUT seconds in all (default 600).
# Exit status non-zero when any check FAILs; the last line is a one-line summary.
set -uo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1 CHECKPOINT_DISABLE=1

budget=${RELIABILITY_TIMEOUT:-600}
started=$(date +%s)
logs=$(mktemp -d)
remaining() { echo $(( budget - ($(date +%s) - started) )); }

pnpm build --output-logs=errors-only > "$logs/build.log" 2>&1 || { cat "$logs/build.log"; echo "reliability: FAIL (build)"; exit 1; }

echo "== fault scenarios =="
timeout --kill-after=10 "$(( $(remaining) - 90 ))" pnpm --filter @cloudcost/bench --silent faults 2>&1 | tee "$logs/faults.log"
faults=${PIPESTATUS[0]}

echo "== attacks at their limits, /healthz watched =="
timeout --kill-after=10 "$(( $(remaining) - 90 ))" pnpm --filter @cloudcost/bench --silent attacks 2>&1 | tee "$logs/attacks.log"
attacks=${PIPESTATUS[0]}

echo "== mixed load (short) =="
left=$(remaining)
if [ "$left" -gt 60 ]; then
  LOAD_DURATION=${LOAD_DURATION:-10} LOAD_WARMUP=${LOAD_WARMUP:-6} LOAD_WARMUP_MAX_PHASES=${LOAD_WARMUP_MAX_PHASES:-3} timeout --kill-after=10 "$left" \
    pnpm --filter @cloudcost/bench --silent bench:mixed 2>&1 | tee "$logs/mixed.log"
  mixed=${PIPESTATUS[0]}
else
  echo "no time left for the mixed load"; mixed=1
fi

passed=$(cat "$logs"/faults.log "$logs"/attacks.log "$logs"/mixed.log 2>/dev/null | grep -c '^PASS')
failed=$(cat "$logs"/faults.log "$logs"/attacks.log "$logs"/mixed.log 2>/dev/null | grep -c '^FAIL')
status=0
[ "$faults" -ne 0 ] || [ "$attacks" -ne 0 ] || [ "$mixed" -ne 0 ] && status=1
[ "$status" -ne 0 ] && [ "${failed:-0}" -eq 0 ] && failed=1  # a timeout or crash counts as a failure
echo "reliability: $([ $status -eq 0 ] && echo PASS || echo FAIL) - ${passed:-0} checks passed, ${failed:-0} failed (faults exit $faults, attacks exit $attacks, mixed load exit $mixed) in $(( $(date +%s) - started )) s"
exit "$status"
