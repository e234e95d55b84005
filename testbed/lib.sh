# Shared helpers for setup.sh and reset.sh. Sourced, not run.
# Everything reads testbed/testbed.json, the one place holding URLs, users and passwords.

TESTBED_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TESTBED_JSON="$TESTBED_DIR/testbed.json"
FIXTURES_DIR="$TESTBED_DIR/fixtures"

cfg() { node -p "require(process.argv[1])[process.argv[2]]" "$TESTBED_JSON" "$1"; }

# The servers of the test bed: testbed.json's top level holds what they share (users, feeds host)
# and the Debian server's own values; servers.<name> overrides them for that server. `current2` is a
# second copy of the current tt-rss (its own web root, port, php-fpm, nginx and database, made from
# the current server's seed): the e2e suite's second worker tests against it (playwright.config.ts).
# `current3`, a third copy, is for the long chaos runs beside the e2e suite (docs/reliability.md).
TESTBED_SERVERS=(debian current current2 current3)

# load_server NAME: sets the variables below for one server (one node start: reset.sh is on the
# tests' hot path). TESTBED picks the server for scripts that serve one (condition.sh).
load_server() {
  eval "$(node -e '
    const c = require(process.argv[1]);
    const name = process.argv[2];
    const s = (c.servers || {})[name];
    if (!s) { console.error(`testbed.json has no server "${name}" (servers: ${Object.keys(c.servers || {})})`); process.exit(1); }
    // A copy (copyOf) takes the values of the server it copies, then its own (as testbed.ts).
    const m = { ...c, ...(s.copyOf ? c.servers[s.copyOf] : {}), ...s };
    const q = (v) => "'"'"'" + String(v).replace(/'"'"'/g, "'"'"'\\'"'"''"'"'") + "'"'"'";
    const map = { TT_URL: "url", API_URL: "apiUrl", TT_USER: "user", TT_PASS: "password",
      NOAPI_USER: "noApiUser", NOAPI_PASS: "noApiPassword", SECOND_USER: "secondUser",
      SECOND_PASS: "secondPassword", FEEDS_HOST: "feedsHost",
      FEEDS_ADDR: "feedsAddress", FEEDS_HOST_ADDR: "feedsHostAddress", NETNS: "feedsNamespace",
      DB_NAME: "dbName", DB_SEED: "dbSeedName", DB_USER: "dbUser", DB_PASS: "dbPassword",
      API_LEVEL: "apiLevel" };
    for (const [k, v] of Object.entries(map)) {
      if (m[v] === undefined) { console.error(`testbed.json lacks ${v} for server ${name}`); process.exit(1); }
      console.log(`${k}=${q(m[v])}`);
    }
    // Only some servers have these.
    const optional = { NOBROWSER_USER: "noBrowserUser", NOBROWSER_PASS: "noBrowserPassword",
      FEEDS_ALIASES: "feedsAliases",
      APP_ROOT: "appRoot", TARBALL: "tarball", TARBALL_SHA: "tarballSha256",
      TARBALL_DIGEST: "tarballDigest", PIN_GIT_URL: "gitUrl", PIN_GIT_COMMIT: "gitCommit", COPY_OF: "copyOf" };
    for (const [k, v] of Object.entries(optional)) console.log(`${k}=${q(m[v] ?? "")}`);
    console.log(`SERVER=${q(name)}`);
    console.log(`HTTP_PORT=${q(new URL(m.url).port || "80")}`);
  ' "$TESTBED_JSON" "$1")" || die "cannot read server $1 from $TESTBED_JSON"
  DB_PRISTINE="${DB_NAME}_pristine"
  if [ "$SERVER" = debian ]; then
    TTRSS_WWW=/usr/share/tt-rss/www
  else
    TTRSS_WWW="$APP_ROOT/html/tt-rss"
  fi
}

# servers_from_args [NAME...|all] -> the names, one a line (none or "all": every server).
servers_from_args() {
  if [ $# = 0 ] || [ "$1" = all ]; then printf '%s\n' "${TESTBED_SERVERS[@]}"; return; fi
  local n
  for n in "$@"; do
    [[ " ${TESTBED_SERVERS[*]} " == *" $n "* ]] || die "unknown server $n (known: ${TESTBED_SERVERS[*]} all)"
    echo "$n"
  done
}

VETH_HOST="veth-ttrss0"
VETH_NS="veth-ttrss1"
HTTP_PIDFILE="/tmp/ttrss-feeds-http.pid"
HTTP_LOG="/tmp/ttrss-feeds-http.log"
# http.server over the fixtures, plus pages held past the plugin's timeout (/slow/…).
FEEDS_SERVER="$TESTBED_DIR/feeds_server.py"

log() { printf '[testbed %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf '[testbed] ERROR: %s\n' "$*" >&2; exit 1; }

load_server "${TESTBED:-debian}"

# psql as the postgres superuser (peer auth over the socket).
pg() { PGOPTIONS="-c client_min_messages=warning" runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 "$@"; }
pg_val() { PGOPTIONS="-c client_min_messages=warning" runuser -u postgres -- psql -X -A -t -v ON_ERROR_STOP=1 "$@"; }

# Runs a command (a daemon's start) with every file descriptor above 2 closed: a daemon that inherits
# a lock's descriptor holds the lock for its whole life — the test-bed lock on fd 9 here, or the
# caller's own (`flock /tmp/e2e-run.lock bash testbed/reset.sh` restarting the feeds server).
without_inherited_fds() {
  (
    close_inherited_fds
    exec "$@"
  )
}
# For use in a subshell about to exec: `( close_inherited_fds; exec daemon … ) &`.
close_inherited_fds() {
  local fd
  for fd in /proc/$BASHPID/fd/*; do
    fd=${fd##*/}
    [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-"
  done
  return 0
}

curl_local() { curl -sS --noproxy '*' --max-time "${CURL_TIMEOUT:-20}" "$@"; }

start_postgres() {
  if ! pg_lsclusters -h 2>/dev/null | awk '$1=="15" && $2=="main"' | grep -q online; then
    log "starting PostgreSQL 15/main"
    without_inherited_fds pg_ctlcluster 15 main start
  fi
  local i
  for i in $(seq 1 50); do
    pg_val -c 'select 1' >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  die "PostgreSQL does not answer"
}

start_apache() {
  if curl_local -o /dev/null "http://localhost/" 2>/dev/null; then return 0; fi
  log "starting Apache"
  without_inherited_fds apachectl start
  local i
  for i in $(seq 1 50); do
    curl_local -o /dev/null "http://localhost/" 2>/dev/null && return 0
    sleep 0.2
  done
  die "Apache does not answer on http://localhost/"
}

feeds_server_ok() {
  curl_local --max-time 3 -o /dev/null -f "http://$FEEDS_HOST/index.html" 2>/dev/null
}

# The feeds host lives in a network namespace of our own: tt-rss refuses to fetch
# from loopback, and the workplace allows no other address. Its other names (FEEDS_ALIASES: the
# image hosts of the real-world-shaped feeds) are on the same /etc/hosts line, so they resolve
# here and nowhere else.
# Two resets at once (the e2e suite's two workers, both servers' contract suites side by side) once
# both found the server not theirs and rebuilt the namespace together: one of them failed. One at a
# time, each looking again once it holds the lock (fd 8; the daemon closes it, close_inherited_fds).
FEEDS_NS_LOCK=/tmp/ttrss-feeds-namespace.lock
start_feeds_namespace() {
  exec 8>"$FEEDS_NS_LOCK"
  flock -w 120 8 || die "$FEEDS_NS_LOCK still held after 120 s"
  start_feeds_namespace_locked
  exec 8>&-
}

start_feeds_namespace_locked() {
  local hosts_line="$FEEDS_ADDR $FEEDS_HOST${FEEDS_ALIASES:+ $FEEDS_ALIASES}"
  if ! grep -qxF "$hosts_line" /etc/hosts; then
    sed -i -E "/[[:space:]]$FEEDS_HOST([[:space:]]|\$)/d" /etc/hosts
    [ -z "$(tail -c1 /etc/hosts)" ] || echo >>/etc/hosts
    echo "$hosts_line" >>/etc/hosts
  fi
  # A server started from another checkout (a CI clone, say) serves that checkout's fixtures: tests
  # write feeds into this checkout's (alerts, sync, the check-up's failing feed), so it must be ours.
  # The server's script is named with the folder: one started by an older checkout (plain
  # `python3 -m http.server`, no /slow/ pages) is replaced too.
  local served want="$FIXTURES_DIR $FEEDS_SERVER"
  # No file on a fresh machine: an empty answer, not set -e's exit.
  served="$(cat "$HTTP_PIDFILE.dir" 2>/dev/null || true)"
  if feeds_server_ok && [ "$served" = "$want" ]; then
    return 0
  fi

  log "(re)creating network namespace $NETNS and the feeds HTTP server"
  # Tear down whatever half state is left, then build it whole.
  if ip netns list | grep -qw "$NETNS"; then
    local p
    for p in $(ip netns pids "$NETNS"); do kill "$p" 2>/dev/null || true; done
    sleep 0.3
    ip netns del "$NETNS"
  fi
  ip link del "$VETH_HOST" 2>/dev/null || true

  ip netns add "$NETNS"
  ip link add "$VETH_HOST" type veth peer name "$VETH_NS"
  ip link set "$VETH_NS" netns "$NETNS"
  ip addr add "$FEEDS_HOST_ADDR/24" dev "$VETH_HOST"
  ip link set "$VETH_HOST" up
  ip netns exec "$NETNS" ip addr add "$FEEDS_ADDR/24" dev "$VETH_NS"
  ip netns exec "$NETNS" ip link set "$VETH_NS" up
  ip netns exec "$NETNS" ip link set lo up

  (
    close_inherited_fds
    exec setsid nohup ip netns exec "$NETNS" /usr/bin/python3 "$FEEDS_SERVER" 80 \
      --bind "$FEEDS_ADDR" --directory "$FIXTURES_DIR" >"$HTTP_LOG" 2>&1 </dev/null
  ) &
  echo $! >"$HTTP_PIDFILE"
  echo "$want" >"$HTTP_PIDFILE.dir"
  local i
  for i in $(seq 1 50); do
    feeds_server_ok && return 0
    sleep 0.2
  done
  die "feeds server at http://$FEEDS_HOST/ does not answer (log: $HTTP_LOG)"
}

# One user of the test bed's databases at a time (setup.sh, reset.sh, the bench's swap), on fd 9.
# Every daemon these scripts start goes through without_inherited_fds: one that inherited fd 9 would
# hold the lock for its whole life, and the next reset would wait forever (a CI run on a freshly
# booted machine did).
TESTBED_LOCK=/tmp/ttrss-testbed.lock
TESTBED_LOCK_HELD=0
take_testbed_lock() {
  [ "$TESTBED_LOCK_HELD" = 1 ] && return 0 # one hold for every server a script handles
  exec 9>"$TESTBED_LOCK"
  flock -w 300 9 || die "$TESTBED_LOCK still held after 300 s by: $(lock_holders)"
  TESTBED_LOCK_HELD=1
}
lock_holders() {
  local fd out=""
  for fd in /proc/[0-9]*/fd/*; do
    [ "$(readlink "$fd" 2>/dev/null)" = "$TESTBED_LOCK" ] || continue
    fd=${fd%/fd/*}
    out+="${fd#/proc/} ($(tr '\0' ' ' <"$fd/cmdline" 2>/dev/null)) "
  done
  echo "${out:-nobody}"
}
# Ends this script's hold and checks that no process it started kept the lock.
release_testbed_lock() {
  exec 9>&-
  TESTBED_LOCK_HELD=0
  flock -w 5 "$TESTBED_LOCK" true || die "a process started here kept $TESTBED_LOCK: $(lock_holders)"
}

# ------------------------------------------------------------------ the current server's web stack
# Laid out like its Docker images: php-fpm (a pool of our own, its own master) and nginx with the
# web-nginx image's nginx.conf, both in the foreground as the images run them, under setsid.
current_run_dir() { echo "$APP_ROOT/run"; }
current_log_dir() { echo "/var/log/ttrss-$SERVER"; }
current_nginx_conf() { echo "/etc/nginx/ttrss-$SERVER.conf"; }

# pid_alive PIDFILE: the process named in PIDFILE runs.
pid_alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# port_holder PORT -> what listens on PORT ("" when nothing).
port_holder() { ss -Hltnp "sport = :$1" 2>/dev/null | sed -n 's/.*users:(("\([^"]*\)".*/\1/p' | sort -u | paste -sd, -; }

current_ok() {
  curl_local --max-time 5 -f -o /dev/null "${TT_URL}public.php?op=healthcheck" 2>/dev/null
}

start_php_fpm() {
  local run; run="$(current_run_dir)"
  pid_alive "$run/php-fpm.pid" && [ -S "$run/php-fpm.sock" ] && return 0
  log "starting php-fpm8.2 (pool ttrss-$SERVER, $run/php-fpm.sock)"
  mkdir -p "$(current_log_dir)"
  # clear_env is off (as in tt-rss's image), so tt-rss reads every TTRSS_* variable php-fpm has as
  # a setting: none of the caller's may reach it (TTRSS_CACHE_DIR is tt-rss's own cache folder).
  local drop=() name
  for name in $(compgen -e); do [[ "$name" != TTRSS_* ]] || drop+=(-u "$name"); done
  (
    close_inherited_fds
    exec env "${drop[@]}" setsid nohup php-fpm8.2 --nodaemonize --force-stderr --fpm-config "$APP_ROOT/etc/php-fpm.conf" \
      >>"$(current_log_dir)/php-fpm.log" 2>&1 </dev/null
  ) &
  local i
  for i in $(seq 1 50); do
    [ -S "$run/php-fpm.sock" ] && pid_alive "$run/php-fpm.pid" && return 0
    sleep 0.1
  done
  die "php-fpm did not start (log: $(current_log_dir)/php-fpm.log)"
}

start_nginx() {
  local run holder; run="$(current_run_dir)"
  if pid_alive "$run/nginx.pid"; then
    current_ok && return 0
    die "nginx runs (pid $(cat "$run/nginx.pid")) but ${TT_URL} does not answer (log: $(current_log_dir)/nginx.log)"
  fi
  holder="$(port_holder "$HTTP_PORT")"
  [ -z "$holder" ] ||
    die "port $HTTP_PORT (servers.$SERVER.url in testbed.json) is taken by $holder; pick a free port there"
  log "starting nginx on port $HTTP_PORT"
  mkdir -p "$(current_log_dir)"
  (
    close_inherited_fds
    exec setsid nohup nginx -c "$(current_nginx_conf)" -g 'daemon off;' \
      >>"$(current_log_dir)/nginx.log" 2>&1 </dev/null
  ) &
  local i
  for i in $(seq 1 50); do
    current_ok && return 0
    sleep 0.2
  done
  die "${TT_URL} does not answer after starting nginx (log: $(current_log_dir)/nginx.log)"
}

# Services of the server loaded by load_server.
ensure_services() {
  start_postgres
  if [ "$SERVER" = debian ]; then
    start_apache
  else
    start_php_fpm
    start_nginx
  fi
  start_feeds_namespace
}

# live_db_from SNAPSHOT: makes the live database a copy of the template database SNAPSHOT
# (reset.sh: the seed; bench/use-bench-db.sh: the bench data). The copy is made under a spare name
# first, then swapped in: the live database is missing only between DROP and RENAME (milliseconds),
# not for the whole copy. DROP ... WITH (FORCE) ends Apache's open connections. Two swaps at once
# (parallel test workers) queue up on a lock instead of colliding.
live_db_from() {
  local snapshot=$1
  [ "$(pg_val -c "select 1 from pg_database where datname='$snapshot'")" = 1 ] ||
    die "no database $snapshot: run testbed/setup.sh (or bench/setup.sh for the bench data) first"
  take_testbed_lock
  pg -o /dev/null <<SQL
DROP DATABASE IF EXISTS "${DB_NAME}_next" WITH (FORCE);
SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '$snapshot' AND pid <> pg_backend_pid();
CREATE DATABASE "${DB_NAME}_next" TEMPLATE "$snapshot" OWNER "$DB_USER";
DROP DATABASE IF EXISTS "$DB_NAME" WITH (FORCE);
ALTER DATABASE "${DB_NAME}_next" RENAME TO "$DB_NAME";
SQL
}

# api BODY-JSON -> prints the reply's "content" as JSON; dies unless status is 0.
api() {
  local reply
  reply="$(curl_local --max-time 120 -H 'Content-Type: application/json' --data-binary "$1" "$API_URL")" ||
    die "API request failed: $1"
  # Replies can be large: hand them to node on stdin, not as an argument.
  node -e '
    let r; try { r = JSON.parse(require("fs").readFileSync(0, "utf8")); } catch { process.exit(2); }
    if (r.status !== 0) process.exit(1);
    process.stdout.write(JSON.stringify(r.content));
  ' <<<"$reply" || die "API call did not succeed: $1 -> ${reply:0:2000}"
}

# api_raw BODY-JSON -> prints the whole reply (no status check).
api_raw() {
  curl_local --max-time 120 -H 'Content-Type: application/json' --data-binary "$1" "$API_URL"
}

# json EXPR <<<JSON -> evaluates EXPR with `c` bound to the JSON read from stdin, prints the result.
json() { node -e 'const c = JSON.parse(require("fs").readFileSync(0, "utf8")); const v = eval(process.argv[1]); process.stdout.write(typeof v === "string" ? v : JSON.stringify(v));' "$1"; }

# The conditions the server check-up diagnoses (tests/e2e/account-tools.spec.ts), switched on and
# off for real. reset.sh puts both back: daemon stopped, no feed in error.
#
# The update daemon as Debian's tt-rss.service runs it (there is no systemd here). tt-rss reports it
# running (getConfig's daemon_is_running) while it holds the flock of update_daemon.lock.
update_daemon_pidfile() {
  if [ "$SERVER" = debian ]; then echo /tmp/ttrss-update-daemon.pid; else echo "/tmp/ttrss-$SERVER-update-daemon.pid"; fi
}
# Its LOCK_DIRECTORY: Debian's package sets /var/lib/tt-rss, the current server keeps the default lock/.
update_daemon_lockfile() {
  if [ "$SERVER" = debian ]; then echo /var/lib/tt-rss/update_daemon.lock; else echo "$TTRSS_WWW/lock/update_daemon.lock"; fi
}
start_update_daemon() {
  stop_update_daemon
  (
    close_inherited_fds
    cd "$TTRSS_WWW" &&
      exec setsid runuser -u www-data -- php update.php --daemon >/dev/null 2>&1 </dev/null
  ) &
  echo $! >"$(update_daemon_pidfile)"
  local i
  for i in $(seq 1 50); do
    update_daemon_locked && return 0
    sleep 0.2
  done
  die "the update daemon did not take its lock"
}
# Read from /proc/locks, never by taking the lock: a probe holding it for a moment (flock -n) met
# the daemon's own non-blocking lock now and then on a loaded machine, and the daemon, refused, exited
# ("Can't create lockfile"), so the wait above ran out. Never creates the file either: one made by
# root here would keep the daemon (www-data) from locking it.
update_daemon_locked() {
  local f ino; f="$(update_daemon_lockfile)"
  [ -e "$f" ] || return 1
  ino="$(stat -c %i "$f")"
  grep -q ":$ino " /proc/locks
}
stop_update_daemon() {
  local pidfile; pidfile="$(update_daemon_pidfile)"
  [ -f "$pidfile" ] || return 0
  # setsid made the daemon a process-group leader: end it and the workers it forked.
  kill -- "-$(cat "$pidfile")" 2>/dev/null || true
  rm -f "$pidfile"
  local i
  for i in $(seq 1 50); do
    update_daemon_locked || return 0
    sleep 0.1
  done
  die "the update daemon still holds its lock"
}

# A feed whose updates fail, the way they fail in real life: its address now answers 404, and the
# server's own update run records the error (getFeedTree's `error`, getFeeds' `last_error` at 23).
break_feed() { # $1: the fixture file name of one of reader's feeds, e.g. big.xml
  pg -d "$DB_NAME" -o /dev/null -v f="/feeds/$1" -v gone="http://$FEEDS_HOST/feeds/gone-$1" <<'SQL'
UPDATE ttrss_feeds SET feed_url = :'gone', last_updated = NULL, last_error = ''
 WHERE feed_url LIKE '%' || :'f';
SQL
  (cd "$TTRSS_WWW" && runuser -u www-data -- php update.php --feeds --force-update >/dev/null 2>&1) ||
    die "update.php failed"
}
