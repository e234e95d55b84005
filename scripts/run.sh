#!/usr/bin/env bash
# Runs the app against a working tt-rss with sample feeds: sets up the local test bed when needed,
# builds the app and serves it with /tt-rss/ proxied on the app's own origin (tt-rss sends no CORS
# headers). The test bed's current tt-rss by default (what a new user meets); TESTBED=debian for
# Debian's older one. Point it at another server with TTRSS_URL=https://host/tt-rss/ (then no test
# bed is made).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${TTRSS_URL:-}" ]; then
	bash scripts/bootstrap.sh
	# shellcheck source=../testbed/lib.sh
	source testbed/lib.sh
	load_server "${TESTBED:-current}"
	export TTRSS_URL="$TT_URL"
	server_note="test bed server '$SERVER', API level $API_LEVEL"
	user_lines="  User:     ${TT_USER}
  Password: ${TT_PASS}"
else
	[ -f node_modules/.package-lock.json ] || npm ci --no-audit --no-fund
	server_note="your server"
	user_lines=""
fi

port="${PORT:-4173}"
npm run build
echo
echo "  App:      http://localhost:${port}/"
echo "  tt-rss:   ${TTRSS_URL} (${server_note})"
[ -z "$user_lines" ] || echo "$user_lines"
echo
exec npx vite preview --host 127.0.0.1 --port "$port" --strictPort
