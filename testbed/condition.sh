#!/usr/bin/env bash
# Turns a condition of the server on for a test, for real (see lib.sh):
#   condition.sh daemon on|off     the update daemon runs / stops
#   condition.sh feed-error FILE   reader's feed FILE (e.g. big.xml) fails to update; break it
#                                  before starting the daemon, whose own run could fetch the old
#                                  address meanwhile
#   condition.sh update-feed ID    the server fetches feed ID now (update.php, as its web user),
#                                  not from its 30-second copy of the feed (current tt-rss)
#   condition.sh sessions-end USER USER's API sessions deleted on the server (ttrss_sessions): the
#                                  next call answers NOT_LOGGED_IN, as after an expiry
#   condition.sh postgres-restart  PostgreSQL restarted (both servers' databases go away a moment)
# reset.sh turns everything off again.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ "$(id -u)" = 0 ] || die "run as root"
case "${1:-} ${2:-}" in
  "daemon on") start_update_daemon ;;
  "daemon off") stop_update_daemon ;;
  feed-error\ ?*) break_feed "$2" ;;
  update-feed\ ?*)
    [[ "$2" =~ ^[0-9]+$ ]] || die "update-feed: not a feed id: $2"
    # The current tt-rss answers a feed fetched in the last 30 s from its own copy (cache/feeds/):
    # a test that serves new items right after a fetch wants them read, as a later run would.
    rm -f "$TTRSS_WWW"/cache/feeds/*.xml
    (cd "$TTRSS_WWW" && runuser -u www-data -- php update.php --update-feed "$2" >/dev/null 2>&1) ||
      die "update.php --update-feed $2 failed"
    ;;
  sessions-end\ ?*)
    [[ "$2" =~ ^[a-z0-9_]+$ ]] || die "sessions-end: not a user name: $2"
    # A session's data is base64 of PHP's session encoding, which holds `uid|i:<id>;`.
    deleted="$(pg_val -d "$DB_NAME" -c "
      WITH u AS (SELECT id FROM ttrss_users WHERE login = '$2')
      DELETE FROM ttrss_sessions
       WHERE position('uid|i:' || (SELECT id FROM u) || ';' IN
                      convert_from(decode(data, 'base64'), 'UTF8')) > 0
      RETURNING 1" | wc -l)"
    log "sessions-end $2: $deleted deleted"
    ;;
  "postgres-restart ")
    # One restart at a time: a chaos schedule may ask for a second while the first runs, and two
    # pg_ctlcluster restarts side by side fail ("lock file postmaster.pid already exists"; seed
    # 530611). The lock's descriptor is not passed on to PostgreSQL (without_inherited_fds).
    (
      flock 9
      without_inherited_fds pg_ctlcluster 15 main restart
      start_postgres
    ) 9>/tmp/testbed-postgres-restart.lock
    ;;
  *) die "usage: condition.sh daemon on|off | feed-error FILE | update-feed ID | sessions-end USER | postgres-restart" ;;
esac
