#!/usr/bin/env bash
# Makes the live tt-rss database a fresh copy of the big account's snapshot (bench/big-setup.sh), the
# way testbed/reset.sh restores the seed. Undo with `bash testbed/reset.sh`. Hold /tmp/e2e-run.lock.
set -euo pipefail
# shellcheck source=../testbed/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../testbed/lib.sh"
[ "$(id -u)" = 0 ] || die "run as root"
ensure_services
live_db_from "${DB_NAME}_big"
