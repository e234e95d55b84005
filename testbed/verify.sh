#!/usr/bin/env bash
# Checks the seeded state of the test bed's servers through the JSON API with curl (run after
# setup.sh or reset.sh). Run: bash testbed/verify.sh [debian|current|all]   (default all)
# Prints one line per check and "N passed, N failed" at the end; exits non-zero on a failure.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PASSED=0
FAILED=0
check() { # $1 description, $2 node expression over `c` that must be true, stdin JSON
  local ok
  ok="$(json "Boolean($2)")" || ok=false
  if [ "$ok" = true ]; then PASSED=$((PASSED + 1)); echo "ok   - $1"; else FAILED=$((FAILED + 1)); echo "FAIL - $1"; fi
}

mapfile -t SERVERS < <(servers_from_args "$@")

verify_server() {
  load_server "$1"
  echo "# server $SERVER ($TT_URL)"
  SID="$(json 'c.session_id' <<<"$(api "{\"op\":\"login\",\"user\":\"$TT_USER\",\"password\":\"$TT_PASS\"}")")"
  call() { api "{\"op\":\"$1\",\"sid\":\"$SID\"${2:+,$2}}"; }

  check "login as $TT_USER gives a session" 'c.length > 10' <<<"\"$SID\""
  check "api level is $API_LEVEL" "c.level === $API_LEVEL" <<<"$(call getApiLevel)"

  FEEDS="$(call getFeeds '"cat_id":-4')"
  check "getFeeds cat_id -4: 7 real feeds" 'c.filter((f) => f.id > 0).length === 7' <<<"$FEEDS"
  check "getFeeds cat_id -4: special feeds -1 -2 -3 -4 -6 0" '[-1,-2,-3,-4,-6,0].every((id) => c.some((f) => f.id === id))' <<<"$FEEDS"
  check "getFeeds: three uncategorized feeds" 'c.filter((f) => f.id > 0 && f.cat_id === 0).length === 3' <<<"$FEEDS"
  check "getFeeds: every feed URL is on $FEEDS_HOST" 'c.filter((f) => f.id > 0).every((f) => f.feed_url.startsWith("http://'"$FEEDS_HOST"'/"))' <<<"$FEEDS"

  CATS="$(call getCategories '"enable_nested":true,"include_empty":true')"
  check "getCategories nested: Tech, World, Empty at top; Web not (nested)" \
    '["Tech","World","Empty"].every((t) => c.some((x) => x.title === t)) && !c.some((x) => x.title === "Web")' <<<"$CATS"
  CATS_FLAT="$(call getCategories '"include_empty":true')"
  check "getCategories flat: Web listed" 'c.some((x) => x.title === "Web")' <<<"$CATS_FLAT"
  TECH="$(json 'c.find((x) => x.title === "Tech").id' <<<"$CATS_FLAT")"
  WEB="$(json 'c.find((x) => x.title === "Web").id' <<<"$CATS_FLAT")"
  check "getFeeds of Tech with include_nested lists the Web category" \
    "c.some((x) => x.is_cat && x.title === 'Web')" <<<"$(call getFeeds "\"cat_id\":$TECH,\"include_nested\":true")"
  check "Web category holds the Atom feed" "c.length === 1 && /Atom/.test(c[0].title)" <<<"$(call getFeeds "\"cat_id\":$WEB")"

  LABELS="$(call getLabels)"
  check "getLabels: Important and Later with colours" \
    'c.length === 2 && c.every((l) => l.id < -1000 && l.fg_color && l.bg_color) && c.map((l) => l.caption).sort().join() === "Important,Later"' <<<"$LABELS"

  BIG="$(json 'c.find((f) => /Big Feed/.test(f.title)).id' <<<"$FEEDS")"
  BIGH="$(call getHeadlines "\"feed_id\":$BIG,\"limit\":-1")"
  check "getHeadlines big feed limit -1: 320 headlines" 'c.length === 320' <<<"$BIGH"
  check "getHeadlines big feed limit 500 is capped at 200" 'c.length === 200' <<<"$(call getHeadlines "\"feed_id\":$BIG,\"limit\":500")"
  check "big feed: 20 read, 300 unread" 'c.filter((h) => !h.unread).length === 20' <<<"$BIGH"

  STARRED="$(call getHeadlines '"feed_id":-1,"limit":-1')"
  check "starred (-1): 5 articles" 'c.length === 5' <<<"$STARRED"
  check "published (-2): 3 articles" 'c.length === 3' <<<"$(call getHeadlines '"feed_id":-2,"limit":-1')"
  check "notes: 2 articles with a note" 'c.filter((h) => h.note).length === 2' <<<"$(call getHeadlines '"feed_id":-4,"limit":-1')"
  check "note text survives (Cyrillic, check mark)" 'c.some((h) => h.note && h.note.includes("Заметка") && h.note.includes("✓"))' <<<"$(call getHeadlines '"feed_id":-4,"limit":-1,"view_mode":"has_note"')"
  IMPORTANT="$(json 'c.find((l) => l.caption === "Important").id' <<<"$LABELS")"
  check "label feed Important: 3 articles" 'c.length === 3' <<<"$(call getHeadlines "\"feed_id\":$IMPORTANT,\"limit\":-1")"

  COUNTERS="$(call getCounters)"
  check "global unread is 363 - 26 read = 337" 'c.find((x) => x.id === "global-unread").counter == 337' <<<"$COUNTERS"

  HOSTILE="$(json 'c.find((f) => /Hostile HTML/.test(f.title)).id' <<<"$FEEDS")"
  HH="$(call getHeadlines "\"feed_id\":$HOSTILE,\"limit\":-1,\"show_content\":true,\"has_sandbox\":true")"
  check "hostile feed: 11 items reached the server" 'c.length === 11' <<<"$HH"
  check "hostile content reached the server (text kept)" 'c.some((h) => h.content.includes("Before script") && h.content.includes("After script"))' <<<"$HH"
  check "server stripped <script> and on* handlers (outside attribute values)" \
    '!c.some((h) => /<script|\son[a-z]+\s*=/i.test(h.content.replace(/"[^"]*"/g, "\"\"")))' <<<"$HH"

  CORPUS_N="$(node -p 'require(process.argv[1]).length' "$TESTBED_DIR/../tests/fixtures/hostile/corpus.json")"
  CORPUS="$(json 'c.find((f) => f.title === "Testbed Hostile Corpus").id' <<<"$FEEDS")"
  CH="$(call getHeadlines "\"feed_id\":$CORPUS,\"limit\":-1,\"show_content\":true,\"has_sandbox\":true")"
  check "hostile corpus feed: $CORPUS_N items, all seeded read" "c.length === $CORPUS_N && c.every((h) => !h.unread)" <<<"$CH"
  check "hostile corpus titles are 'Corpus NNN: name'" 'c.every((h) => /^Corpus \d{3}: [a-z0-9-]+$/.test(h.title))' <<<"$CH"

  WEBH="$(call getHeadlines "\"feed_id\":$WEB,\"limit\":-1,\"show_content\":true,\"has_sandbox\":true,\"include_attachments\":true")"
  check "has_sandbox: iframe to $FEEDS_HOST kept with a sandbox" 'c.some((h) => /<iframe[^>]*sandbox/.test(h.content) && h.content.includes("'"$FEEDS_HOST"'/embed/player.html"))' <<<"$WEBH"
  check "Atom entry with two enclosures (audio + image)" 'c.some((h) => h.attachments.length === 2)' <<<"$WEBH"

  PODCAST="$(json 'c.find((f) => /Podcast/.test(f.title)).id' <<<"$FEEDS")"
  check "podcast enclosures: audio/wav, video/webm, video/mp4, image/png" \
    '["audio/wav","video/webm","video/mp4","image/png"].every((t) => c.some((h) => h.attachments.some((a) => a.content_type === t)))' \
    <<<"$(call getHeadlines "\"feed_id\":$PODCAST,\"limit\":-1,\"include_attachments\":true")"

  INTL="$(json 'c.find((f) => /International/.test(f.title)).id' <<<"$FEEDS")"
  check "non-Latin titles (Japanese, Arabic, Russian, Greek, emoji)" \
    '["日本語","العربية","русском","ελληνικά","🎉"].every((s) => c.some((h) => h.title.includes(s)))' \
    <<<"$(call getHeadlines "\"feed_id\":$INTL,\"limit\":-1")"

  check "feeds.test media answers" 'c === 200' <<<"$(curl_local -o /dev/null -w '%{http_code}' "http://$FEEDS_HOST/media/clip.webm")"

  api "{\"op\":\"logout\",\"sid\":\"$SID\"}" >/dev/null
  NOAPI="$(api_raw "{\"op\":\"login\",\"user\":\"$NOAPI_USER\",\"password\":\"$NOAPI_PASS\"}")"
  check "login as $NOAPI_USER answers API_DISABLED" 'c.status === 1 && c.content.error === "API_DISABLED"' <<<"$NOAPI"
  SID2="$(json 'c.session_id' <<<"$(api "{\"op\":\"login\",\"user\":\"$SECOND_USER\",\"password\":\"$SECOND_PASS\"}")")"
  check "$SECOND_USER has its own feed, 5 articles, all unread" 'c.length === 5 && c.every((h) => h.unread)' \
    <<<"$(api "{\"op\":\"getHeadlines\",\"sid\":\"$SID2\",\"feed_id\":-4,\"limit\":-1}")"
  api "{\"op\":\"logout\",\"sid\":\"$SID2\"}" >/dev/null
  # The second user: the current server refuses a user's logins for 5 s after a failed one.
  BAD="$(api_raw "{\"op\":\"login\",\"user\":\"$SECOND_USER\",\"password\":\"wrong\"}")"
  check "wrong password answers LOGIN_ERROR" 'c.status === 1 && c.content.error === "LOGIN_ERROR"' <<<"$BAD"

  if [ "$API_LEVEL" -ge 23 ]; then
    check "getFeeds (level 23): last_error and update_interval" \
      'c.filter((f) => f.id > 0).every((f) => f.last_error === "" && f.update_interval === 0)' <<<"$FEEDS"
  fi
  if [ -n "$NOBROWSER_USER" ]; then
    SID3="$(json 'c.session_id' <<<"$(api "{\"op\":\"login\",\"user\":\"$NOBROWSER_USER\",\"password\":\"$NOBROWSER_PASS\"}")")"
    check "$NOBROWSER_USER: a browser's request (Sec-Fetch-Mode) answers API_DISABLED after a good login" \
      'c.status === 1 && c.content.error === "API_DISABLED"' \
      <<<"$(curl_local -H 'Content-Type: application/json' -H 'Sec-Fetch-Mode: cors' --data-binary "{\"op\":\"getUnread\",\"sid\":\"$SID3\"}" "$API_URL")"
    check "$NOBROWSER_USER: the same request without Sec-Fetch-Mode works" 'c.status === 0' \
      <<<"$(api_raw "{\"op\":\"getUnread\",\"sid\":\"$SID3\"}")"
    api "{\"op\":\"logout\",\"sid\":\"$SID3\"}" >/dev/null
  fi
}

for server in "${SERVERS[@]}"; do verify_server "$server"; done
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" = 0 ]
