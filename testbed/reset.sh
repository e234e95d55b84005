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

# The server looks at some times relative to now: getHeadlines' first_id (and so check_first_id)
# only considers articles entered in the last hour, Fresh the last day. A seed made hours ago would
# make those tests depend on its age, so every time the seed wrote is moved forward by that age:
# a reset always gives the state as it was right after seeding. Article dates (`updated`) stay.
pg -d "$DB_NAME" -o /dev/null <<'SQL'
BEGIN;
CREATE TEMP TABLE seed_age AS SELECT NOW() - MAX(date_entered) AS age FROM ttrss_entries;
UPDATE ttrss_entries
   SET date_entered = date_entered + (SELECT age FROM seed_age),
       date_updated = date_updated + (SELECT age FROM seed_age);
UPDATE ttrss_user_entries
   SET last_read = last_read + (SELECT age FROM seed_age),
       last_marked = last_marked + (SELECT age FROM seed_age),
       last_published = last_published + (SELECT age FROM seed_age);
COMMIT;
SQL
