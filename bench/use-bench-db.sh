#!/usr/bin/env bash
# Makes the live tt-rss database a copy of the bench snapshot (bench/setup.sh), the way
# testbed/reset.sh restores the seed. Undo with `bash testbed/reset.sh`. Hold /tmp/e2e-run.lock.
set -euo pipefail
# shellcheck source=../testbed/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../testbed/lib.sh"
BENCH_DB="${DB_NAME}_bench"
[ "$(id -u)" = 0 ] || die "run as root"
ensure_services
[ "$(pg_val -c "select 1 from pg_database where datname='$BENCH_DB'")" = 1 ] ||
  die "no bench database $BENCH_DB: run bench/setup.sh first"
exec 9>/tmp/ttrss-testbed.lock
flock 9
pg -o /dev/null <<SQL
DROP DATABASE IF EXISTS "${DB_NAME}_next" WITH (FORCE);
SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '$BENCH_DB' AND pid <> pg_backend_pid();
CREATE DATABASE "${DB_NAME}_next" TEMPLATE "$BENCH_DB" OWNER "$DB_USER";
DROP DATABASE IF EXISTS "$DB_NAME" WITH (FORCE);
ALTER DATABASE "${DB_NAME}_next" RENAME TO "$DB_NAME";
SQL
