#!/usr/bin/env bash
# side-by-side.sh NAME1 COMMAND1 NAME2 COMMAND2 [NAME3 COMMAND3 ...]: runs test stages at the same
# time (each command a bash command line), then prints each one's output whole, one after the other,
# with its time. Exits non-zero when any failed (with the first failure's code). On this 2-core
# machine this pays only for stages that spend much of their time waiting for a server or a browser:
# the Debian e2e subset beside the cross-engine suite (about 500 s instead of 770 s one after the
# other), the contract tests of the two servers beside the lint (scripts/test.sh).
set -uo pipefail
if [ $# -lt 4 ] || [ $(($# % 2)) -ne 0 ]; then
	echo "usage: side-by-side.sh NAME1 COMMAND1 NAME2 COMMAND2 [NAME COMMAND ...]" >&2
	exit 2
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
started=$(date +%s)
names=()
run() {
	local index=$1 command=$2 began
	began=$(date +%s)
	bash -c "$command" > "$dir/$index.log" 2>&1
	echo "$? $(($(date +%s) - began))" > "$dir/$index.result"
}
while [ $# -gt 0 ]; do
	names+=("$1")
	run ${#names[@]} "$2" &
	shift 2
done
wait
rc=0
for index in $(seq 1 ${#names[@]}); do
	read -r code seconds < "$dir/$index.result"
	echo "=== ${names[$((index - 1))]} (at the same time as the others): $seconds s$([ "$code" = 0 ] || echo ", FAILED ($code)")"
	# Each side's time for the caller's summary (scripts/test.sh keeps it with the stage's).
	[ -z "${SIDE_BY_SIDE_TIMES:-}" ] ||
		printf '%s: %d s%s\n' "${names[$((index - 1))]}" "$seconds" "$([ "$code" = 0 ] || echo "  FAILED ($code)")" >> "$SIDE_BY_SIDE_TIMES"
	cat "$dir/$index.log"
	[ "$code" = 0 ] || [ $rc != 0 ] || rc=$code
done
echo "=== side by side: $(($(date +%s) - started)) s"
exit $rc
