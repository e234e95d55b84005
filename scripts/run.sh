#!/usr/bin/env bash
# Runs the app against a working tt-rss with sample feeds: sets up the local test bed when needed,
# builds the app and serves it with /tt-rss/ proxied on the app's own origin (tt-rss sends no CORS
# headers). Point it at another server with TTRSS_URL=https://host/tt-rss/ (then no test bed is made).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${TTRSS_URL:-}" ]; then
	bash scripts/bootstrap.sh
else
	[ -f node_modules/.package-lock.json ] || npm ci --no-audit --no-fund
fi

port="${PORT:-4173}"
npm run build
echo
echo "  App:      http://localhost:${port}/"
if [ -z "${TTRSS_URL:-}" ]; then
	node -e '
		const t = require("./testbed/testbed.json");
		console.log(`  tt-rss:   ${t.url}`);
		console.log(`  User:     ${t.user}`);
		console.log(`  Password: ${t.password}`);
	'
else
	echo "  tt-rss:   ${TTRSS_URL}"
fi
echo
exec npx vite preview --host 127.0.0.1 --port "$port" --strictPort
