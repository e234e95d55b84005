#!/usr/bin/env bash
# Installs everything the app and its tests need on a fresh Debian 12 machine (run as root):
# Debian's Chromium, Firefox ESR and WebKitGTK (WebKitWebDriver, MiniBrowser, Xvfb) for the
# cross-engine suite, the npm packages from the lockfile, and the tt-rss test bed (both servers).
# Every step is skipped when already done, so running it before each test run costs seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ]; then
	echo "bootstrap: run as root (it installs Debian packages and starts the tt-rss test bed)" >&2
	exit 1
fi

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v curl >/dev/null || missing+=(curl)
# The cross-engine suite (tests/engines): Playwright cannot drive Debian's builds, puppeteer-core
# (Firefox, WebDriver BiDi) and selenium-webdriver (WebKitWebDriver) can.
command -v firefox-esr >/dev/null || missing+=(firefox-esr)
command -v WebKitWebDriver >/dev/null || missing+=(webkit2gtk-driver)
[ -x /usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser ] || missing+=(libwebkit2gtk-4.1-0)
command -v xvfb-run >/dev/null || missing+=(xvfb)
if [ ${#missing[@]} -gt 0 ]; then
	echo "bootstrap: installing ${missing[*]}"
	apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi

# npm ci only when the installed tree is missing or older than the lockfile. It runs beside the test
# bed's setup, which needs no npm package (only Node itself): one waits on the registry and the
# disk, the other on its servers and update.php. Its output is printed once both ended.
npm_rc=0
npm_log=$(mktemp)
trap 'rm -f "$npm_log"' EXIT
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	echo "bootstrap: npm ci (beside the test bed's setup; its output follows the setup's)"
	# The browsers are Debian's: no npm package may download one of its own.
	PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund > "$npm_log" 2>&1 &
	npm_pid=$!
fi

setup_rc=0
bash testbed/setup.sh || setup_rc=$?
if [ -n "${npm_pid:-}" ]; then
	wait "$npm_pid" || npm_rc=$?
	echo "bootstrap: npm ci$([ $npm_rc = 0 ] || echo " FAILED ($npm_rc)"):"
	cat "$npm_log"
fi
[ $setup_rc = 0 ] || exit $setup_rc
exit $npm_rc
