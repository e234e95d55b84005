#!/usr/bin/env bash
# Runs every check and test: lint (prettier, eslint, svelte-check), unit tests (Vitest), the contract
# tests against both servers of the test bed (Debian's tt-rss, API 15, and the current tt-rss, API 23:
# each asserts what the server's level promises), end-to-end tests (Playwright driving Debian's
# Chromium) against the current tt-rss with a compatibility subset against Debian's, and the
# cross-engine suite (Debian's Firefox ESR and WebKitGTK, tests/engines) against the current tt-rss,
# and fixed seeds of the chaos harness (random faults against the real server, tests/chaos).
# Prints each stage's time; exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

# stage NAME MINUTES COMMAND...: runs one stage and prints its time. On CI each stage has a time
# limit far above its usual run, so a hang ends with a message naming the stage instead of running
# into CI's own limit.
TIMES=()
# The machine's busy share of its cores during a stage, from /proc/stat: a stage near 100 % gains
# nothing from running beside another; one well below has room for one.
cpu_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat; }
stage() {
	local name=$1 minutes=$2 started rc=0 busy0 idle0 busy1 idle1
	shift 2
	read -r busy0 idle0 < <(cpu_ticks)
	echo "== $name"
	started=$(date +%s)
	# A stage of several sides (scripts/side-by-side.sh) says each side's time here.
	SIDE_BY_SIDE_TIMES=$(mktemp)
	export SIDE_BY_SIDE_TIMES
	if [ -z "${CI:-}" ]; then
		"$@" || rc=$?
	else
		timeout -k 10 "${minutes}m" "$@" || rc=$?
		[ $rc -ne 124 ] || echo "test: '$*' ran over $minutes minutes and was stopped" >&2
	fi
	read -r busy1 idle1 < <(cpu_ticks)
	TIMES+=("$(printf '%-38s %4d s, cores %d %% busy%s' "$name" $(($(date +%s) - started)) \
		$((100 * (busy1 - busy0) / (busy1 - busy0 + idle1 - idle0 + 1))) \
		"$([ $rc = 0 ] || echo "  FAILED ($rc)")")")
	while IFS= read -r side; do TIMES+=("  - $side"); done < "$SIDE_BY_SIDE_TIMES"
	rm -f "$SIDE_BY_SIDE_TIMES"
	echo "== $name: $(($(date +%s) - started)) s"
	if [ $rc -ne 0 ]; then
		summary
		exit $rc
	fi
}
summary() {
	echo
	echo "== stage times"
	printf '  %s\n' "${TIMES[@]}"
	# CI keeps a run's output only when it failed: the stage times of every run stay on the machine
	# for the next session to read (CI_STAGE_TIMES names another file; empty: none kept).
	if [ -n "${CI:-}" ] && [ -n "${CI_STAGE_TIMES-/var/tmp/ttrss-pwa-stage-times.log}" ]; then
		{
			echo "== $(date -u '+%Y-%m-%d %H:%M UTC') $(git rev-parse --short HEAD 2>/dev/null)"
			printf '  %s\n' "${TIMES[@]}"
		} >> "${CI_STAGE_TIMES-/var/tmp/ttrss-pwa-stage-times.log}" 2>/dev/null || true
	fi
}

stage "bootstrap (both test-bed servers)" 20 bash scripts/bootstrap.sh
# The lint and the unit and component tests beside the contract tests of both servers: each contract
# suite mostly waits for its server (Debian's alone: 100 s of wall time for 37 s of its runner's
# CPU, 2026-12-07), and the two servers are separate, so the lint and Vitest's unit run fill the
# cores meanwhile (CI 2026-12-07, one after the other: lint | contract 234 s, then unit and
# component 246 s). One flock over all: the contract suites take the test bed's lock themselves
# unless an ancestor holds it, and would otherwise run one after the other. One Vitest run for the
# unit and component projects: one start instead of two.
stage "lint | unit and component | contract tests: debian (API 15), current (API 23)" 20 \
	flock -w 900 /tmp/e2e-run.lock bash scripts/side-by-side.sh \
	"lint" "npm run lint" \
	"unit and component tests" "npx vitest run --project unit --project component" \
	"contract tests: debian (API 15)" "env TESTBED=debian npx vitest run --project contract" \
	"contract tests: current (API 23)" "env TESTBED=current npx vitest run --project contract"
# Two workers, one on the current server and one on its copy (testbed/README.md): 1,370 s here
# against 1,771 s in one worker.
# Its limit: 40 minutes stopped it on 2026-11-30 with 150 of 160 tests done, on a machine about
# 1.7× slower than the one of the figures above.
stage "end-to-end tests: current (API 23)" 60 env TESTBED=current npx playwright test
# The compatibility subset on Debian's 2021 server: sign-in and the tree, reading, every write,
# offline replay, hostile content, the check-up's old level, Apache, the plugin archive and its
# API button (plugin-enable-api: 36 s; the refusal, the click in tt-rss, then reading). The
# phone runs of the tt-rss extras are left to the current server: the layout does not depend on
# the server's level, and the desktop runs ask the old server the same things. It runs at the same
# time as the cross-engine suite (Debian's Firefox ESR and WebKitGTK against the current server)
# followed by the chaos harness's fixed seeds (scripts/chaos-ci.sh, against the current server
# too): the two test beds are separate, and the subset takes about as long as the other two
# together (CI 2026-11-27: subset and engines 612 s side by side, then the seeds 120 s alone). The
# subset serves the build the stage before made (E2E_BUILT=1), and so does the cross-engine suite
# (ENGINES_BUILD_DIR; its update test builds its next version itself). The two sides took 620 and
# 692 s in a clean-clone CI run (2,722 s in all); with the engines' build reused and one Chromium
# seed fewer (scripts/chaos-ci.sh), 605 and 626 s.
stage "e2e: debian (API 15) subset | cross-engine (Firefox, WebKit) and chaos seeds: current" 40 \
	bash scripts/side-by-side.sh \
	"end-to-end tests: debian (API 15) subset" \
	"env TESTBED=debian E2E_BUILT=1 npx playwright test sign-in reader-flow reader-ttrss-extras offline-outbox \
		offline-catchup content-corpus account-tools pwa-apache plugin-install plugin-enable-api \
		plugin-images plugin-addresses \
		--grep-invert 'extras\\.spec\\.ts phone '" \
	"cross-engine tests (Firefox, WebKit), then chaos fixed seeds (Chromium 3, WebKit 2, Firefox 1): current" \
	"env TESTBED=current ENGINES_BUILD_DIR=\"\$PWD/build\" npm run test:engines && bash scripts/chaos-ci.sh"
# Seed 6016 restarts PostgreSQL, which the Debian subset above shares: it runs alone, after it.
stage "chaos fixed seed 6016 (PostgreSQL restarted): current" 5 bash scripts/chaos-ci.sh alone
summary
