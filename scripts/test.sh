#!/usr/bin/env bash
# Runs every check and test: lint (prettier, eslint, svelte-check), unit and contract tests (Vitest,
# the contract tests against the real tt-rss test bed), and end-to-end tests (Playwright driving
# Debian's Chromium against the same server). Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh

echo "== lint"
npm run lint
echo "== unit and contract tests"
npx vitest run
echo "== end-to-end tests"
npx playwright test
