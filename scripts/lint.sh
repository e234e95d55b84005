#!/usr/bin/env bash
# The lint: prettier, eslint (with the layer rule), svelte-check and the worker's tsc, every one with
# zero warnings, the GitHub workflows against GitHub's workflow schema, and the import graph with no
# file cycle or folder loop (scripts/import-cycles.js, ~2 s). eslint, the longest (~90 s here), runs
# beside the others (~60 s together): on this 2-core machine the whole lint takes about the time of
# eslint alone. Each tool's output is
# printed whole once it ends; the exit code is the first failure's.
set -uo pipefail
cd "$(dirname "$0")/.."
npx svelte-kit sync || exit $?
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
npx eslint . --max-warnings 0 > "$out/eslint" 2>&1 &
eslint=$!
rc=0
npx prettier --check . > "$out/prettier" 2>&1 || rc=$?
cat "$out/prettier"
# The workflows (.github/workflows/) cannot run here: @action-validator/cli (a WebAssembly build of
# action-validator, from npm) checks each against the workflow schema; it prints only errors.
for workflow in .github/workflows/*.yml; do
	if npx action-validator "$workflow" > "$out/workflow" 2>&1; then
		echo "workflow $workflow: valid"
	else
		[ $rc != 0 ] || rc=1
		echo "workflow $workflow: invalid"
		cat "$out/workflow"
	fi
done
# Loops the layer rule lets through (inside one layer or one folder): none may be left.
node scripts/import-cycles.js || { e=$?; [ $rc != 0 ] || rc=$e; }
if [ $rc = 0 ]; then
	npm run --silent check > "$out/check" 2>&1 || rc=$?
	cat "$out/check"
fi
wait $eslint || { e=$?; [ $rc != 0 ] || rc=$e; }
cat "$out/eslint"
[ $rc = 0 ] && echo "lint: prettier, the workflows' schema, the import cycles, eslint, svelte-check and tsc found nothing"
exit $rc
