#!/usr/bin/env bash
# Restores the seeded tt-rss state (database $DB_NAME from the snapshot $DB_SEED made by
# setup.sh) and makes sure PostgreSQL, Apache and the feeds namespace are up.
# Tests call it between test files. Every API session is gone afterwards: log in again.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ "$(id -u)" = 0 ] || die "run as root"
ensure_services
[ "$(pg_val -c "select 1 from pg_database where datname='$DB_SEED'")" = 1 ] ||
  die "no seed database $DB_SEED: run testbed/setup.sh first"

# Two resets at once (parallel test workers) queue up instead of colliding.
exec 9>/tmp/ttrss-testbed.lock
flock 9

# Copy the snapshot under a spare name first, then swap: the live database is missing only
# between DROP and RENAME (milliseconds), not for the whole copy. DROP ... WITH (FORCE)
# ends Apache's open connections.
pg -o /dev/null <<SQL
DROP DATABASE IF EXISTS "${DB_NAME}_next" WITH (FORCE);
SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '$DB_SEED' AND pid <> pg_backend_pid();
CREATE DATABASE "${DB_NAME}_next" TEMPLATE "$DB_SEED" OWNER "$DB_USER";
DROP DATABASE IF EXISTS "$DB_NAME" WITH (FORCE);
ALTER DATABASE "${DB_NAME}_next" RENAME TO "$DB_NAME";
SQL
