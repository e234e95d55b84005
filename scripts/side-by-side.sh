#!/usr/bin/env bash
# both.sh NAME1 COMMAND1 NAME2 COMMAND2: runs two test stages at the same time (each command a
# bash command line), then prints each one's output whole, one after the other, with its time.
# Exits non-zero when either failed. On this 2-core machine the Debian e2e subset and the
# cross-engine suite together take about 500 s instead of 770 s one after the other: each spends
# much of its time waiting for its server and its browser.
set -uo pipefail
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
started=$(date +%s)
run() {
	local index=$1 command=$2 began
	began=$(date +%s)
	bash -c "$command" > "$dir/$index.log" 2>&1
	echo "$? $(($(date +%s) - began))" > "$dir/$index.result"
}
run 1 "$2" &
run 2 "$4" &
wait
rc=0
for index in 1 2; do
	name=$([ $index = 1 ] && echo "$1" || echo "$3")
	read -r code seconds < "$dir/$index.result"
	echo "=== $name (at the same time as the other): $seconds s$([ "$code" = 0 ] || echo ", FAILED ($code)")"
	cat "$dir/$index.log"
	[ "$code" = 0 ] || rc=$code
done
echo "=== both: $(($(date +%s) - started)) s"
exit $rc
