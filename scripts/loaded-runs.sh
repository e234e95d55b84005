#!/usr/bin/env bash
# The long runs of issues 22 and 26 together: the e2e suite in a loop (its two workers on the
# current tt-rss and its copy current2) with the chaos harness beside it on the third copy
# (current3), each the other's load. A pass of the e2e suite beside the chaos runs is a "loaded
# pass" (issue 22, item 14); every chaos schedule appends to the long-run log (issue 26).
#
#   flock /tmp/suite.lock bash scripts/loaded-runs.sh            (one e2e pass; as root)
#   PASSES=3 flock /tmp/suite.lock bash scripts/loaded-runs.sh
#
# The chaos side takes the engines in turn (CHAOS_ENGINES, default Firefox, WebKit, Chromium; name
# one engine to add up its schedules alone), BATCH schedules each, from
# seeds no earlier run used (the base is the minute the run starts: CHAOS_SEED_BASE overrides it),
# with CHAOS_SHARED_POSTGRES=1 (a PostgreSQL restart would take the e2e suite's databases too). It
# stops when the last pass ends (the schedule then running is cut and not logged).
# Out: $OUT/e2e-pass-<n>.json and .log (Playwright's JSON report and output), $OUT/results-<n>/
# (each pass's traces and screenshots of failed attempts: the next pass would clear test-results/),
# $OUT/chaos.log;
# chaos lines in $CHAOS_LOG (`node scripts/chaos-summary.js $CHAOS_LOG` adds them up).
# Run nothing else against the test bed meanwhile: a reset from another checkout serves that
# checkout's feed fixtures (testbed/lib.sh start_feeds_namespace), under both runs.
set -euo pipefail
cd "$(dirname "$0")/.."
PASSES="${PASSES:-1}"
BATCH="${BATCH:-5}"
ENGINES="${CHAOS_ENGINES:-firefox webkit chromium}"
OUT="${OUT:-chaos-results/loaded-$(date -u +%Y%m%dT%H%M)}"
export CHAOS_LOG="${CHAOS_LOG:-chaos-results/long.jsonl}"
# Above 6000: the schedules with labels, mark above/below, bulk actions and server faults.
base="${CHAOS_SEED_BASE:-$((100000 + ($(date +%s) / 60) % 800000 * 10))}"
mkdir -p "$OUT" "$(dirname "$CHAOS_LOG")"

bash testbed/setup.sh current3 >/dev/null
npm run build >"$OUT/build.log" 2>&1

chaos_loop() {
  local n=0 built="" engine
  while :; do
    for engine in $ENGINES; do
      echo "== $(date -u +%T) $engine seeds $((base + n))…$((base + n + BATCH - 1))"
      TESTBED=current3 CHAOS_SHARED_POSTGRES=1 CHAOS_ENGINE=$engine CHAOS_RUNS="$BATCH" \
        CHAOS_SEED=$((base + n)) npm run chaos -- $built || true
      built=--no-build
      n=$((n + BATCH))
    done
  done
}
setsid bash -c "$(declare -f chaos_loop); base=$base BATCH=$BATCH ENGINES=\"$ENGINES\" chaos_loop" >"$OUT/chaos.log" 2>&1 &
chaos=$!
trap 'kill -- -$chaos 2>/dev/null || true' EXIT

for pass in $(seq 1 "$PASSES"); do
  started=$(date +%s)
  set +e
  TESTBED=current CI=true E2E_BUILT=1 PLAYWRIGHT_JSON_OUTPUT_NAME="$OUT/e2e-pass-$pass.json" \
    npx playwright test --reporter=dot,json --output="$OUT/results-$pass" >"$OUT/e2e-pass-$pass.log" 2>&1
  rc=$?
  set -e
  node -e '
    const j = require(process.argv[1]);
    const bad = [];
    const walk = (s) => {
      for (const sp of s.specs ?? [])
        for (const t of sp.tests)
          if (t.results.some((r) => !["passed", "skipped"].includes(r.status)))
            bad.push(`  ${sp.file} "${sp.title}": ${t.results.map((r) => r.status).join(", ")}`);
      for (const c of s.suites ?? []) walk(c);
    };
    j.suites.forEach(walk);
    const s = j.stats;
    console.log(`${s.expected} passed, ${s.unexpected} failed, ${s.flaky} flaky, ${s.skipped} skipped`);
    for (const b of bad) console.log(b);
  ' "$(realpath "$OUT/e2e-pass-$pass.json")" | sed "1s/^/pass $pass (exit $rc, $(($(date +%s) - started)) s): /"
done
echo "chaos beside it: node scripts/chaos-summary.js --since <start> $CHAOS_LOG"
