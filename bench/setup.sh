#!/usr/bin/env bash
# Builds the benchmark's database snapshot `ttrss_bench` once (idempotent): the seeded test state
# plus two bench-only feeds that tt-rss really fetched (bench/make-feeds.js):
#   "Bench 10k headlines" (10,000 short items) and "Bench content" (1,200 articles of ~1.5 KB,
#   unread, the newest of all, and one article of ~100 KB).
# The live database is restored to the seed afterwards (testbed/reset.sh): tests never see the
# bench feeds. Swap the snapshot in with bench/use-bench-db.sh, and back with testbed/reset.sh.
#
# Run after testbed/setup.sh, as root, holding the test bed lock:
#   flock /tmp/e2e-run.lock bash bench/setup.sh        (FORCE=1 rebuilds)
#
# The feed files are written to /tmp/ttrss-bench-feeds and only *symlinked* into
# testbed/fixtures/feeds/ while tt-rss fetches them, then removed: the test bed's seed hash counts
# regular files only, so a setup.sh running meanwhile does not reseed, and nothing is left to commit.
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../testbed/lib.sh
source "$BENCH_DIR/../testbed/lib.sh"

BENCH_DB="${DB_NAME}_bench"
BENCH_VERSION=2
FEEDS_TMP=/tmp/ttrss-bench-feeds
LINKS=("$FIXTURES_DIR/feeds/bench-10k.xml" "$FIXTURES_DIR/feeds/bench-content.xml")

[ "$(id -u)" = 0 ] || die "run as root"
ensure_services
seed_comment="$(pg_val -c "select shobj_description(oid, 'pg_database') from pg_database where datname='$DB_SEED'")"
[ -n "$seed_comment" ] || die "no seed database $DB_SEED: run testbed/setup.sh first"
want="bench v$BENCH_VERSION on $seed_comment"
have="$(pg_val -c "select shobj_description(oid, 'pg_database') from pg_database where datname='$BENCH_DB'")"
if [ "${FORCE:-0}" != 1 ] && [ "$have" = "$want" ]; then
  log "bench database $BENCH_DB is current ($want)"
  exit 0
fi

START=$(date +%s)
bash "$TESTBED_DIR/reset.sh"

cleanup() { rm -f "${LINKS[@]}"; }
trap cleanup EXIT
node "$BENCH_DIR/make-feeds.js" "$FEEDS_TMP"
chmod -R a+rX "$FEEDS_TMP"
for f in "${LINKS[@]}"; do ln -sf "$FEEDS_TMP/$(basename "$f")" "$f"; done

sid="$(api "{\"op\":\"login\",\"user\":\"$TT_USER\",\"password\":\"$TT_PASS\"}" | json 'c.session_id')"
[ -n "$sid" ] || die "login failed"
feed_ids=()
for name in bench-10k bench-content; do
  reply="$(api "{\"op\":\"subscribeToFeed\",\"sid\":\"$sid\",\"feed_url\":\"http://$FEEDS_HOST/feeds/$name.xml\"}")"
  id="$(json 'c.status && c.status.feed_id' <<<"$reply")"
  [ -n "$id" ] && [ "$id" != undefined ] || die "subscribing $name failed: $reply"
  feed_ids+=("$id")
done
api "{\"op\":\"logout\",\"sid\":\"$sid\"}" >/dev/null

# The long feed first: "Bench content" is then entered last, so its articles are the newest unread.
for id in "${feed_ids[@]}"; do
  log "tt-rss fetches feed $id"
  (cd /usr/share/tt-rss/www && runuser -u www-data -- php update.php --update-feed "$id" >/dev/null 2>&1) ||
    die "update.php --update-feed $id failed"
done
cleanup

counts="$(pg_val -d "$DB_NAME" -c "select f.title || '=' || count(e.ref_id) from ttrss_feeds f
  left join ttrss_user_entries e on e.feed_id = f.id where f.id in (${feed_ids[0]}, ${feed_ids[1]})
  group by f.title order by f.title" | tr '\n' ' ')"
log "fetched: $counts"
case "$counts" in
  *"Bench 10k headlines=10000"*"Bench content=1201"* | *"Bench content=1201"*"Bench 10k headlines=10000"*) ;;
  *) die "unexpected article counts: $counts" ;;
esac

log "snapshot $DB_NAME -> $BENCH_DB"
pg -o /dev/null <<SQL
DROP DATABASE IF EXISTS "$BENCH_DB" WITH (FORCE);
SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '$DB_NAME' AND pid <> pg_backend_pid();
CREATE DATABASE "$BENCH_DB" TEMPLATE "$DB_NAME" OWNER "$DB_USER";
COMMENT ON DATABASE "$BENCH_DB" IS '$want';
SQL
bash "$TESTBED_DIR/reset.sh"
log "bench database ready in $(( $(date +%s) - START )) s; live database back to the seed"
