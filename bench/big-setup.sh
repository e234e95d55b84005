#!/usr/bin/env bash
# Builds the big account's snapshot database `ttrss_big` once (idempotent; FORCE=1 rebuilds): the
# seeded test state plus, for `reader`, 1,000 feeds in 50 categories (some nested) with 100 items
# each that tt-rss itself fetched from the feed host, then 20,000 left unread (all 5,000 of
# "Topic 01"), 1,000 starred and 48 more labels (50 in all) — bench/make-big-feeds.js.
# Swap it in with bench/use-big-db.sh, back with testbed/reset.sh. Not part of the tests.
#
#   bash bench/big-setup.sh          (as root, after testbed/setup.sh; ~10 min on 2 busy cores)
#
# It never touches the live database, so it needs no test lock: the copy of the seed is made under
# the test bed's own lock (a second or two), and tt-rss's fetch code runs against that copy
# (bench/big-update.php names the database), many feeds per PHP process, several processes at once.
# A run that stops half way keeps that copy and the next run goes on from there.
# The feed files live in /tmp/ttrss-big-feeds and are only symlinked (as a directory, which the
# seed hash does not follow) into the fixtures the feed host serves while tt-rss fetches them.
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../testbed/lib.sh
source "$BENCH_DIR/../testbed/lib.sh"

BIG_DB="${DB_NAME}_big"
WORK_DB="${DB_NAME}_big_work"
BIG_VERSION=1
FEEDS_TMP=/tmp/ttrss-big-feeds
PROCS="${BIG_PROCS:-4}"

[ "$(id -u)" = 0 ] || die "run as root"
start_postgres
# Only when the feed host is down: a running one may serve another checkout's fixtures (a CI
# clone), and restarting it would pull the floor from under that run.
feeds_server_ok || ensure_services
seed_comment="$(pg_val -c "select shobj_description(oid, 'pg_database') from pg_database where datname='$DB_SEED'")"
[ -n "$seed_comment" ] || die "no seed database $DB_SEED: run testbed/setup.sh first"
want="big v$BIG_VERSION on $seed_comment"
have="$(pg_val -c "select shobj_description(oid, 'pg_database') from pg_database where datname='$BIG_DB'")"
if [ "${FORCE:-0}" != 1 ] && [ "$have" = "$want" ]; then
  log "big database $BIG_DB is current ($want)"
  exit 0
fi

START=$(date +%s)
# The feed files are symlinked into the fixtures the feed host serves, ours and the one it serves
# now (a CI clone's, say) — again before every batch: another session's testbed/setup.sh rewrites
# its fixtures (and so drops the link), and a reset may restart the host on other fixtures.
LINKS=()
link_feeds() {
  local dir l
  for dir in "$FIXTURES_DIR" "$(cat "$HTTP_PIDFILE.dir" 2>/dev/null || true)"; do
    [ -d "$dir/feeds" ] || continue
    l="$dir/feeds/big"
    ln -sfn "$FEEDS_TMP" "$l"
    [[ " ${LINKS[*]} " == *" $l "* ]] || LINKS+=("$l")
  done
}
# fetch() runs in a pipeline's subshell: its links are not in LINKS here, so both places again.
trap 'rm -f "${LINKS[@]}" "$FIXTURES_DIR/feeds/big" "$(cat "$HTTP_PIDFILE.dir" 2>/dev/null)/feeds/big"' EXIT

# A run that stopped half way (the feed host gone, say) left its database: go on with it.
work_want="work for $want"
work_have="$(pg_val -c "select shobj_description(oid, 'pg_database') from pg_database where datname='$WORK_DB'")"
if [ "${FORCE:-0}" = 1 ] || [ "$work_have" != "$work_want" ] || [ ! -f "$FEEDS_TMP/plan.sql" ]; then
  log "writing 1,000 feeds to $FEEDS_TMP"
  rm -rf "$FEEDS_TMP"
  node "$BENCH_DIR/make-big-feeds.js" "$FEEDS_TMP"
  take_testbed_lock
  pg -o /dev/null <<SQL
DROP DATABASE IF EXISTS "$WORK_DB" WITH (FORCE);
CREATE DATABASE "$WORK_DB" TEMPLATE "$DB_SEED" OWNER "$DB_USER";
SQL
  release_testbed_lock
  # A throwaway copy: no flush to disk per article (tt-rss commits each one).
  pg -o /dev/null -c "ALTER DATABASE \"$WORK_DB\" SET synchronous_commit = off"
  pg -d "$WORK_DB" -o /dev/null -v u="$TT_USER" -f "$FEEDS_TMP/plan.sql"
  pg -o /dev/null -c "COMMENT ON DATABASE \"$WORK_DB\" IS '$work_want'"
else
  log "going on with $WORK_DB"
fi
cp "$BENCH_DIR/big-update.php" "$FEEDS_TMP/"
chmod -R a+rX "$FEEDS_TMP"
link_feeds
curl_local -f -o /dev/null "http://$FEEDS_HOST/feeds/big/big-0001.xml" ||
  die "the feed host does not serve $FEEDS_TMP"

fetch() { # feed ids on stdin: batches of $PROCS × 25 feeds, 25 per PHP process
  local ids
  mapfile -t ids
  local n=${#ids[@]} at k
  for ((at = 0; at < n; at += PROCS * 25)); do
    link_feeds
    for ((k = 0; k < PROCS; k++)); do
      [ $((at + k * 25)) -lt "$n" ] || break
      (cd /tmp && runuser -u www-data -- php "$FEEDS_TMP/big-update.php" "$WORK_DB" \
        "${ids[@]:$((at + k * 25)):25}" 2>>"$FEEDS_TMP/update-$k.log" >/dev/null) &
    done
    wait || true
  done
}
missing() { # feeds with fewer items than written (not fetched, or failed)
  pg_val -d "$WORK_DB" <<SQL
SELECT f.id FROM ttrss_feeds f LEFT JOIN ttrss_user_entries e ON e.feed_id = f.id
 WHERE f.feed_url LIKE 'http://$FEEDS_HOST/feeds/big/%'
 GROUP BY f.id HAVING count(e.ref_id) < 100 ORDER BY f.id
SQL
}
log "tt-rss fetches 1,000 feeds ($PROCS processes)"
FETCH_START=$(date +%s)
missing | fetch
for pass in 1 2; do
  left="$(missing | wc -l)"
  [ "$left" -gt 0 ] || break
  log "fetching again $left feeds that came back short (pass $pass)"
  missing | fetch
done
log "fetched in $(($(date +%s) - FETCH_START)) s"
[ "$(missing | wc -l)" = 0 ] || die "feeds still short: $(missing | head -5 | tr '\n' ' ') (logs: $FEEDS_TMP/update-*.log)"

pg -d "$WORK_DB" -o /dev/null -v u="$TT_USER" -f "$FEEDS_TMP/post.sql"
counts="$(pg_val -d "$WORK_DB" <<SQL
SELECT count(*) || ' feeds, ' ||
  (SELECT count(*) FROM ttrss_feed_categories c WHERE c.owner_uid = u.id) || ' categories, ' ||
  (SELECT count(*) FROM ttrss_user_entries e WHERE e.owner_uid = u.id) || ' articles, ' ||
  (SELECT count(*) FROM ttrss_user_entries e WHERE e.owner_uid = u.id AND unread) || ' unread, ' ||
  (SELECT count(*) FROM ttrss_user_entries e WHERE e.owner_uid = u.id AND marked) || ' starred, ' ||
  (SELECT count(*) FROM ttrss_labels2 l WHERE l.owner_uid = u.id) || ' labels, ' ||
  (SELECT count(*) FROM ttrss_user_entries e JOIN ttrss_feeds f ON f.id = e.feed_id
     JOIN ttrss_feed_categories c ON c.id = f.cat_id WHERE c.title = 'Topic 01' AND unread)
  || ' unread in Topic 01'
  FROM ttrss_feeds f JOIN ttrss_users u ON u.id = f.owner_uid WHERE u.login = '$TT_USER' GROUP BY u.id
SQL
)"
log "reader: $counts"

pg -o /dev/null <<SQL
ALTER DATABASE "$WORK_DB" RESET synchronous_commit;
COMMENT ON DATABASE "$WORK_DB" IS NULL;
DROP DATABASE IF EXISTS "$BIG_DB" WITH (FORCE);
ALTER DATABASE "$WORK_DB" RENAME TO "$BIG_DB";
COMMENT ON DATABASE "$BIG_DB" IS '$want';
SQL
log "big database $BIG_DB ready in $(($(date +%s) - START)) s (the live database was not touched)"
