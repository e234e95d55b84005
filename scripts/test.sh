#!/usr/bin/env bash
# Runs every check and test: lint (prettier, eslint, svelte-check), unit and contract tests (Vitest,
# the contract tests against the real tt-rss test bed), end-to-end tests (Playwright driving
# Debian's Chromium against the same server), and the cross-engine suite (Debian's Firefox ESR and
# WebKitGTK, tests/engines). Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh

echo "== lint"
npm run lint
# On CI each stage has a time limit far above its usual run (about 1, 4 and 3 minutes), so a hang ends
# with a message naming the stage instead of running into CI's own limit.
limit() {
	local minutes=$1
	shift
	if [ -z "${CI:-}" ]; then
		"$@"
		return
	fi
	local rc=0
	timeout -k 10 "${minutes}m" "$@" || rc=$?
	[ $rc -ne 124 ] || echo "test: '$*' ran over $minutes minutes and was stopped" >&2
	return $rc
}
echo "== unit and contract tests"
limit 15 npx vitest run
echo "== end-to-end tests"
limit 40 npx playwright test
echo "== cross-engine tests (Firefox, WebKit)"
limit 15 npm run test:engines
