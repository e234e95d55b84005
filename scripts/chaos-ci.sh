#!/usr/bin/env bash
# CI's fixed seeds of the fault schedules (issue 26, docs/reliability.md), the regression cases of
# the anomalies found: 2001 (an abandoned write landing after a newer one; in WebKit, a change kept
# for its second send overtaken by a catch-up queued after it) and 6016 (the tt-rss session
# deleted, then PostgreSQL restarted, with lost replies: the server's own faults). Chromium, then
# WebKit and Firefox on the same build. Seed 2014 (a reload marking the open article read again,
# 41–52 s, the longest) left CI for its time limit on 2026-11-27; its fix keeps its unit and e2e
# tests, and the long runs (docs/reliability.md) replay it. The seeds write their own log: the
# figures' log (chaos-results/log.jsonl) is for the long runs. Firefox's sign-in once stopped in
# some schedules: a "New version available" banner, shown for a first install slow to activate,
# lay over the Sign in button the driver clicked (fixed in src/lib/pwa/update.svelte.ts).
# 4000036 (about 21 s) is one of the V3 schedules: bulk Unstar and Star, a note, offline, a tab
# closed in the middle of a write, a second tab starring a row, a catch-up. 5000014 (about 30 s) is
# a V6 schedule and the regression case of a second tab's change left in local storage until some
# later start (stop 47): Undo at the window's edge, storage full, a second tab, offline, a second
# account signing in and out. WebKit's 4700007 (about 15 s): a page left for the share page while an
# Undo toast showed froze the database (the toast's commit began a write as the page went into the
# back/forward cache): the share never queued, the next start stayed blank (src/lib/db/open.ts).
#
# `chaos-ci.sh` runs the seeds that leave PostgreSQL alone; it runs beside the Debian subset
# (scripts/test.sh), which shares this machine's PostgreSQL cluster. `chaos-ci.sh alone` runs 6016
# after that stage, by itself: its restart of PostgreSQL once cut the subset's database reset
# (stop 49's CI needed a retry for it).
set -euo pipefail
cd "$(dirname "$0")/.."
export CHAOS_LOG=chaos-results/ci.jsonl
if [ "${1:-}" = alone ]; then
	CHAOS_SEEDS="6016" npm run chaos -- --no-build
	exit 0
fi
CHAOS_SEEDS="2001 4000036 5000014" npm run chaos
CHAOS_ENGINE=webkit CHAOS_SEEDS="2001 4700007" npm run chaos -- --no-build
CHAOS_ENGINE=firefox CHAOS_SEEDS="2001" npm run chaos -- --no-build
