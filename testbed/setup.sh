#!/usr/bin/env bash
# Builds the tt-rss test bed on a Debian 12 machine, as root, without questions.
# Idempotent: a second run only checks that everything is up and skips the rest.
# Run: bash testbed/setup.sh        (FORCE_RESEED=1 to rebuild the seeded database)
set -euo pipefail

START_TS=$(date +%s)
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ "$(id -u)" = 0 ] || die "run as root"

TTRSS_WWW=/usr/share/tt-rss/www
TTRSS_CONFIG=/etc/tt-rss/config.php
TTRSS_DBCONF=/etc/tt-rss/database.php
SCHEMA_SQL=/usr/share/dbconfig-common/data/tt-rss/install/pgsql
PACKAGES=(postgresql tt-rss php-pgsql dbconfig-pgsql php-curl apache2 libapache2-mod-php iproute2 curl python3)

# ------------------------------------------------------------------ packages

missing_packages() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || echo "$p"
  done
}

apt_install() {
  # Update the package lists only when an install cannot find what it needs.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/tmp/testbed-apt.log 2>&1 9>&- || {
    log "apt-get install failed once; running apt-get update and retrying"
    apt-get update -q >>/tmp/testbed-apt.log 2>&1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >>/tmp/testbed-apt.log 2>&1 9>&- ||
      { tail -30 /tmp/testbed-apt.log >&2; die "apt-get install $* failed (log: /tmp/testbed-apt.log)"; }
  }
}

install_packages() {
  local missing
  missing="$(missing_packages "${PACKAGES[@]}")"
  [ -z "$missing" ] && return 0
  log "installing: $(echo $missing)"
  if ! command -v pg_ctlcluster >/dev/null || [ -n "$(missing_packages postgresql)" ]; then
    apt_install postgresql
  fi
  # dbconfig-common creates the database while tt-rss installs: PostgreSQL must run.
  [ -d /etc/postgresql/15/main ] || pg_createcluster 15 main
  start_postgres
  debconf-set-selections <<EOF
tt-rss tt-rss/database-type select pgsql
tt-rss tt-rss/dbconfig-install boolean true
tt-rss tt-rss/pgsql/app-pass password $DB_PASS
tt-rss tt-rss/app-password-confirm password $DB_PASS
tt-rss tt-rss/pgsql/method select TCP/IP
tt-rss tt-rss/remote/host select localhost
tt-rss tt-rss/reconfigure-webserver multiselect apache2
tt-rss tt-rss/self_url_path string $TT_URL
EOF
  # shellcheck disable=SC2086
  apt_install $missing
  [ -z "$(missing_packages "${PACKAGES[@]}")" ] || die "still missing: $(missing_packages "${PACKAGES[@]}")"
}

# ------------------------------------------------------------------ tt-rss config

configure_ttrss() {
  local before after
  before="$(cat "$TTRSS_CONFIG" "$TTRSS_DBCONF" | sha256sum)"
  sed -i -E \
    -e "s|define\('SELF_URL_PATH', *'[^']*'\);|define('SELF_URL_PATH', '$TT_URL');|" \
    -e "s|define\('CHECK_FOR_UPDATES', *[a-z]+\);|define('CHECK_FOR_UPDATES', false);|" \
    -e "s|define\('LOG_DESTINATION', *'[^']*'\);|define('LOG_DESTINATION', '');|" \
    "$TTRSS_CONFIG"
  # The credentials in testbed.json are the truth; keep the app's copy in line.
  sed -i -E \
    -e "s|^\\\$dbpass=.*|\$dbpass='$DB_PASS';|" \
    -e "s|^\\\$dbname=.*|\$dbname='$DB_NAME';|" \
    -e "s|^\\\$dbuser=.*|\$dbuser='$DB_USER';|" \
    "$TTRSS_DBCONF"
  grep -q "define('SELF_URL_PATH', '$TT_URL');" "$TTRSS_CONFIG" || die "could not set SELF_URL_PATH"
  grep -q "define('CHECK_FOR_UPDATES', false);" "$TTRSS_CONFIG" || die "could not set CHECK_FOR_UPDATES"
  # LOG_DESTINATION '': PHP 8.2 warnings from this 2021 code (several per API call) go to
  # /var/log/apache2/error.log instead of rows in ttrss_error_log or a missing syslog.
  after="$(cat "$TTRSS_CONFIG" "$TTRSS_DBCONF" | sha256sum)"
  [ "$before" = "$after" ] || log "updated $TTRSS_CONFIG / $TTRSS_DBCONF"
}

# ------------------------------------------------------------------ databases

db_exists() { [ "$(pg_val -c "select 1 from pg_database where datname='$1'")" = 1 ]; }

ensure_role() {
  if [ "$(pg_val -c "select 1 from pg_roles where rolname='$DB_USER'")" != 1 ]; then
    pg -c "CREATE ROLE \"$DB_USER\" LOGIN PASSWORD '$DB_PASS'"
  else
    pg -c "ALTER ROLE \"$DB_USER\" PASSWORD '$DB_PASS'"
  fi
}

# A database with the package's schema and nothing else (admin/password only):
# seeding always starts from it, so a reseed never inherits old state.
ensure_pristine() {
  db_exists "$DB_PRISTINE" && return 0
  log "creating $DB_PRISTINE from $SCHEMA_SQL"
  pg -c "CREATE DATABASE \"$DB_PRISTINE\" OWNER \"$DB_USER\""
  PGPASSWORD="$DB_PASS" PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -h localhost -U "$DB_USER" -d "$DB_PRISTINE" \
    -f "$SCHEMA_SQL" >/dev/null
}

recreate_db() { # $1 = target, $2 = template
  pg -c "DROP DATABASE IF EXISTS \"$1\" WITH (FORCE)"
  # CREATE DATABASE ... TEMPLATE needs a template nobody is connected to.
  pg_val -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '$2' AND pid <> pg_backend_pid()" >/dev/null
  pg -c "CREATE DATABASE \"$1\" TEMPLATE \"$2\" OWNER \"$DB_USER\""
}

seed_hash() {
  (
    cd "$TESTBED_DIR"
    cat testbed.json setup.sh lib.sh make_fixtures.py
    find fixtures -type f | LC_ALL=C sort | xargs sha256sum
  ) | sha256sum | cut -c1-16
}

seed_is_current() {
  db_exists "$DB_SEED" &&
    [ "$(pg_val -c "select shobj_description(oid, 'pg_database') from pg_database where datname='$DB_SEED'")" = "testbed-seed $1" ]
}

sql_ttrss() { pg -d "$DB_NAME" "$@"; }
sql_val() { pg_val -d "$DB_NAME" "$@"; }

# ------------------------------------------------------------------ seeding

create_users() {
  # This tt-rss (21~git20210204) checks "MODE2:" || sha256(salt || password) for users
  # with a salt (include/functions.php encrypt_password, plugins/auth_internal).
  # Users are inserted directly: its own "add user" code would also subscribe them
  # to tt-rss.org feeds, which must never be fetched here.
  sql_ttrss -v u1="$TT_USER" -v p1="$TT_PASS" -v u2="$NOAPI_USER" -v p2="$NOAPI_PASS" \
    -v u3="$SECOND_USER" -v p3="$SECOND_PASS" <<'SQL'
INSERT INTO ttrss_users (login, pwd_hash, salt, access_level, created, full_name)
SELECT login, 'MODE2:' || encode(sha256(convert_to(salt || pass, 'UTF8')), 'hex'), salt, 0, NOW(), full_name
FROM (VALUES (:'u1', :'p1', 'testbed-salt-' || :'u1', 'Test Reader'),
             (:'u2', :'p2', 'testbed-salt-' || :'u2', 'No API User'),
             (:'u3', :'p3', 'testbed-salt-' || :'u3', 'Second Reader')) AS v(login, pass, salt, full_name);

INSERT INTO ttrss_user_prefs (owner_uid, pref_name, profile, value)
SELECT u.id, p.pref_name, NULL, p.value
FROM ttrss_users u
JOIN (VALUES (:'u1', 'ENABLE_API_ACCESS', 'true'),
             (:'u1', 'PURGE_OLD_DAYS', '0'),
             (:'u2', 'ENABLE_API_ACCESS', 'false'),
             (:'u2', 'PURGE_OLD_DAYS', '0'),
             (:'u3', 'ENABLE_API_ACCESS', 'true'),
             (:'u3', 'PURGE_OLD_DAYS', '0')) AS p(login, pref_name, value)
  ON p.login = u.login;
SQL
}

create_categories_and_labels() {
  # The API (level 15) cannot create categories or labels.
  sql_ttrss -v u="$TT_USER" <<'SQL'
WITH me AS (SELECT id FROM ttrss_users WHERE login = :'u'),
tech AS (INSERT INTO ttrss_feed_categories (owner_uid, title, order_id)
         SELECT id, 'Tech', 1 FROM me RETURNING id, owner_uid)
INSERT INTO ttrss_feed_categories (owner_uid, title, order_id, parent_cat)
SELECT owner_uid, 'Web', 1, id FROM tech;

INSERT INTO ttrss_feed_categories (owner_uid, title, order_id)
SELECT id, t.title, t.ord FROM ttrss_users, (VALUES ('World', 2), ('Empty', 3)) AS t(title, ord)
WHERE login = :'u';

INSERT INTO ttrss_labels2 (owner_uid, caption, fg_color, bg_color)
SELECT id, l.caption, l.fg, l.bg FROM ttrss_users,
  (VALUES ('Important', '#ffffff', '#d32f2f'), ('Later', '#000000', '#ffd54f')) AS l(caption, fg, bg)
WHERE login = :'u';
SQL
}

cat_id() {
  sql_val -v u="$TT_USER" -v t="$1" <<'SQL'
SELECT c.id FROM ttrss_feed_categories c JOIN ttrss_users u ON u.id = c.owner_uid
WHERE u.login = :'u' AND c.title = :'t'
SQL
}

login() { # $1 user $2 password -> session id
  local content
  content="$(api "{\"op\":\"login\",\"user\":\"$1\",\"password\":\"$2\"}")"
  json 'c.session_id' <<<"$content"
}

subscribe() { # $1 sid $2 path $3 category id (0 = uncategorized)
  local url="http://$FEEDS_HOST/feeds/$2" content code
  content="$(api "{\"op\":\"subscribeToFeed\",\"sid\":\"$1\",\"feed_url\":\"$url\",\"category_id\":$3}")"
  code="$(json 'c.status.code' <<<"$content")"
  [ "$code" = 1 ] || [ "$code" = 0 ] || die "subscribeToFeed $url -> $content"
  log "subscribed $url (category $3)"
}

fetch_feeds() {
  log "fetching feeds with update.php (as www-data)"
  runuser -u www-data -- php "$TTRSS_WWW/update.php" --feeds --force-update --quiet >/tmp/testbed-update.log 2>&1 ||
    { tail -30 /tmp/testbed-update.log >&2; die "update.php failed (log: /tmp/testbed-update.log)"; }
}

feed_counts() {
  sql_val -F ' ' -v u="$TT_USER" <<'SQL'
SELECT f.feed_url, count(ue.int_id), coalesce(nullif(f.last_error, ''), '-')
FROM ttrss_feeds f JOIN ttrss_users u ON u.id = f.owner_uid
LEFT JOIN ttrss_user_entries ue ON ue.feed_id = f.id
WHERE u.login = :'u' GROUP BY f.id ORDER BY f.id
SQL
}

# The hostile-HTML corpus feed has one item per vector of tests/fixtures/hostile/corpus.json.
CORPUS_COUNT="$(node -p 'require(process.argv[1]).length' "$TESTBED_DIR/../tests/fixtures/hostile/corpus.json")"
EXPECTED_COUNTS=(tech-news.xml:12 web-dev.xml:8 podcast.xml:5 international.xml:7 hostile.xml:11 big.xml:320
  "hostile-corpus.xml:$CORPUS_COUNT")

counts_ok() {
  local counts="$1" e file n got
  for e in "${EXPECTED_COUNTS[@]}"; do
    file="${e%%:*}"; n="${e##*:}"
    got="$(awk -v f="/feeds/$file" 'index($1, f) {print $2}' <<<"$counts")"
    [ "$got" = "$n" ] || return 1
  done
}

seed() {
  log "seeding database $DB_NAME"
  recreate_db "$DB_NAME" "$DB_PRISTINE"
  create_users
  create_categories_and_labels

  local sid
  sid="$(login "$TT_USER" "$TT_PASS")"
  local tech web world
  tech="$(cat_id Tech)"; web="$(cat_id Web)"; world="$(cat_id World)"
  subscribe "$sid" tech-news.xml "$tech"
  subscribe "$sid" web-dev.xml "$web"
  subscribe "$sid" international.xml "$world"
  subscribe "$sid" podcast.xml "$world"
  subscribe "$sid" hostile.xml 0
  subscribe "$sid" big.xml 0
  subscribe "$sid" hostile-corpus.xml 0

  local counts attempt
  for attempt in 1 2 3; do
    fetch_feeds
    counts="$(feed_counts)"
    counts_ok "$counts" && break
    log "feed counts not complete yet (attempt $attempt):"$'\n'"$counts"
  done
  counts_ok "$counts" || die "feeds were not fetched completely:"$'\n'"$counts"$'\n'"$(tail -20 /tmp/testbed-update.log)"
  log "articles per feed:"$'\n'"$counts"

  # Article ids by title, from the server's own listing of everything.
  local all
  all="$(api "{\"op\":\"getHeadlines\",\"sid\":\"$sid\",\"feed_id\":-4,\"limit\":-1,\"show_content\":false}")"
  echo "$all" >/tmp/testbed-headlines.json
  ids() { # titles (prefix match, each must hit exactly one article) -> "id,id"
    node -e '
      const hs = JSON.parse(require("fs").readFileSync("/tmp/testbed-headlines.json", "utf8"));
      const out = process.argv.slice(1).map((t) => {
        const hit = hs.filter((h) => h.title.startsWith(t));
        if (hit.length !== 1) { console.error(`title "${t}" matched ${hit.length} articles`); process.exit(1); }
        return hit[0].id;
      });
      process.stdout.write(out.join(","));
    ' "$@"
  }
  update() { # $1 ids $2 field $3 mode [$4 data]
    local data="" content
    [ $# -ge 4 ] && data=",\"data\":$(node -p 'JSON.stringify(process.argv[1])' "$4")"
    content="$(api "{\"op\":\"updateArticle\",\"sid\":\"$sid\",\"article_ids\":\"$1\",\"field\":$2,\"mode\":$3$data}")"
    [ "$(json 'c.status' <<<"$content")" = OK ] || die "updateArticle $1 -> $content"
  }
  label() { # $1 ids $2 label caption
    local labels lid content
    labels="$(api "{\"op\":\"getLabels\",\"sid\":\"$sid\"}")"
    lid="$(json "c.find((l) => l.caption === '$2').id" <<<"$labels")"
    content="$(api "{\"op\":\"setArticleLabel\",\"sid\":\"$sid\",\"article_ids\":\"$1\",\"label_id\":$lid,\"assign\":true}")"
    [ "$(json 'c.updated' <<<"$content")" -ge 1 ] || die "setArticleLabel $2 -> $content"
  }

  # starred (field 0)
  update "$(ids 'Tech news 01' 'Web dev 01' 'Episode 1:' 'Big feed item 001' '日本語の記事')" 0 1
  # published (field 1)
  update "$(ids 'Tech news 02' 'Episode 2:' 'Статья на русском')" 1 1
  # notes (field 3)
  update "$(ids 'Tech news 01')" 3 1 "Seeded note: read this first"
  update "$(ids 'Статья на русском')" 3 1 "Заметка: проверить перевод ✓"
  # labels
  label "$(ids 'Tech news 01' 'Script tags' 'Big feed item 002')" Important
  label "$(ids 'Web dev 02' 'Episode 1:' 'Big feed item 002')" Later
  # read (field 2, mode 0): a few everywhere, and the 20 oldest items of the big feed
  local old_big olds
  mapfile -t olds < <(seq -f 'Big feed item %03g' 301 320)
  old_big="$(ids "${olds[@]}")"
  update "$(ids 'Tech news 10' 'Tech news 11' 'Tech news 12' 'Episode 5:' 'Web dev 08' 'Event handlers')" 2 0
  update "$old_big" 2 0
  # The corpus feed is seeded read, straight in the database (no last_read, so "Recently read"
  # stays as it was): the global unread count and every other counter keep their values.
  sql_ttrss -v u="$TT_USER" <<'SQL'
UPDATE ttrss_user_entries SET unread = false
WHERE feed_id IN (SELECT f.id FROM ttrss_feeds f JOIN ttrss_users u ON u.id = f.owner_uid
                  WHERE u.login = :'u' AND f.feed_url LIKE '%/feeds/hostile-corpus.xml');
SQL

  api "{\"op\":\"logout\",\"sid\":\"$sid\"}" >/dev/null
  seed_second_user
}

# The second account (two-account tests): its own subscription to the podcast feed, all unread.
# Subscribed and fetched after everything of the first user, so the first user's article ids are
# the same as without it; updateFeed fetches this one feed only.
seed_second_user() {
  local sid feed content
  sid="$(login "$SECOND_USER" "$SECOND_PASS")"
  [ -n "$sid" ] || die "login as $SECOND_USER gave no session"
  subscribe "$sid" podcast.xml 0
  feed="$(json 'c.find((f) => f.feed_url.endsWith("/feeds/podcast.xml")).id' \
    <<<"$(api "{\"op\":\"getFeeds\",\"sid\":\"$sid\",\"cat_id\":-3}")")"
  api "{\"op\":\"updateFeed\",\"sid\":\"$sid\",\"feed_id\":$feed}" >/dev/null
  content="$(api "{\"op\":\"getHeadlines\",\"sid\":\"$sid\",\"feed_id\":-4,\"limit\":-1}")"
  [ "$(json 'c.filter((h) => h.unread).length' <<<"$content")" = 5 ] ||
    die "$SECOND_USER should have 5 unread articles after fetching its feed, got: $content"
  api "{\"op\":\"logout\",\"sid\":\"$sid\"}" >/dev/null
}

snapshot() { # $1 = hash
  log "snapshot $DB_NAME -> $DB_SEED"
  recreate_db "$DB_SEED" "$DB_NAME"
  pg -c "COMMENT ON DATABASE \"$DB_SEED\" IS 'testbed-seed $1'"
}

# ------------------------------------------------------------------ checks

check_logins() {
  local sid reply
  sid="$(login "$TT_USER" "$TT_PASS")"
  [ -n "$sid" ] || die "login as $TT_USER gave no session"
  api "{\"op\":\"logout\",\"sid\":\"$sid\"}" >/dev/null
  reply="$(api_raw "{\"op\":\"login\",\"user\":\"$NOAPI_USER\",\"password\":\"$NOAPI_PASS\"}")"
  [ "$(json 'c.content && c.content.error' <<<"$reply")" = API_DISABLED ] ||
    die "login as $NOAPI_USER should answer API_DISABLED, got: $reply"
}

# ------------------------------------------------------------------ main

# Serialize with reset.sh (and another setup.sh).
take_testbed_lock

install_packages
configure_ttrss
ensure_services
python3 "$TESTBED_DIR/make_fixtures.py"
ensure_role
ensure_pristine

HASH="$(seed_hash)"
if [ "${FORCE_RESEED:-0}" != 1 ] && seed_is_current "$HASH"; then
  log "seed database $DB_SEED is current ($HASH); skipping seeding"
  db_exists "$DB_NAME" || recreate_db "$DB_NAME" "$DB_SEED"
else
  seed
  snapshot "$HASH"
fi
check_logins
release_testbed_lock

cat <<EOF

tt-rss test bed ready in $(( $(date +%s) - START_TS )) s
  web UI     : $TT_URL
  API        : $API_URL
  test user  : $TT_USER / $TT_PASS   (API enabled)
  no-API user: $NOAPI_USER / $NOAPI_PASS   (login answers API_DISABLED)
  second user: $SECOND_USER / $SECOND_PASS   (API enabled, its own podcast feed)
  admin      : $(cfg adminUser) / $(cfg adminPassword)   (server default, API disabled)
  feeds host : http://$FEEDS_HOST/ ($FEEDS_ADDR, namespace $NETNS, log $HTTP_LOG)
  database   : $DB_NAME (seed snapshot: $DB_SEED; restore with testbed/reset.sh)
EOF
