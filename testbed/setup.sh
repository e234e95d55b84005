#!/usr/bin/env bash
# Builds the tt-rss test bed on a Debian 12 machine, as root, without questions: two servers beside
# each other (testbed.json's servers), Debian's own tt-rss package and the current tt-rss.
# Idempotent: a second run only checks that everything is up and skips the rest.
# Run: bash testbed/setup.sh [debian|current|all]   (default all; FORCE_RESEED=1 to rebuild the seed)
set -euo pipefail

START_TS=$(date +%s)
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ "$(id -u)" = 0 ] || die "run as root"

TTRSS_CONFIG=/etc/tt-rss/config.php
TTRSS_DBCONF=/etc/tt-rss/database.php
SCHEMA_SQL=/usr/share/dbconfig-common/data/tt-rss/install/pgsql
DEBIAN_PACKAGES=(postgresql tt-rss php-pgsql dbconfig-pgsql php-curl apache2 libapache2-mod-php iproute2 curl python3)

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
  missing="$(missing_packages "${DEBIAN_PACKAGES[@]}")"
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
  [ -z "$(missing_packages "${DEBIAN_PACKAGES[@]}")" ] || die "still missing: $(missing_packages "${DEBIAN_PACKAGES[@]}")"
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
  # The Reader plugin's image proxy reaches public addresses only; the feeds host is private
  # (package/init.php, READER_IMAGE_PROXY_ALLOW): allowed here, as an administrator allows a LAN host.
  sed -i -E "/READER_IMAGE_PROXY_ALLOW/d" "$TTRSS_CONFIG"
  echo "	putenv('READER_IMAGE_PROXY_ALLOW=$FEEDS_ADDR/32'); // testbed/setup.sh: the feeds host" >>"$TTRSS_CONFIG"
  # The credentials in testbed.json are the truth; keep the app's copy in line. The type, host and
  # port too: on one fresh machine dbconfig-common wrote them shifted by one (dbtype '', dbserver
  # 'ttrss@localhost', dbport 'localhost'), and tt-rss answered "could not find driver".
  sed -i -E \
    -e "s|^\\\$dbpass=.*|\$dbpass='$DB_PASS';|" \
    -e "s|^\\\$dbname=.*|\$dbname='$DB_NAME';|" \
    -e "s|^\\\$dbuser=.*|\$dbuser='$DB_USER';|" \
    -e "s|^\\\$dbtype=.*|\$dbtype='pgsql';|" \
    -e "s|^\\\$dbserver=.*|\$dbserver='localhost';|" \
    -e "s|^\\\$dbport=.*|\$dbport='5432';|" \
    "$TTRSS_DBCONF"
  grep -q "define('SELF_URL_PATH', '$TT_URL');" "$TTRSS_CONFIG" || die "could not set SELF_URL_PATH"
  grep -q "define('CHECK_FOR_UPDATES', false);" "$TTRSS_CONFIG" || die "could not set CHECK_FOR_UPDATES"
  # LOG_DESTINATION '': PHP 8.2 warnings from this 2021 code (several per API call) go to
  # /var/log/apache2/error.log instead of rows in ttrss_error_log or a missing syslog.
  after="$(cat "$TTRSS_CONFIG" "$TTRSS_DBCONF" | sha256sum)"
  [ "$before" = "$after" ] || log "updated $TTRSS_CONFIG / $TTRSS_DBCONF"
}

# The package's postinst enables its Alias (/tt-rss) only when apache2's maintscript helper works
# at that moment; installed after php8.2-fpm (the current server set up first), it did not, and
# Apache answered 404 for /tt-rss/. Enabled here whatever the order.
enable_apache_alias() {
  [ -e /etc/apache2/conf-enabled/50-tt-rss.conf ] && return 0
  log "enabling Apache's tt-rss alias (50-tt-rss)"
  a2enconf -q 50-tt-rss >/dev/null
  if curl_local -o /dev/null "http://localhost/" 2>/dev/null; then
    without_inherited_fds apachectl graceful
  fi
}

# Apache's idle keep-alive of 5 s is under a second longer than Node's fetch keeps an idle connection
# (4 s): on a loaded machine the client's timer fires late, and the contract tests sent a request on
# a connection Apache had just closed ("other side closed", 8 failures with the lint beside them,
# 2026-12-07). Browsers retry such a request; Node's fetch does not. 30 s here (nginx, the current
# server's, keeps 75 s) leaves the closing to the client.
APACHE_KEEPALIVE_CONF=/etc/apache2/conf-available/ttrss-testbed-keepalive.conf
keep_apache_connections() {
  local want="KeepAliveTimeout 30"
  [ "$(cat "$APACHE_KEEPALIVE_CONF" 2>/dev/null)" = "$want" ] &&
    [ -e /etc/apache2/conf-enabled/ttrss-testbed-keepalive.conf ] && return 0
  log "Apache: $want (the test bed's clients close idle connections first)"
  echo "$want" >"$APACHE_KEEPALIVE_CONF"
  a2enconf -q ttrss-testbed-keepalive >/dev/null
  if curl_local -o /dev/null "http://localhost/" 2>/dev/null; then
    without_inherited_fds apachectl graceful
  fi
}

# ------------------------------------------------------------------ the current server (tt-rss of 2026)
# The pinned tt-rss (ttrss-source.sh: TTRSS_VENDOR_DIR, ../shared/vendor or tt-rss's git repository;
# never copied into the repository) on Debian 12's own php8.2-fpm, nginx and PostgreSQL, laid out like
# its Docker images (.docker/app, .docker/web-nginx).

# The PHP extensions of .docker/app/Dockerfile as Debian packages: ctype, exif, fileinfo, iconv, json,
# openssl, pdo, phar, posix, session, sockets, sodium, tokenizer are in php8.2-common; pcntl in
# php8.2-cli; dom, simplexml, xml, xmlwriter in php8.2-xml; pecl-apcu is php8.2-apcu. xdebug is left
# out (a debugger, off in the image too).
CURRENT_PACKAGES=(postgresql php8.2-fpm php8.2-cli php8.2-common php8.2-curl php8.2-gd php8.2-intl
  php8.2-mbstring php8.2-pgsql php8.2-xml php8.2-zip php8.2-apcu nginx iproute2 curl python3)

install_current_packages() {
  local missing
  missing="$(missing_packages "${CURRENT_PACKAGES[@]}")"
  if [ -n "$missing" ]; then
    log "installing: $(echo $missing)"
    # shellcheck disable=SC2086
    apt_install $missing
  fi
  # nginx must not take port 80 (Apache serves the Debian server there): its default site goes.
  rm -f /etc/nginx/sites-enabled/default
  [ -d /etc/postgresql/15/main ] || pg_createcluster 15 main
}

# write_if_changed FILE: stdin becomes FILE unless FILE already holds exactly that; true if written.
write_if_changed() {
  local tmp
  tmp="$(mktemp)"
  cat >"$tmp"
  if [ -f "$1" ] && cmp -s "$tmp" "$1"; then
    rm -f "$tmp"
    return 1
  fi
  mkdir -p "$(dirname "$1")"
  mv "$tmp" "$1"
  chmod 644 "$1"
  log "wrote $1"
}

# stop_pid PIDFILE: ends that process (a service of ours whose configuration changed).
stop_pid() {
  pid_alive "$1" || return 0
  local pid i
  pid="$(cat "$1")"
  kill "$pid"
  for i in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  die "process $pid ($1) did not end"
}

# The marker holds the content digest of what is unpacked (testbed.json's tarballDigest), so a
# tarball made from git (other bytes, same content) finds the tree in place. A marker of before
# (.tarball-sha256: the pinned tarball's sha256) pins the same content.
unpack_current() {
  local tarball marker="$APP_ROOT/html/.tarball-digest"
  if [ -f "$TTRSS_WWW/update.php" ] && { [ "$(cat "$marker" 2>/dev/null)" = "$TARBALL_DIGEST" ] ||
    [ "$(cat "$APP_ROOT/html/.tarball-sha256" 2>/dev/null)" = "$TARBALL_SHA" ]; }; then
    return 0
  fi
  tarball="$(bash "$TESTBED_DIR/ttrss-source.sh")" || die "no checked source of tt-rss $TARBALL (above)"
  log "unpacking $tarball into $APP_ROOT/html"
  rm -rf "$APP_ROOT/html.new"
  mkdir -p "$APP_ROOT/html.new"
  tar -xzf "$tarball" -C "$APP_ROOT/html.new"
  [ -f "$APP_ROOT/html.new/tt-rss/update.php" ] || die "$tarball has no tt-rss/update.php"
  # What the image's startup.sh makes writable for the app user.
  local d
  for d in cache lock cache/export cache/feeds cache/images cache/upload cache/feed-icons; do
    mkdir -p "$APP_ROOT/html.new/tt-rss/$d"
  done
  # A tree unpacked anew keeps what the server fetched into its cache (the seed's feed icons
  # above all: the seed is not made again), as the image's volume keeps it across upgrades.
  if [ -d "$APP_ROOT/html/tt-rss/cache" ]; then
    cp -a "$APP_ROOT/html/tt-rss/cache/." "$APP_ROOT/html.new/tt-rss/cache/"
  fi
  chown -R www-data:www-data "$APP_ROOT/html.new/tt-rss/cache" "$APP_ROOT/html.new/tt-rss/lock"
  rm -rf "$APP_ROOT/html"
  mv "$APP_ROOT/html.new" "$APP_ROOT/html"
  echo "$TARBALL_DIGEST" >"$marker"
}

configure_current() {
  local run
  run="$(current_run_dir)"
  local logs nginx_conf
  logs="$(current_log_dir)"
  nginx_conf="$(current_nginx_conf)"
  mkdir -p "$run" "$APP_ROOT/etc" "$logs"
  chown www-data:www-data "$logs"

  # config.php as config.php-dist describes it: putenv('TTRSS_…') lines, the image's defaults
  # otherwise (LOG_DESTINATION sql). No outbound checks; the image's plugins but nginx_xaccel,
  # which its Dockerfile clones from GitHub.
  write_if_changed "$TTRSS_WWW/config.php" <<PHP || true
<?php
	// Written by testbed/setup.sh.
	putenv('TTRSS_DB_TYPE=pgsql');
	putenv('TTRSS_DB_HOST=localhost');
	putenv('TTRSS_DB_PORT=5432');
	putenv('TTRSS_DB_NAME=$DB_NAME');
	putenv('TTRSS_DB_USER=$DB_USER');
	putenv('TTRSS_DB_PASS=$DB_PASS');
	putenv('TTRSS_SELF_URL_PATH=$TT_URL');
	putenv('TTRSS_PHP_EXECUTABLE=/usr/bin/php8.2');
	putenv('TTRSS_PLUGINS=auth_internal, note');
	putenv('TTRSS_CHECK_FOR_UPDATES=false');
	putenv('TTRSS_CHECK_FOR_PLUGIN_UPDATES=false');
	putenv('TTRSS_ENABLE_PLUGIN_INSTALLER=false');
	// The Reader plugin's image proxy may fetch from the (private) feeds host.
	putenv('READER_IMAGE_PROXY_ALLOW=$FEEDS_ADDR/32');
PHP

  # The image's www.conf changes (clear_env no, error log, memory 256M, 5 children), in a php-fpm
  # master of our own so Debian's default pool is not involved. nginx's workers run as nobody.
  if write_if_changed "$APP_ROOT/etc/php-fpm.conf" <<CONF; then stop_pid "$run/php-fpm.pid"; fi
; Written by testbed/setup.sh: the current tt-rss's own php-fpm (see .docker/app/Dockerfile).
[global]
pid = $run/php-fpm.pid
error_log = $logs/php-fpm-master.log
daemonize = no

[ttrss-$SERVER]
user = www-data
group = www-data
listen = $run/php-fpm.sock
listen.owner = nobody
listen.group = nogroup
listen.mode = 0660
pm = dynamic
pm.max_children = 5
pm.start_servers = 2
pm.min_spare_servers = 1
pm.max_spare_servers = 3
clear_env = no
catch_workers_output = yes
php_admin_value[memory_limit] = 256M
; The suites install and replace the Reader plugin's PHP: opcache looks at a file's time at every
; request, not every 2 s.
php_admin_value[opcache.revalidate_freq] = 0
php_admin_value[error_log] = $logs/php-error.log
php_admin_flag[log_errors] = on
CONF

  # The web-nginx image's nginx.conf with its variables filled in as that image's envsubst does
  # (APP_FASTCGI_PASS is one of them: the pool's socket), plus what a second server on this machine
  # needs: its own port instead of 80 and its own pid file. Kept in /etc/nginx so its relative
  # `include fastcgi.conf` finds Debian's. Read from the unpacked tree (checked when unpacked), so a
  # second run needs no tarball.
  local conf
  conf="$(cat "$TTRSS_WWW/.docker/web-nginx/nginx.conf")" || die "no .docker/web-nginx/nginx.conf in $TTRSS_WWW"
  conf="$(APP_UPSTREAM=127.0.0.1 APP_FASTCGI_PASS="unix:$run/php-fpm.sock" APP_WEB_ROOT="$APP_ROOT/html" \
    APP_BASE=/tt-rss RESOLVER=127.0.0.1 node -e '
      const vars = ["APP_UPSTREAM", "APP_FASTCGI_PASS", "APP_WEB_ROOT", "APP_BASE", "RESOLVER"];
      let c = require("fs").readFileSync(0, "utf8");
      for (const v of vars) c = c.split("${" + v + "}").join(process.env[v]);
      const [port, pid] = process.argv.slice(1);
      const edit = (re, to) => {
        const before = c;
        c = c.replace(re, to);
        if (c === before) { console.error(`nginx.conf: ${re} not found`); process.exit(1); }
      };
      edit(/^pid .*;$/m, `pid ${pid};`);
      edit(/listen 80;/, `listen ${port};`);
      edit(/listen \[::\]:80;/, `listen [::]:${port};`);
      process.stdout.write("# Written by testbed/setup.sh from tt-rss/.docker/web-nginx/nginx.conf\n" + c);
    ' "$HTTP_PORT" "$run/nginx.pid" <<<"$conf")" || die "could not fill in nginx.conf"
  if write_if_changed "$nginx_conf" <<<"$conf"; then
    nginx -t -c "$nginx_conf" >/tmp/testbed-nginx-t.log 2>&1 ||
      { cat /tmp/testbed-nginx-t.log >&2; die "nginx -t failed for $nginx_conf"; }
    stop_pid "$run/nginx.pid"
  fi
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
  if [ "$SERVER" != debian ]; then
    # The current server makes its own schema (as the image's startup.sh does): pg_trgm, then
    # update.php --update-schema=force-yes as the web user, into the live database's name.
    log "creating $DB_PRISTINE with update.php --update-schema=force-yes"
    pg -c "DROP DATABASE IF EXISTS \"$DB_NAME\" WITH (FORCE)"
    pg -c "CREATE DATABASE \"$DB_NAME\" OWNER \"$DB_USER\""
    pg -d "$DB_NAME" -c "CREATE EXTENSION IF NOT EXISTS pg_trgm"
    (cd "$TTRSS_WWW" && runuser -u www-data -- php update.php --update-schema=force-yes) >/tmp/testbed-schema.log 2>&1 ||
      { tail -30 /tmp/testbed-schema.log >&2; die "update.php --update-schema failed (log: /tmp/testbed-schema.log)"; }
    recreate_db "$DB_PRISTINE" "$DB_NAME"
    return 0
  fi
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
    echo "$SERVER $TARBALL_SHA"
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
  # Users are inserted directly: tt-rss's own "add user" code would also subscribe them to
  # tt-rss.org feeds, which must never be fetched here.
  # Debian's tt-rss (21~git20210204) checks "MODE2:" || sha256(salt || password) for users with a
  # salt (include/functions.php encrypt_password, plugins/auth_internal), and keeps preferences in
  # ttrss_user_prefs. The current one (classes/UserHelper.php hash_password) still accepts MODE2 but
  # rewrites it at the first login to its first algorithm, "SSHA-512:" || sha512(salt || password):
  # inserted in that form the seed stays as it is. Its preferences are in ttrss_user_prefs2, and it
  # has ENABLE_API_ACCESS_BROWSER (off by default): on for every API user but the one that tests it.
  local algo=MODE2 digest=sha256 prefs=ttrss_user_prefs extra_users="" extra_prefs=""
  if [ "$SERVER" != debian ]; then
    algo=SSHA-512 digest=sha512 prefs=ttrss_user_prefs2
    extra_prefs=",
             (:'u1', 'ENABLE_API_ACCESS_BROWSER', 'true'),
             (:'u3', 'ENABLE_API_ACCESS_BROWSER', 'true')"
  fi
  if [ -n "$NOBROWSER_USER" ]; then
    extra_users=",
             (:'u4', :'p4', 'testbed-salt-' || :'u4', 'No Browser User')"
    extra_prefs+=",
             (:'u4', 'ENABLE_API_ACCESS', 'true'),
             (:'u4', 'ENABLE_API_ACCESS_BROWSER', 'false'),
             (:'u4', 'PURGE_OLD_DAYS', '0')"
  fi
  sql_ttrss -v u1="$TT_USER" -v p1="$TT_PASS" -v u2="$NOAPI_USER" -v p2="$NOAPI_PASS" \
    -v u3="$SECOND_USER" -v p3="$SECOND_PASS" -v u4="$NOBROWSER_USER" -v p4="$NOBROWSER_PASS" \
    -v algo="$algo" <<SQL
INSERT INTO ttrss_users (login, pwd_hash, salt, access_level, created, full_name)
SELECT login, :'algo' || ':' || encode($digest(convert_to(salt || pass, 'UTF8')), 'hex'), salt, 0, NOW(), full_name
FROM (VALUES (:'u1', :'p1', 'testbed-salt-' || :'u1', 'Test Reader'),
             (:'u2', :'p2', 'testbed-salt-' || :'u2', 'No API User'),
             (:'u3', :'p3', 'testbed-salt-' || :'u3', 'Second Reader')$extra_users) AS v(login, pass, salt, full_name);

INSERT INTO $prefs (owner_uid, pref_name, profile, value)
SELECT u.id, p.pref_name, NULL, p.value
FROM ttrss_users u
JOIN (VALUES (:'u1', 'ENABLE_API_ACCESS', 'true'),
             (:'u1', 'PURGE_OLD_DAYS', '0'),
             (:'u2', 'ENABLE_API_ACCESS', 'false'),
             (:'u2', 'PURGE_OLD_DAYS', '0'),
             (:'u3', 'ENABLE_API_ACCESS', 'true'),
             (:'u3', 'PURGE_OLD_DAYS', '0')$extra_prefs) AS p(login, pref_name, value)
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
  [ -n "$NOBROWSER_USER" ] || return 0
  # Browser API access off: the login works, a request a browser makes (Sec-Fetch-Mode) is refused.
  sid="$(login "$NOBROWSER_USER" "$NOBROWSER_PASS")"
  reply="$(curl_local -H 'Content-Type: application/json' -H 'Sec-Fetch-Mode: cors' \
    --data-binary "{\"op\":\"getApiLevel\",\"sid\":\"$sid\"}" "$API_URL")"
  [ "$(json 'c.content && c.content.error' <<<"$reply")" = API_DISABLED ] ||
    die "$NOBROWSER_USER's browser request should answer API_DISABLED, got: $reply"
  api "{\"op\":\"logout\",\"sid\":\"$sid\"}" >/dev/null
}

# ------------------------------------------------------------------ main

setup_server() { # $1 = server name
  local started
  started=$(date +%s)
  load_server "$1"
  log "== server $SERVER ($TT_URL)"
  if [ "$SERVER" = debian ]; then
    install_packages
    configure_ttrss
    enable_apache_alias
    keep_apache_connections
  else
    install_current_packages
    unpack_current
    configure_current
  fi
  # The database first: the current server's health check (ensure_services) reads it.
  start_postgres
  ensure_role
  if [ -n "$COPY_OF" ]; then
    # A copy serves the seed of the server it copies (set up before it: TESTBED_SERVERS' order).
    db_exists "$DB_SEED" || die "no seed $DB_SEED of $COPY_OF: set up $COPY_OF first"
    live_db_from "$DB_SEED"
    # The favicons the seeding's update runs stored beside the original's database rows.
    local icons
    icons="$(load_server "$COPY_OF" && echo "$TTRSS_WWW/cache/feed-icons")"
    [ ! -d "$icons" ] || cp -a "$icons/." "$TTRSS_WWW/cache/feed-icons/"
    ensure_services
    check_logins
    echo "tt-rss test bed \"$SERVER\" (a copy of $COPY_OF) ready in $(($(date +%s) - started)) s at $TT_URL"
    return 0
  fi
  ensure_pristine
  ensure_services

  local hash
  hash="$(seed_hash)"
  if [ "${FORCE_RESEED:-0}" != 1 ] && seed_is_current "$hash"; then
    log "seed database $DB_SEED is current ($hash); skipping seeding"
    db_exists "$DB_NAME" || recreate_db "$DB_NAME" "$DB_SEED"
  else
    seed
    snapshot "$hash"
  fi
  check_logins

  cat <<EOF

tt-rss test bed "$SERVER" ready in $(($(date +%s) - started)) s
  web UI     : $TT_URL   (API level $API_LEVEL)
  API        : $API_URL
  test user  : $TT_USER / $TT_PASS   (API enabled)
  no-API user: $NOAPI_USER / $NOAPI_PASS   (login answers API_DISABLED)
  second user: $SECOND_USER / $SECOND_PASS   (API enabled, its own podcast feed)
EOF
  [ -z "$NOBROWSER_USER" ] ||
    echo "  no-browser : $NOBROWSER_USER / $NOBROWSER_PASS   (API on, browser API access off: API_DISABLED after login)"
  cat <<EOF
  admin      : $(cfg adminUser) / $(cfg adminPassword)   (server default, API disabled)
  database   : $DB_NAME (seed snapshot: $DB_SEED; restore with testbed/reset.sh $SERVER)
EOF
}

mapfile -t SERVERS < <(servers_from_args "$@")

# Serialize with reset.sh (and another setup.sh).
take_testbed_lock
python3 "$TESTBED_DIR/make_fixtures.py"
for server in "${SERVERS[@]}"; do setup_server "$server"; done
release_testbed_lock

cat <<EOF

test bed (${SERVERS[*]}) ready in $(($(date +%s) - START_TS)) s
  feeds host : http://$FEEDS_HOST/ ($FEEDS_ADDR, namespace $NETNS, log $HTTP_LOG)
EOF
