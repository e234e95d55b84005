#!/usr/bin/env bash
# Makes the live tt-rss database a copy of the bench snapshot (bench/setup.sh), the way
# testbed/reset.sh restores the seed. Undo with `bash testbed/reset.sh`. Hold /tmp/e2e-run.lock.
set -euo pipefail
# shellcheck source=../testbed/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../testbed/lib.sh"
BENCH_DB="${DB_NAME}_bench"
[ "$(id -u)" = 0 ] || die "run as root"
ensure_services
live_db_from "$BENCH_DB"
