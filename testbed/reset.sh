#!/usr/bin/env bash
# Restores the seeded tt-rss state of the test bed's servers (each one's database $DB_NAME from its
# snapshot $DB_SEED made by setup.sh) and makes sure their services and the feeds namespace are up.
# Run: bash testbed/reset.sh [debian|current|all]   (default all)
# Tests call it between test files (for the server they test). Every API session is gone afterwards:
# log in again.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ "$(id -u)" = 0 ] || die "run as root"
mapfile -t SERVERS < <(servers_from_args "$@")

reset_server() {
  load_server "$1"
  ensure_services
  stop_update_daemon
  live_db_from "$DB_SEED"

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
}

for server in "${SERVERS[@]}"; do reset_server "$server"; done
