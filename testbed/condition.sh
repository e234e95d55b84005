#!/usr/bin/env bash
# Turns a condition of the server on for a test, for real (see lib.sh):
#   condition.sh daemon on|off     the update daemon runs / stops
#   condition.sh feed-error FILE   reader's feed FILE (e.g. big.xml) fails to update; break it
#                                  before starting the daemon, whose own run could fetch the old
#                                  address meanwhile
# reset.sh turns everything off again.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ "$(id -u)" = 0 ] || die "run as root"
case "${1:-} ${2:-}" in
  "daemon on") start_update_daemon ;;
  "daemon off") stop_update_daemon ;;
  feed-error\ ?*) break_feed "$2" ;;
  *) die "usage: condition.sh daemon on|off | feed-error FILE" ;;
esac
