#!/usr/bin/env bash
# Runs every check and test: lint (prettier, eslint, svelte-check), unit tests (Vitest), the contract
# tests against both servers of the test bed (Debian's tt-rss, API 15, and the current tt-rss, API 23:
# each asserts what the server's level promises), end-to-end tests (Playwright driving Debian's
# Chromium) and the cross-engine suite (Debian's Firefox ESR and WebKitGTK, tests/engines), the last
# two against the server TESTBED names (Debian's by default). Prints each stage's time; exits
# non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

# stage NAME MINUTES COMMAND...: runs one stage and prints its time. On CI each stage has a time
# limit far above its usual run, so a hang ends with a message naming the stage instead of running
# into CI's own limit.
TIMES=()
stage() {
	local name=$1 minutes=$2 started rc=0
	shift 2
	echo "== $name"
	started=$(date +%s)
	if [ -z "${CI:-}" ]; then
		"$@" || rc=$?
	else
		timeout -k 10 "${minutes}m" "$@" || rc=$?
		[ $rc -ne 124 ] || echo "test: '$*' ran over $minutes minutes and was stopped" >&2
	fi
	TIMES+=("$(printf '%-38s %4d s%s' "$name" $(($(date +%s) - started)) "$([ $rc = 0 ] || echo "  FAILED ($rc)")")")
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
}

stage "bootstrap (both test-bed servers)" 20 bash scripts/bootstrap.sh
stage lint 10 npm run lint
stage "unit tests" 10 npx vitest run --project unit
stage "contract tests: debian (API 15)" 10 env TESTBED=debian npx vitest run --project contract
stage "contract tests: current (API 23)" 10 env TESTBED=current npx vitest run --project contract
stage "end-to-end tests" 40 npx playwright test
stage "cross-engine tests (Firefox, WebKit)" 15 npm run test:engines
summary
