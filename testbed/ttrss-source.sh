#!/usr/bin/env bash
# Prints the path of the current tt-rss's source tarball (testbed.json's servers.current: `tarball`)
# after checking it; says on stderr which source it took. setup.sh unpacks what it prints. In order:
#   1. $TTRSS_VENDOR_DIR/<tarball> when TTRSS_VENDOR_DIR is set (then it must be there);
#   2. ../shared/vendor/<tarball> beside the repository (TTRSS_SHARED_DIR names another folder than
#      ../shared: the test of step 3 points it at an empty one);
#   3. the pinned commit (`gitCommit`) from tt-rss's git repository (TTRSS_GIT_URL, default `gitUrl`),
#      made into a tarball as `git archive` makes one, kept in TTRSS_SOURCE_CACHE (default
#      /var/cache/ttrss-pwa-testbed) once checked, so later runs need no network.
# Checks: a vendored tarball's sha256 (`tarballSha256`); every tarball's content (`tarballDigest`,
# tarball-digest.py: paths, file hashes, executable bits, link targets), which a `git archive` of
# the same tree passes on any git version whatever its gzip and pax header bytes; the fetched
# commit's id. TTRSS_GIT_COMMIT replaces the pinned id, for the test that fetches from a local copy
# (its commit id cannot be upstream's): the content must still be the pinned one.
# Nothing unchecked is ever printed or left in the cache. Exit 1 with a message otherwise.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
load_server current

# digest_ok TARBALL: its content is the pinned tree (else says what it found).
digest_ok() {
  local got
  got="$(python3 "$TESTBED_DIR/tarball-digest.py" "$1")" || return 1
  [ "$got" = "$TARBALL_DIGEST" ] && return 0
  log "$1: content digest $got, testbed.json pins $TARBALL_DIGEST"
  return 1
}

# use_vendored TARBALL WHERE: checks a vendored tarball, prints it and ends.
use_vendored() {
  local sha
  sha="$(sha256sum "$1" | cut -d' ' -f1)"
  [ "$sha" = "$TARBALL_SHA" ] || die "$1 has sha256 $sha, not testbed.json's $TARBALL_SHA ($2)"
  digest_ok "$1" || die "$1 does not hold the pinned tt-rss tree (testbed.json's tarballDigest)"
  log "tt-rss source: $1 (from $2; sha256 and content checked)"
  echo "$1"
  exit 0
}

if [ -n "${TTRSS_VENDOR_DIR:-}" ]; then
  [ -f "$TTRSS_VENDOR_DIR/$TARBALL" ] ||
    die "TTRSS_VENDOR_DIR is set, but $TTRSS_VENDOR_DIR/$TARBALL is not there (unset it to use ../shared/vendor or tt-rss's git repository)"
  use_vendored "$(cd "$TTRSS_VENDOR_DIR" && pwd)/$TARBALL" TTRSS_VENDOR_DIR
fi
shared="${TTRSS_SHARED_DIR:-$(cd "$TESTBED_DIR/../.." && pwd)/shared}"
if [ -f "$shared/vendor/$TARBALL" ]; then
  use_vendored "$(cd "$shared/vendor" && pwd)/$TARBALL" "${TTRSS_SHARED_DIR:+TTRSS_SHARED_DIR }../shared/vendor"
fi

url="${TTRSS_GIT_URL:-$PIN_GIT_URL}"
commit="${TTRSS_GIT_COMMIT:-$PIN_GIT_COMMIT}"
[[ "$commit" =~ ^[0-9a-f]{40}$ ]] || die "the commit to fetch must be a full 40-digit id, not '$commit'"
[ "$commit" = "$PIN_GIT_COMMIT" ] || log "TTRSS_GIT_COMMIT: fetching $commit instead of the pinned $PIN_GIT_COMMIT"
cache="${TTRSS_SOURCE_CACHE:-/var/cache/ttrss-pwa-testbed}"
out="$cache/$TARBALL"

if [ -f "$out" ]; then
  if digest_ok "$out"; then
    log "tt-rss source: $out (made earlier from tt-rss's git repository; content checked)"
    echo "$out"
    exit 0
  fi
  log "$out does not hold the pinned tree: removed, fetching again"
  rm -f "$out"
fi

command -v git >/dev/null || die "git is needed to fetch tt-rss (no $TARBALL in TTRSS_VENDOR_DIR or ../shared/vendor)"
log "tt-rss source: no $TARBALL in TTRSS_VENDOR_DIR or $shared/vendor; fetching commit $commit from $url"
mkdir -p "$cache"
work="$(mktemp -d "$cache/.fetch.XXXXXX")"
trap 'rm -rf "$work"' EXIT
git init -q "$work/repo"
GIT_TERMINAL_PROMPT=0 git -C "$work/repo" fetch -q --depth 1 --no-tags "$url" "$commit" 2>"$work/fetch.log" ||
  die "could not fetch commit $commit from $url (TTRSS_GIT_URL): $(tail -3 "$work/fetch.log")"
got="$(git -C "$work/repo" rev-parse --verify -q 'FETCH_HEAD^{commit}')" || die "$url gave no commit for $commit"
[ "$got" = "$commit" ] || die "$url gave commit $got, not the pinned $commit"
# What `git archive --format=tar.gz` gives (the vendored tarball), through a gzip of our own: its
# bytes may differ from that file's, its content may not.
git -C "$work/repo" -c core.autocrlf=false archive --format=tar --prefix=tt-rss/ "$got" | gzip -n >"$work/$TARBALL"
digest_ok "$work/$TARBALL" ||
  die "commit $commit from $url is not the pinned tt-rss tree (testbed.json's tarballDigest); nothing kept"
sha="$(sha256sum "$work/$TARBALL" | cut -d' ' -f1)"
mv "$work/$TARBALL" "$out"
if [ "$sha" = "$TARBALL_SHA" ]; then
  log "tt-rss source: $out (commit $commit from $url; content checked; the same bytes as the pinned tarball)"
else
  log "tt-rss source: $out (commit $commit from $url; content checked; sha256 $sha: the vendored tarball's content in other archive bytes)"
fi
echo "$out"
